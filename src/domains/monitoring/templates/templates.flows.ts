import type { Aggregato, Condizione } from '../../../kit/conditions';
import type { ModelloRegola } from './template.types';

/**
 * How money flows: through the account (rapid in and out), from many payers (fan-in), to many
 * payees (fan-out), in round amounts. Counterparties are counted as new against the customer's
 * year before the window, so an employer's payroll (the same employees every month) and a shop's
 * regular suppliers are not "many"; only transfers of at least 500 EUR count, so card spending at
 * many merchants is not either. A customer with no history yet is judged on stricter figures.
 */

const storico = 365;
/** No movement of this kind in the year before the window: a new customer (or a new behaviour). */
const noHistory = (a: Omit<Aggregato, 'fn' | 'storico_giorni'>): Condizione =>
  ({ aggregato: { ...a, fn: 'ratio_history', storico_giorni: storico }, op: 'not_exists' });

export const transitoRapido: ModelloRegola = {
  cod_regola: 'transito_rapido',
  nome: 'Entrate che escono subito (conto di transito)',
  tipologia: 'transito_rapido',
  descrizione: 'Negli ultimi 30 giorni almeno l\'80 % delle entrate (almeno 10.000 €, in almeno 3 accrediti da 1.000 €) è uscito '
    + 'di nuovo entro 3 giorni. Un singolo accredito girato subito (un mutuo versato al notaio, un giroconto dai risparmi per '
    + 'pagare la casa) non basta.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 65, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.2', '15.4', '26.9'],
  condizione: { tutti: [
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 10_000 },
    { aggregato: { fn: 'count', finestra_giorni: 30, segno: 'entrata', importo_min: 1_000 }, op: 'gte', valore: 3 },
    { aggregato: { fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 3 }, op: 'gte', valore: 0.8 },
  ] },
};

const newPayers = { fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'entrata', importo_min: 500, storico_giorni: storico } as const;
export const fanIn: ModelloRegola = {
  cod_regola: 'fan_in',
  nome: 'Molte controparti nuove in entrata',
  tipologia: 'fan_in',
  descrizione: 'Accrediti da almeno 500 € da 8 o più controparti mai viste nell\'ultimo anno, in 30 giorni, per almeno 5.000 €, '
    + 'con un numero di accrediti oltre il triplo dell\'abituale (o, per un cliente senza storico, da 12 controparti).',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.5', '15.8', '26.8'],
  condizione: { tutti: [
    { aggregato: newPayers, op: 'gte', valore: 8 },
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata', importo_min: 500 }, op: 'gte', valore: 5_000 },
    { almeno_uno: [
      { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: storico, segno: 'entrata', misura: 'numero' }, op: 'gt', valore: 3 },
      { tutti: [noHistory({ finestra_giorni: 30, segno: 'entrata' }), { aggregato: newPayers, op: 'gte', valore: 12 }] },
    ] },
  ] },
};

const newPayees = { fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'uscita', importo_min: 500, storico_giorni: storico } as const;
export const fanOut: ModelloRegola = {
  cod_regola: 'fan_out',
  nome: 'Molte controparti nuove in uscita',
  tipologia: 'fan_out',
  descrizione: 'Bonifici da almeno 500 € a 8 o più controparti mai pagate nell\'ultimo anno, in 30 giorni, per almeno 5.000 €, '
    + 'con un numero di pagamenti oltre il triplo dell\'abituale. Gli stipendi pagati ogni mese agli stessi dipendenti non '
    + 'contano come controparti nuove; un\'impresa senza storico è valutata solo se i beneficiari nuovi sono almeno 20.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['15.11', '26.6', '15.16'],
  condizione: { tutti: [
    { aggregato: newPayees, op: 'gte', valore: 8 },
    { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'uscita', importo_min: 500 }, op: 'gte', valore: 5_000 },
    { almeno_uno: [
      { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: storico, segno: 'uscita', misura: 'numero' }, op: 'gt', valore: 3 },
      { tutti: [
        noHistory({ finestra_giorni: 30, segno: 'uscita' }),
        // A first payroll is many new payees at once: without history only persons, or very many payees, count.
        { almeno_uno: [
          { campo: 'cliente.tipo_soggetto', op: 'eq', valore: 'persona_fisica' },
          { aggregato: newPayees, op: 'gte', valore: 20 },
        ] },
      ] },
    ] },
  ] },
};

const round = { finestra_giorni: 30, tondi: true, importo_min: 1_000 } as const;
export const importiTondi: ModelloRegola = {
  cod_regola: 'importi_tondi',
  nome: 'Importi tondi ricorrenti con più controparti',
  tipologia: 'importi_tondi',
  descrizione: 'In 30 giorni almeno 5 operazioni a cifra tonda (multipli di 500 €, da 1.000 €) con almeno 3 controparti diverse, '
    + 'per almeno 10.000 €, oltre il doppio dell\'abituale del cliente. Un canone d\'affitto tondo pagato ogni mese allo stesso '
    + 'locatore non basta.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 35, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['10.12', '14.6'],
  condizione: { tutti: [
    { aggregato: { fn: 'count', ...round }, op: 'gte', valore: 5 },
    { aggregato: { fn: 'distinct_counterparties', ...round }, op: 'gte', valore: 3 },
    { aggregato: { fn: 'sum', ...round }, op: 'gte', valore: 10_000 },
    { non: { aggregato: { fn: 'ratio_history', ...round, storico_giorni: storico }, op: 'lte', valore: 2 } },
  ] },
};
