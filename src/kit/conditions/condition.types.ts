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
  /** The window's sum, annualised, against the declared yearly volume (profile field `dichiarato.volume_annuo_eur`). */
  | 'ratio_declared';

export interface Aggregato {
  fn: FunzioneAggregato;
  finestra_giorni: number;
  segno?: 'entrata' | 'uscita';
  contanti?: boolean;
  /** Only movements whose counterparty country is in this list (literal ISO codes or a named list). */
  paesi_controparte?: readonly string[] | { lista: string };
  /** ratio_history only: how far back the comparison goes (default 365). */
  storico_giorni?: number;
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
