import type { Condizione } from '../../../kit/conditions';
import type { Tipologia } from '../monitoring.typologies';

/**
 * Where the rule builder starts when a typology is picked: a first condition in the shared
 * language that an officer then tunes (thresholds, windows). They are starting points for the
 * form, not the typology templates a tenant enables (docs/monitoring.md): those are tuned on the
 * project's labelled year and ship with the engine.
 */
export const STARTERS: Partial<Record<Tipologia, { condizione: Condizione; ambito: 'evento' | 'giornaliero'; punteggio: number }>> = {
  strutturazione_contanti: {
    ambito: 'evento', punteggio: 70,
    condizione: { tutti: [
      { campo: 'evento.contanti', op: 'eq', valore: true },
      { campo: 'evento.importo_eur', op: 'between', valore: [8_000, 9_999.99] },
      { aggregato: { fn: 'count', finestra_giorni: 7, contanti: true }, op: 'gte', valore: 3 },
    ] },
  },
  contanti_oltre_soglia: {
    ambito: 'giornaliero', punteggio: 60,
    condizione: { tutti: [{ aggregato: { fn: 'sum', finestra_giorni: 30, contanti: true }, op: 'gte', valore: 10_000 }] },
  },
  picco_volume: {
    ambito: 'giornaliero', punteggio: 50,
    condizione: { tutti: [
      { aggregato: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 365 }, op: 'gt', valore: 3 },
      { aggregato: { fn: 'sum', finestra_giorni: 30 }, op: 'gt', valore: 20_000 },
    ] },
  },
  picco_velocita: {
    ambito: 'giornaliero', punteggio: 45,
    condizione: { tutti: [{ aggregato: { fn: 'count', finestra_giorni: 7 }, op: 'gte', valore: 30 }] },
  },
  paesi_alto_rischio: {
    ambito: 'evento', punteggio: 65,
    condizione: { almeno_uno: [
      { campo: 'evento.controparte_paese', op: 'in', valore: { lista: 'paesi_alto_rischio' } },
      { campo: 'evento.controparte_iban_paese', op: 'in', valore: { lista: 'paesi_alto_rischio' } },
    ] },
  },
  importi_tondi: {
    ambito: 'giornaliero', punteggio: 35,
    condizione: { tutti: [
      { campo: 'evento.importo_tondo', op: 'eq', valore: true },
      { aggregato: { fn: 'count', finestra_giorni: 30 }, op: 'gte', valore: 5 },
    ] },
  },
  fan_in: {
    ambito: 'giornaliero', punteggio: 55,
    condizione: { tutti: [{ aggregato: { fn: 'distinct_counterparties', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 20 }] },
  },
  fan_out: {
    ambito: 'giornaliero', punteggio: 55,
    condizione: { tutti: [{ aggregato: { fn: 'distinct_counterparties', finestra_giorni: 30, segno: 'uscita' }, op: 'gte', valore: 20 }] },
  },
  incoerenza_profilo_volume: {
    ambito: 'giornaliero', punteggio: 50,
    condizione: { tutti: [{ aggregato: { fn: 'ratio_declared', finestra_giorni: 30 }, op: 'gt', valore: 3 }] },
  },
  incoerenza_profilo_contanti: {
    ambito: 'giornaliero', punteggio: 55,
    condizione: { tutti: [
      { campo: 'dichiarato.uso_contanti', op: 'eq', valore: 'nessuno' },
      { aggregato: { fn: 'sum', finestra_giorni: 30, contanti: true }, op: 'gt', valore: 2_000 },
    ] },
  },
  crypto_indirizzi_sanzionati: {
    ambito: 'evento', punteggio: 95,
    condizione: { tutti: [{ campo: 'evento.indirizzo_controparte', op: 'in', valore: { lista: 'indirizzi_crypto_sanzionati' } }] },
  },
};
