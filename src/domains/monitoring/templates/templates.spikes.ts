import { aboveOwnHistory, ownFundsInflow, STORICO_ANNO, STORICO_GIORNI, unlikePeers } from './templates.common';
import type { ModelloRegola } from './template.types';

/**
 * Spikes and profile inconsistency: a customer against their own history (ratio_history over the
 * half year before the window), against what they declared (ratio_declared, the monthly volume) and
 * against their peers (peer_ratio: same kind of subject and ATECO section, so a seasonal business
 * in its season is compared with the others in theirs). Volume is measured on inflows: money
 * arriving is what a customer must explain, while the legitimate large outflows (a house or a car
 * bought from savings, a tax bill) are payments of money already held; inflows from the customer's
 * own funds (a transfer from their deposit account, a mortgage disbursed) exclude the month.
 * Peers are an exclusion, never a requirement: where the daily batch has no median for the group,
 * the comparison is missing and the rule still judges by history.
 */

export const piccoVelocita: ModelloRegola = {
  cod_regola: 'picco_velocita',
  nome: 'Aumento improvviso del numero di operazioni',
  tipologia: 'picco_velocita',
  descrizione: 'Almeno 15 operazioni in 7 giorni, più di 5 volte il numero abituale del cliente per 7 giorni (negli ultimi sei mesi, '
    + 'nell\'ultimo anno e nelle stesse settimane di un anno prima; un cliente senza storico è confrontato solo con i clienti simili), '
    + 'oppure più di 3 volte con almeno 3 controparti mai viste nell\'anno precedente; e almeno il triplo della mediana dei clienti simili. '
    + 'Chi opera già molto (un datore di lavoro, un negozio) raddoppia con poche controparti nuove: il picco si riconosce da quelle, '
    + 'mentre la settimana degli stipendi va alle controparti di sempre.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 45, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.11', '10.14'],
  condizione: { tutti: [
    { aggregato: { fn: 'count', finestra_giorni: 7 }, op: 'gte', valore: 15 },
    { almeno_uno: [
      aboveOwnHistory({ finestra_giorni: 7, misura: 'numero' }, 5),
      { tutti: [
        aboveOwnHistory({ finestra_giorni: 7, misura: 'numero' }, 3),
        { aggregato: { fn: 'distinct_new_counterparties', finestra_giorni: 7, storico_giorni: STORICO_ANNO }, op: 'gte', valore: 3 },
      ] },
    ] },
    unlikePeers({ finestra_giorni: 7, misura: 'numero' }, 3),
  ] },
};

export const piccoVolume: ModelloRegola = {
  cod_regola: 'picco_volume',
  nome: 'Aumento improvviso delle entrate rispetto allo storico',
  tipologia: 'picco_volume',
  descrizione: 'Entrate per almeno 10.000 € in 30 giorni, più di 6 volte la media mensile del cliente sia negli ultimi sei mesi sia nell\'ultimo anno (la stagione precedente) e '
    + 'almeno il triplo della mediana dei clienti simili. Non scatta quando le entrate del mese comprendono almeno 5.000 € '
    + 'dai fondi propri del cliente (giroconto dal conto deposito, erogazione di un mutuo: l\'acquisto di una casa o di un\'auto).',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['10.11', '9.15'],
  condizione: { tutti: [
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 10_000 },
    { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: STORICO_GIORNI, segno: 'entrata' }, op: 'gt', valore: 6 },
    aboveOwnHistory({ finestra_giorni: 30, segno: 'entrata' }, 6),
    unlikePeers({ finestra_giorni: 30, segno: 'entrata' }, 3),
    { non: ownFundsInflow(5_000) },
  ] },
};

export const incoerenzaProfiloVolume: ModelloRegola = {
  cod_regola: 'incoerenza_profilo_volume',
  nome: 'Movimentazione incoerente con il volume dichiarato',
  tipologia: 'incoerenza_profilo_volume',
  descrizione: 'Negli ultimi 30 giorni entrate e uscite insieme (almeno 500 € in almeno tre operazioni da 100 €) superano il doppio '
    + 'del volume mensile dichiarato e il triplo del proprio storico (sei mesi e anno), con entrate oltre due volte e mezza lo '
    + 'storico (due stipendi nello stesso mese non bastano); non scatta se i clienti simili movimentano altrettanto (meno del '
    + 'doppio della loro mediana), salvo oltre cinque volte il dichiarato. Un acquisto importante pagato con il saldo (crescono '
    + 'solo le uscite) o con fondi propri (giroconto dal conto deposito, mutuo) non basta.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert', finestra_dedup_giorni: 60,
  indicatori: ['9.15', '10.11'],
  condizione: { tutti: [
    { aggregato: { fn: 'ratio_declared', finestra_giorni: 30 }, op: 'gt', valore: 2 },
    { aggregato: { fn: 'count', finestra_giorni: 30, importo_min: 100 }, op: 'gte', valore: 3 },
    { aggregato: { fn: 'sum', finestra_giorni: 30 }, op: 'gte', valore: 500 },
    aboveOwnHistory({ finestra_giorni: 30 }, 3),
    aboveOwnHistory({ finestra_giorni: 30, segno: 'entrata' }, 2.5),
    { almeno_uno: [unlikePeers({ finestra_giorni: 30 }, 2), { aggregato: { fn: 'ratio_declared', finestra_giorni: 30 }, op: 'gt', valore: 5 }] },
    { non: ownFundsInflow(5_000) },
  ] },
};
