/**
 * The condition language (docs/conditions.md): shared by the risk engine's rules and transaction
 * monitoring's. Pure: no I/O, safe to import from workflow code. Risk keeps to the aggregates its
 * SQL loader computes (FUNZIONI_AGGREGATO_BASE, FILTRI_AGGREGATO_BASE); monitoring's engine computes
 * every function in memory and passes them through ctx.fonte.
 *
 * ratio_declared is computed by the evaluator, not the loader: requiredAggregates lists it as the
 * `sum` over the same window and filters, and evaluateCondition divides that sum, annualised, by
 * the declared yearly volume read from the subject's data (`dichiarato.volume_annuo_eur`, or
 * ctx.campoDichiarato). The loader (movementAggregates) therefore needs no declared volumes.
 */
export type { Aggregato, Condizione, EsitoCondizione, FiltroAggregato, FunzioneAggregato, Lettura, Operatore, Valore } from './condition.types';
export {
  DEFAULT_BUDGET, FILTRI_AGGREGATO, FILTRI_AGGREGATO_BASE, FUNZIONI_AGGREGATO, FUNZIONI_AGGREGATO_BASE, MAX_DEPTH, MAX_NODES, MAX_WINDOW_DAYS,
  MIN_WINDOW_DAYS, OPERATORI, OPERATORI_AGGREGATO,
} from './condition.limits';
export { conditionSchema, conditionSchemaWith, validateCondition, type ConditionIssue, type ValidateOptions } from './condition.schema';
export {
  aggregateKey, loadedAggregate, requiredAggregates, DEFAULT_HISTORY_DAYS, DEFAULT_PASSTHROUGH_DAYS, LAST_YEAR_DAYS, lastYearPeriod, ibanCountry, isRoundAmount,
} from './condition.keys';
export {
  evaluateCondition, ConditionEvaluationError, ConditionBudgetError, COSTI, DEFAULT_DECLARED_DAYS, DEFAULT_DECLARED_FIELD,
  type ContestoCondizione, type CodiceErroreCondizione, type FonteAggregati,
} from './condition.evaluate';
export { compileCondition, type CondizioneCompilata } from './condition.compile';
export { describeAggregate, describeCondition, type DescribeOptions } from './condition.describe';
