// The monitoring area's public surface (docs/monitoring.md): what the evaluation paths (real time,
// daily batch, replay, KYT, the engine's sync and release gates) and other areas use.

// Alerts: raise (deduplicated, idempotent, in the caller's transaction) and read.
export { raiseAlerts, alertCandidateSchema, type AlertCandidate, type RaisedAlert, type RaiseOptions } from './alerts/alerts.raise';
export { findAlert, alertsOfMovement, alertParts, type AlertRow } from './alerts/alerts.repo';
export { caseIdForAlert } from './alerts/alerts.escalate';
// Rules: the versions in force, the draft's activation (the release gate's last step), the condition's validation and sentence.
export { activeRuleVersions, ruleDetail, findRule, type ActiveRuleVersion, type RuleRow, type VersionRow } from './rules/rules.repo';
export { activateRuleVersion, type RuleActor } from './rules/rules.commands';
export {
  validateMonitoringCondition, describeMonitoringCondition, CAMPI_MONITORAGGIO, FUNZIONI_MONITORAGGIO, LISTE_MONITORAGGIO, ETICHETTE_CAMPI,
} from './monitoring.conditions';
export { subIndice, indicatoriUif, unknownIndicatori } from './monitoring.indicators';
export { TIPOLOGIE, TIPOLOGIA_LABELS, isTipologia, type Tipologia } from './monitoring.typologies';
export { STATO_LABELS as ALERT_STATO_LABELS, ORIGINE_LABELS, DISPOSIZIONE_LABELS } from './monitoring.labels';
// Evaluation paths (docs/monitoring.md, "Evaluation paths"): the store they read through, and the engine's queue.
export type { MonitoringStore } from './evaluation/store';
export { platformStore } from './evaluation/store.platform';
export { monitoringStore, useMonitoringStore } from './evaluation/store.current';
export { engineCopyStore } from './sync/copy-store';
export { useEngineReplica } from './sync/sync.replica';
export { engineInstance } from './evaluation/realtime';
export { DEFAULT_ENGINE_TASK_QUEUE } from '../../../workflows/lib/engine-queue';
// The demo year's seed (POST /api/engine/seed; `npm start` on a new installation).
export { startDemoYear } from './seed/seed.commands';
