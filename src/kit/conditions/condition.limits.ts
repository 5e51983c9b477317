import type { FiltroAggregato, FunzioneAggregato, Operatore } from './condition.types';

/** The language's bounds: what a stored rule may be, checked when it is saved and again when it is read. */
export const MAX_DEPTH = 8;
export const MAX_NODES = 64;
export const MIN_WINDOW_DAYS = 1;
export const MAX_WINDOW_DAYS = 3650;
/** Most literal values an `in`/`not_in`/`intersects` array may carry: longer sets belong in a named list. */
export const MAX_LITERAL_VALUES = 200;
export const MAX_PATH_LENGTH = 200;
export const MAX_STRING_LENGTH = 500;
/** The evaluator's default budget (cost units, see condition.evaluate.ts): a 64-node rule costs well under 1,000. */
export const DEFAULT_BUDGET = 10_000;

export const OPERATORI = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'intersects', 'exists', 'not_exists'] as const satisfies readonly Operatore[];
/** Operators an aggregate (a number) can be compared with. */
export const OPERATORI_AGGREGATO = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'exists', 'not_exists'] as const satisfies readonly Operatore[];
export const FUNZIONI_AGGREGATO = [
  'count', 'sum', 'cash_share', 'distinct_counterparties', 'distinct_countries', 'ratio_history', 'ratio_declared',
  'avg', 'max', 'distinct_new_counterparties', 'days_since_previous', 'passthrough_share', 'peer_ratio', 'ratio_last_year',
] as const satisfies readonly FunzioneAggregato[];
export const FILTRI_AGGREGATO = [
  'segno', 'contanti', 'paesi_controparte', 'storico_giorni', 'causali', 'canali', 'importo_min', 'importo_max', 'tondi', 'livello', 'entro_giorni', 'misura',
] as const satisfies readonly FiltroAggregato[];
/**
 * The language's first functions and filters: what the movements area's SQL loader
 * (movementAggregates) computes, hence all a risk rule may use. Monitoring's engine computes the rest in memory.
 */
export const FUNZIONI_AGGREGATO_BASE = [
  'count', 'sum', 'cash_share', 'distinct_counterparties', 'distinct_countries', 'ratio_history', 'ratio_declared',
] as const satisfies readonly FunzioneAggregato[];
export const FILTRI_AGGREGATO_BASE = ['segno', 'contanti', 'paesi_controparte', 'storico_giorni'] as const satisfies readonly FiltroAggregato[];
/** Longest text among causali / canali values. */
export const MAX_CODE_LENGTH = 100;

/** Dotted path of own properties: letters, digits, underscores; never a prototype's name. */
export const PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);
/** A named list's name (lista_* keys, catalogue codes). */
export const LIST_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;
