/**
 * The condition language (docs/conditions.md): shared by the risk engine's rules and, later,
 * transaction monitoring. Pure: no I/O, safe to import from workflow code.
 *
 * ratio_declared is computed by the evaluator, not the loader: requiredAggregates lists it as the
 * `sum` over the same window and filters, and evaluateCondition divides that sum, annualised, by
 * the declared yearly volume read from the subject's data (`dichiarato.volume_annuo_eur`, or
 * ctx.campoDichiarato). The loader (movementAggregates) therefore needs no declared volumes.
 */
export type { Aggregato, Condizione, EsitoCondizione, FunzioneAggregato, Lettura, Operatore, Valore } from './condition.types';
export {
  DEFAULT_BUDGET, FUNZIONI_AGGREGATO, MAX_DEPTH, MAX_NODES, MAX_WINDOW_DAYS, MIN_WINDOW_DAYS, OPERATORI, OPERATORI_AGGREGATO,
} from './condition.limits';
export { conditionSchema, conditionSchemaWith, validateCondition, type ConditionIssue, type ValidateOptions } from './condition.schema';
export { aggregateKey, loadedAggregate, requiredAggregates, DEFAULT_HISTORY_DAYS } from './condition.keys';
export {
  evaluateCondition, ConditionEvaluationError, ConditionBudgetError, COSTI, DEFAULT_DECLARED_FIELD,
  type ContestoCondizione, type CodiceErroreCondizione,
} from './condition.evaluate';
export { compileCondition, type CondizioneCompilata } from './condition.compile';
export { describeCondition, type DescribeOptions } from './condition.describe';
