/** The public surface of the movements area: what other areas (customer file, import) may use. */
export { recentMovements, movementsMonthlyVolumes, listMovements, movementsByIds, type MovementRecord, type MonthlyVolume } from './movements.repo';
export { insertMovements, MovementReferenceError, type InsertedMovements, type MovementRow } from './movements.insert';
export { resolveMovementParties, type MovementItemError } from './movements.parties';
export { movementInputSchema, listMovementsQuery, MAX_MOVEMENTS_PER_REQUEST, type MovementInput, type ValidMovement, type ListMovementsQuery } from './movements.schemas';
export { movementsList, movementColumns } from './movements.list';
export { SEGNI, SEGNO_LABELS, SEGNO_TONES, type Segno } from './movements.labels';
export { movementAggregates, movementProfiles, UnknownListError, type AggregateValues, type MovementProfile } from './movements.aggregates';
