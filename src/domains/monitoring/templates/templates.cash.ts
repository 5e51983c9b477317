import type { Aggregato, Condizione } from '../../../kit/conditions';
import type { ModelloRegola } from './template.types';

/**
 * Cash typologies. Italian context: the cash limit between persons (5,000 EUR since 2023; 3,000,
 * 2,000 and 1,000 in past years) and the UIF's monthly aggregate of cash operations (10,000 EUR,
 * objective communications) are the thresholds people split their cash under. Each customer is
 * judged against what they declared (`dichiarato.uso_contanti`) and their own history, so a shop
 * that declared high cash and deposits its takings as it always did is not an alert.
 */

const cash = (a: Omit<Aggregato, 'contanti'>): Aggregato => ({ ...a, contanti: true });

/** Cash operations just under a threshold: the event is in the band and the month holds enough of them. */
function band(min: number, max: number, times: number, total: number): Condizione {
  const inBand = { finestra_giorni: 30, importo_min: min, importo_max: max } as const;
  return { tutti: [
    { campo: 'evento.importo_eur', op: 'between', valore: [min, max] },
    { aggregato: cash({ fn: 'count', ...inBand }), op: 'gte', valore: times },
    { aggregato: cash({ fn: 'sum', ...inBand }), op: 'gte', valore: total },
  ] };
}

/** Declared cash use `medio` or `alto` (a missing declaration counts as neither). */
const declaresCash: Condizione = { campo: 'dichiarato.uso_contanti', op: 'in', valore: ['medio', 'alto'] };

export const strutturazioneContanti: ModelloRegola = {
  cod_regola: 'strutturazione_contanti',
  nome: 'Frazionamento di contanti appena sotto le soglie',
  tipologia: 'strutturazione_contanti',
  descrizione: 'Più operazioni in contanti nello stesso mese, ciascuna appena sotto una soglia di legge (10.000 € di operatività '
    + 'mensile in contanti, limite all\'uso del contante di 5.000 € e precedenti di 3.000 e 1.000 €), che insieme superano la soglia '
    + 'evitata. Valutata su ogni operazione in contanti; per chi ha dichiarato un uso elevato di contanti servono più operazioni.',
  ambito: 'evento', livello: 'cliente', punteggio: 70, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['13.11', '15.3', '10.11'],
  condizione: { tutti: [
    { campo: 'evento.contanti', op: 'eq', valore: true },
    { almeno_uno: [
      band(9_000, 9_999.99, 2, 18_000),
      band(4_500, 4_999.99, 3, 13_500),
      band(2_700, 2_999.99, 4, 10_800),
      band(900, 999.99, 6, 5_400),
    ] },
    // A cash-intensive business that declared it deposits daily takings of every size: near-threshold ones must be a pattern, not a few.
    { non: { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'alto' },
      { aggregato: cash({ fn: 'count', finestra_giorni: 30, importo_min: 900, importo_max: 9_999.99 }), op: 'lt', valore: 10 },
    ] } },
  ] },
};

export const contantiOltreSoglia: ModelloRegola = {
  cod_regola: 'contanti_oltre_soglia',
  nome: 'Contanti oltre 10.000 € in 30 giorni',
  tipologia: 'contanti_oltre_soglia',
  descrizione: 'Operazioni in contanti (versamenti e prelievi) per almeno 10.000 € negli ultimi 30 giorni, soglia dell\'operatività '
    + 'mensile in contanti. Non scatta per chi ha dichiarato un uso medio o alto di contanti e resta nei propri volumi abituali '
    + '(meno del triplo della media dell\'ultimo anno).',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['10.11', '15.3'],
  condizione: { tutti: [
    { aggregato: cash({ fn: 'sum', finestra_giorni: 30 }), op: 'gte', valore: 10_000 },
    { almeno_uno: [
      { non: declaresCash },
      { aggregato: cash({ fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }), op: 'gt', valore: 3 },
    ] },
  ] },
};

export const incoerenzaProfiloContanti: ModelloRegola = {
  cod_regola: 'incoerenza_profilo_contanti',
  nome: 'Contanti incoerenti con l\'uso dichiarato',
  tipologia: 'incoerenza_profilo_contanti',
  descrizione: 'Uso di contanti in contrasto con quanto dichiarato: versamenti in contanti da chi ha dichiarato di non usarne, '
    + 'oppure contanti che sono gran parte della movimentazione di chi ne ha dichiarato un uso basso o medio e che superano il '
    + 'proprio storico.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert', finestra_dedup_giorni: 60,
  indicatori: ['9.15', '10.11', '15.3'],
  condizione: { almeno_uno: [
    { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'nessuno' },
      { almeno_uno: [
        { aggregato: cash({ fn: 'sum', finestra_giorni: 30, segno: 'entrata' }), op: 'gte', valore: 1_000 },
        { aggregato: cash({ fn: 'sum', finestra_giorni: 30, segno: 'uscita' }), op: 'gte', valore: 3_000 },
      ] },
    ] },
    { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'basso' },
      { aggregato: cash({ fn: 'sum', finestra_giorni: 30 }), op: 'gte', valore: 5_000 },
      { aggregato: { fn: 'cash_share', finestra_giorni: 30 }, op: 'gte', valore: 0.4 },
      { non: { aggregato: cash({ fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }), op: 'lt', valore: 2 } },
    ] },
    { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'medio' },
      { aggregato: cash({ fn: 'sum', finestra_giorni: 30 }), op: 'gte', valore: 20_000 },
      { aggregato: { fn: 'cash_share', finestra_giorni: 30 }, op: 'gte', valore: 0.7 },
      { non: { aggregato: cash({ fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }), op: 'lt', valore: 2 } },
    ] },
  ] },
};
