import type { ModelloRegola } from './template.types';

/**
 * Spikes and profile inconsistency: a customer against their own history (ratio_history over the
 * year before the window), against what they declared (ratio_declared, the monthly volume) and
 * against their peers (peer_ratio: same kind of subject and ATECO section). Inflows are what is
 * measured: money arriving is what a customer must explain, while the legitimate large outflows
 * (a house bought from savings, a car, a tax bill) are single payments of money already held.
 * Peers are an exclusion, never a requirement (`non … < x`): where the daily batch has no median
 * for the group, the comparison is missing and the rule still judges by history.
 */

export const piccoVelocita: ModelloRegola = {
  cod_regola: 'picco_velocita',
  nome: 'Aumento improvviso del numero di operazioni',
  tipologia: 'picco_velocita',
  descrizione: 'Almeno 15 operazioni in 7 giorni e più di 4 volte il numero abituale del cliente (media settimanale dell\'ultimo '
    + 'anno). Un cliente senza storico è confrontato con i clienti simili; non scatta se anche i clienti simili operano con '
    + 'frequenza comparabile (meno del doppio della loro mediana).',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 45, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.11', '10.14'],
  condizione: { tutti: [
    { aggregato: { fn: 'count', finestra_giorni: 7 }, op: 'gte', valore: 15 },
    { almeno_uno: [
      { aggregato: { fn: 'ratio_history', finestra_giorni: 7, storico_giorni: 365, misura: 'numero' }, op: 'gt', valore: 4 },
      { tutti: [
        { aggregato: { fn: 'ratio_history', finestra_giorni: 7, storico_giorni: 365, misura: 'numero' }, op: 'not_exists' },
        { aggregato: { fn: 'peer_ratio', finestra_giorni: 7, misura: 'numero' }, op: 'gt', valore: 4 },
      ] },
    ] },
    { non: { aggregato: { fn: 'peer_ratio', finestra_giorni: 7, misura: 'numero' }, op: 'lt', valore: 2 } },
  ] },
};

export const piccoVolume: ModelloRegola = {
  cod_regola: 'picco_volume',
  nome: 'Aumento improvviso delle entrate rispetto allo storico',
  tipologia: 'picco_volume',
  descrizione: 'Entrate per almeno 15.000 € in 30 giorni, più di 4 volte la media mensile del cliente nell\'ultimo anno (che '
    + 'comprende la stagione precedente delle attività stagionali). Non scatta se i clienti simili hanno entrate comparabili '
    + '(meno del doppio della loro mediana).',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['10.11', '9.15'],
  condizione: { tutti: [
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 15_000 },
    { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365, segno: 'entrata' }, op: 'gt', valore: 4 },
    { non: { aggregato: { fn: 'peer_ratio', finestra_giorni: 30, segno: 'entrata' }, op: 'lt', valore: 2 } },
  ] },
};

export const incoerenzaProfiloVolume: ModelloRegola = {
  cod_regola: 'incoerenza_profilo_volume',
  nome: 'Entrate incoerenti con il volume dichiarato',
  tipologia: 'incoerenza_profilo_volume',
  descrizione: 'Entrate degli ultimi 30 giorni oltre il triplo del volume mensile dichiarato (e almeno 10.000 €). Non scatta '
    + 'quando il cliente ha sempre movimentato così (entrate inferiori a una volta e mezza la propria media dell\'ultimo anno): '
    + 'lì va aggiornato il profilo, non aperto un alert.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert', finestra_dedup_giorni: 60,
  indicatori: ['9.15', '10.11'],
  condizione: { tutti: [
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 10_000 },
    { aggregato: { fn: 'ratio_declared', finestra_giorni: 30, segno: 'entrata' }, op: 'gt', valore: 3 },
    { non: { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365, segno: 'entrata' }, op: 'lt', valore: 1.5 } },
  ] },
};
