/**
 * The condition language shared by the risk engine and (later) transaction monitoring: a tree
 * of AND/OR groups over comparisons of a subject's data and aggregates of its movements.
 * Stored as JSON (rischio_regole.condizione), validated by conditionSchema, evaluated by a safe
 * evaluator (no eval, a cost budget, lazy AND/OR). These types are the contract between the
 * module and its users; the module's index exports them with the schema and the evaluator.
 */

/** A literal, or a named list the evaluator is given (e.g. { lista: 'paesi_alto_rischio' }). */
export type Valore = string | number | boolean | null | readonly (string | number)[] | { lista: string };

export type Operatore =
  | 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'between'
  | 'in' | 'not_in'
  /** An array field shares at least one element with the value (a list or literal array). */
  | 'intersects'
  | 'exists' | 'not_exists';

/** Aggregates of the subject's movements over a window ending on the evaluation date. */
export type FunzioneAggregato =
  | 'count' | 'sum'
  /** Cash movements' share of the total amount, 0..1. */
  | 'cash_share'
  | 'distinct_counterparties' | 'distinct_countries'
  /** The window's sum against the subject's own average for a window of the same length in the preceding `storico_giorni`. */
  | 'ratio_history'
  /**
   * The window's sum, brought to the declared period, against the declared volume: for risk the
   * yearly volume (`dichiarato.volume_annuo_eur`), for monitoring the monthly one (the context says which).
   */
  | 'ratio_declared'
  // Monitoring's aggregates, computed in memory by the monitoring engine (the risk loader's SQL does not compute them).
  /** Average amount of the window's movements (none: missing). */
  | 'avg'
  /** Largest amount of the window's movements (none: missing). */
  | 'max'
  /** Counterparties of the window not met in the `storico_giorni` before it. */
  | 'distinct_new_counterparties'
  /** Days between the evaluated movement (or the day's first) and the previous one within the window (none: missing). */
  | 'days_since_previous'
  /** Share of the window's inflows that left again within `entro_giorni`, 0..1. */
  | 'passthrough_share'
  /** The window's sum (or count) against the median of the subject's peer group. */
  | 'peer_ratio'
  /**
   * The window's sum (or count) against the same window one year (365 days) earlier: last year's
   * season. With `storico_giorni`, against the average for the window's length over that many days
   * centred on it (a week compared with the four weeks around it a year back: less noise). Missing
   * when that period holds nothing (no history so far back, or nothing then).
   */
  | 'ratio_last_year';

/** The aggregate's filters and options besides `fn` and `finestra_giorni` (the catalogue a caller allows names them). */
export type FiltroAggregato =
  | 'segno' | 'contanti' | 'paesi_controparte' | 'storico_giorni'
  | 'causali' | 'canali' | 'importo_min' | 'importo_max' | 'tondi' | 'livello' | 'entro_giorni' | 'misura';

export interface Aggregato {
  fn: FunzioneAggregato;
  finestra_giorni: number;
  segno?: 'entrata' | 'uscita';
  contanti?: boolean;
  /** Only movements whose counterparty country, or the country of the counterparty's IBAN, is in this list (literal ISO codes or a named list). */
  paesi_controparte?: readonly string[] | { lista: string };
  /** ratio_history and distinct_new_counterparties: how far back the comparison goes (default 365); ratio_last_year: the length of last year's period (default the window's). */
  storico_giorni?: number;
  /** Only movements with one of these causali (case-insensitive; literal or a named list). */
  causali?: readonly string[] | { lista: string };
  /** Only movements on one of these channels (case-insensitive; literal or a named list). */
  canali?: readonly string[] | { lista: string };
  /** Only movements of at least this amount in EUR (inclusive). */
  importo_min?: number;
  /** Only movements of at most this amount in EUR (inclusive). */
  importo_max?: number;
  /** true: only round amounts (a multiple of 500 EUR); false: only the others. */
  tondi?: boolean;
  /** `rapporto`: the evaluated relationship's movements only; `cliente` (default): all the customer's. */
  livello?: 'cliente' | 'rapporto';
  /** passthrough_share: days within which an inflow must leave again to count (default 2). */
  entro_giorni?: number;
  /** ratio_history, peer_ratio and ratio_last_year: compare amounts (`importo`, default) or numbers of movements (`numero`). */
  misura?: 'importo' | 'numero';
}

export type Condizione =
  | { tutti: Condizione[] }
  | { almeno_uno: Condizione[] }
  | { non: Condizione }
  | { campo: string; op: Operatore; valore?: Valore }
  | { aggregato: Aggregato; op: Exclude<Operatore, 'in' | 'not_in' | 'intersects'>; valore?: Valore };

/** What the evaluator read to reach its answer: the explanation of a contribution. */
export interface Lettura { path: string; valore: unknown }

export interface EsitoCondizione { vero: boolean; letti: Lettura[]; costo: number }
