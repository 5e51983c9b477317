import type { Aggregato, Condizione } from '../../../kit/conditions';
import { aboveOwnHistory, unlikePeers } from './templates.common';
import type { ModelloRegola } from './template.types';

/**
 * Cash typologies. Italian context: the cash limit between persons (5,000 EUR since 2023; 3,000,
 * 2,000 and 1,000 in past years) and the UIF's monthly aggregate of cash operations (10,000 EUR,
 * objective communications) are the thresholds people split their cash under. Each customer is
 * judged against what they declared (`dichiarato.uso_contanti`), their own history and their
 * peers, so a shop that declared high cash and deposits its takings as it and its peers always do
 * (a seasonal business in its season included) is not an alert.
 */

const cash = <A extends Partial<Aggregato>>(a: A) => ({ ...a, contanti: true as const });

/** Just under a threshold: from 85 % of it to a cent below. */
const band = (soglia: number) => ({ importo_min: soglia * 0.85, importo_max: soglia - 0.01 });
const SOGLIE = [10_000, 5_000, 3_000, 1_000] as const;

/** The evaluated cash operation is in a band, and the month holds at least three in it that add up. */
function nearThreshold(soglia: number): Condizione {
  const b = { finestra_giorni: 30, ...band(soglia) };
  return { tutti: [
    { campo: 'evento.importo_eur', op: 'between', valore: [b.importo_min, b.importo_max] },
    { aggregato: cash({ fn: 'count', ...b }), op: 'gte', valore: 3 },
  ] };
}

/** Declared cash use `medio` or `alto` (a missing declaration counts as neither). */
const declaresCash: Condizione = { campo: 'dichiarato.uso_contanti', op: 'in', valore: ['medio', 'alto'] };
/** Cash operations between 850 and 9,999.99 EUR in the month (every band at once). */
const anyBand = { finestra_giorni: 30, importo_min: 850, importo_max: 9_999.99 } as const;

export const strutturazioneContanti: ModelloRegola = {
  cod_regola: 'strutturazione_contanti',
  nome: 'Frazionamento di contanti appena sotto le soglie',
  tipologia: 'strutturazione_contanti',
  descrizione: 'Almeno tre operazioni in contanti in 30 giorni, ciascuna appena sotto una soglia (dall\'85 % della soglia a un '
    + 'centesimo sotto: 10.000 € di operatività mensile in contanti, limite all\'uso del contante di 5.000 € e precedenti di 3.000 '
    + 'e 1.000 €). Valutata su ogni operazione in contanti. Per chi ha dichiarato un uso medio o alto di contanti scatta solo se '
    + 'queste operazioni sono insolite sia rispetto al proprio storico sia rispetto ai clienti simili.',
  ambito: 'evento', livello: 'cliente', punteggio: 70, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['13.11', '15.3', '10.11'],
  condizione: { tutti: [
    { campo: 'evento.contanti', op: 'eq', valore: true },
    { almeno_uno: SOGLIE.map(nearThreshold) },
    { almeno_uno: [
      { non: declaresCash },
      { tutti: [aboveOwnHistory(cash(anyBand), 3), unlikePeers(cash(anyBand), 3)] },
    ] },
  ] },
};

export const contantiOltreSoglia: ModelloRegola = {
  cod_regola: 'contanti_oltre_soglia',
  nome: 'Contanti oltre 10.000 € in 30 giorni',
  tipologia: 'contanti_oltre_soglia',
  descrizione: 'Operazioni in contanti (versamenti e prelievi) per almeno 10.000 € negli ultimi 30 giorni, soglia dell\'operatività '
    + 'mensile in contanti. Per chi ha dichiarato un uso medio o alto di contanti scatta solo oltre il quadruplo del proprio storico '
    + '(sei mesi e anno, o senza storico di contanti) e oltre il triplo dei clienti simili.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 55, esito: 'alert', finestra_dedup_giorni: 30,
  indicatori: ['10.11', '15.3'],
  condizione: { tutti: [
    { aggregato: cash({ fn: 'sum', finestra_giorni: 30 }), op: 'gte', valore: 10_000 },
    { almeno_uno: [
      { non: declaresCash },
      { tutti: [aboveOwnHistory(cash({ finestra_giorni: 30 }), 4), unlikePeers(cash({ finestra_giorni: 30 }), 3)] },
    ] },
  ] },
};

export const incoerenzaProfiloContanti: ModelloRegola = {
  cod_regola: 'incoerenza_profilo_contanti',
  nome: 'Contanti incoerenti con l\'uso dichiarato',
  tipologia: 'incoerenza_profilo_contanti',
  descrizione: 'Uso di contanti in contrasto con quanto dichiarato: almeno 1.000 € di contanti in 30 giorni da chi ha dichiarato '
    + 'di non usarne; oppure, per chi ne ha dichiarato un uso basso, almeno 5.000 € di contanti che siano il 40 % della '
    + 'movimentazione e oltre il doppio del proprio storico recente.',
  ambito: 'giornaliero', livello: 'cliente', punteggio: 50, esito: 'alert', finestra_dedup_giorni: 60,
  indicatori: ['9.15', '10.11', '15.3'],
  condizione: { almeno_uno: [
    { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'nessuno' },
      { aggregato: cash({ fn: 'sum', finestra_giorni: 30 }), op: 'gte', valore: 1_000 },
    ] },
    { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'basso' },
      { aggregato: cash({ fn: 'sum', finestra_giorni: 30 }), op: 'gte', valore: 5_000 },
      { aggregato: { fn: 'cash_share', finestra_giorni: 30 }, op: 'gte', valore: 0.4 },
      aboveOwnHistory(cash({ finestra_giorni: 30 }), 2),
    ] },
  ] },
};
