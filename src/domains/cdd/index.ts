// The CDD area's public surface: what onboarding, records, risk, screening and the pages use.
export {
  abstainCdd, cddAllowedActions, completerRoles, initiateCdd, requireCddTask, transitionCddTask,
  type CddDeps, type InitiateCddInput, type InitiateCddResult,
} from './cdd-task.commands';
export { cddEvidence, cddHistoryForCustomer, cddTaskAudit, findCddTask, getCddTask, openCddTaskFor, type CddEvidenceRow, type CddTaskRow } from './cdd-task.repo';
export { onRiskClassChanged } from './cdd-events';
export { reviewsWithoutRelationship, type EndedReview } from './cdd-review-ends';
export { cancelCddReview } from './cdd-review.commands';
export { pendingCddTriggers, riskClassChangeTrigger, type CddTrigger } from './cdd-triggers';
export { cddLevel, type CddLevel, type CddLevelInput } from './cdd-level';
export { highRiskLists, type HighRiskLists } from './high-risk-countries';
// The words of a task for other areas' pages (the customer file lists a customer's tasks).
export { STATO_LABELS as CDD_STATO_LABELS, STATO_TONES as CDD_STATO_TONES, LIVELLO_LABELS as CDD_LIVELLO_LABELS, MOTIVO_LABELS as CDD_MOTIVO_LABELS } from './cdd.labels';
