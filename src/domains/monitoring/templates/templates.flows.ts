import { aboveOwnHistory, ownFundsInflow, STORICO_ANNO } from './templates.common';
import type { ModelloRegola } from './template.types';

/**
 * How money flows: through the account (rapid in and out), from many payers (fan-in), to many
 * payees (fan-out), in round amounts. Counterparties are counted as new against the customer's
 * year before the window (a seasonal business's staff and guests return each season), so an employer's payroll (the same employees every month), a shop's
 * regular suppliers and a landlord's tenants are not "many"; bursts are looked for in two weeks.
 * A customer with no history of the kind is judged on the figures alone. Transit, fan-in and fan-out
 * read their own history over the half year and the year only: counterparties new against the year
 * already tell a season's returning guests and staff from new ones. Round amounts (often cash takings)
 * are compared with last year's same weeks too, as the cash rules are.
 */

export const transitoRapido: ModelloRegola = {
  cod_regola: 'transito_rapido',
  nome: 'Entrate che escono subito (conto di transito)',
  tipologia: 'transito_rapido',
  descrizione: 'Negli ultimi 30 giorni almeno il 60 % delle entrate (almeno 5.000 €, da almeno due ordinanti) è uscito di nuovo '
    + 'entro 5 giorni verso almeno due beneficiari nuovi, con entrate oltre il doppio del proprio storico recente. Un\'impresa che '
    + 'gira sempre così i suoi incassi, o l\'acquisto di una casa con mutuo e risparmi (fondi propri), non basta.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 65, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.2', '15.4', '26.9'],
  condizione: { tutti: [
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 5_000 },
    { aggregato: { fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 5 }, op: 'gte', valore: 0.6 },
    { aggregato: { fn: 'distinct_counterparties', finestra_giorni: 30, segno: 'entrata', importo_min: 1_000 }, op: 'gte', valore: 2 },
    { aggregato: { fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'uscita', importo_min: 500, storico_giorni: STORICO_ANNO }, op: 'gte', valore: 2 },
    aboveOwnHistory({ finestra_giorni: 30, segno: 'entrata' }, 2, false),
    { non: ownFundsInflow(5_000) },
  ] },
};

const newPayers = { fn: 'distinct_new_counterparties', finestra_giorni: 14, segno: 'entrata', storico_giorni: STORICO_ANNO } as const;
export const fanIn: ModelloRegola = {
  cod_regola: 'fan_in',
  nome: 'Molte controparti nuove in entrata',
  tipologia: 'fan_in',
  descrizione: 'Accrediti da 8 o più controparti mai viste nell\'ultimo anno, in 14 giorni, per almeno 2.000 €, con un numero '
    + 'di accrediti oltre il triplo dell\'abituale del cliente. Un professionista pagato dai suoi clienti abituali non basta.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.5', '15.8', '26.8'],
  condizione: { tutti: [
    { aggregato: newPayers, op: 'gte', valore: 8 },
    { aggregato: { fn: 'sum', finestra_giorni: 14, segno: 'entrata' }, op: 'gte', valore: 2_000 },
    aboveOwnHistory({ finestra_giorni: 14, segno: 'entrata', misura: 'numero' }, 3, false),
  ] },
};

const payees = { finestra_giorni: 14, segno: 'uscita', importo_min: 250 } as const;
const newPayees = { fn: 'distinct_new_counterparties', ...payees, storico_giorni: STORICO_ANNO } as const;
export const fanOut: ModelloRegola = {
  cod_regola: 'fan_out',
  nome: 'Molte controparti nuove in uscita',
  tipologia: 'fan_out',
  descrizione: 'Bonifici da almeno 250 € a 8 o più controparti mai pagate nell\'ultimo anno, in 14 giorni, per almeno 3.000 €, '
    + 'con un numero di tali pagamenti oltre il triplo dell\'abituale. Gli stipendi pagati ogni mese agli stessi dipendenti non '
    + 'contano come controparti nuove (i neoassunti sono pochi); le spese con carta sotto i 250 € non contano.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.11', '26.6', '15.16'],
  condizione: { tutti: [
    { aggregato: newPayees, op: 'gte', valore: 8 },
    { aggregato: { fn: 'sum', ...payees }, op: 'gte', valore: 3_000 },
    aboveOwnHistory({ ...payees, misura: 'numero' }, 3, false),
  ] },
};

const round = { finestra_giorni: 30, tondi: true, importo_min: 500 } as const;
export const importiTondi: ModelloRegola = {
  cod_regola: 'importi_tondi',
  nome: 'Importi tondi ricorrenti',
  tipologia: 'importi_tondi',
  descrizione: 'In 30 giorni almeno 4 operazioni a cifra tonda (multipli di 500 €) per almeno 5.000 €, con almeno 3 controparti '
    + 'diverse o in contanti, oltre il doppio dell\'abituale del cliente. Un canone d\'affitto tondo pagato o incassato ogni mese '
    + 'dagli stessi locatori o inquilini, o gli anticipi tondi che un\'impresa versa sempre ai fornitori, non bastano.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 35, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['10.12', '14.6'],
  condizione: { tutti: [
    { aggregato: { fn: 'count', ...round }, op: 'gte', valore: 4 },
    { aggregato: { fn: 'sum', ...round }, op: 'gte', valore: 5_000 },
    { almeno_uno: [
      { aggregato: { fn: 'distinct_new_counterparties', ...round, storico_giorni: STORICO_ANNO }, op: 'gte', valore: 3 },
      { aggregato: { fn: 'count', ...round, contanti: true }, op: 'gte', valore: 4 },
    ] },
    aboveOwnHistory(round, 2),
    { non: ownFundsInflow(5_000) },
  ] },
};
