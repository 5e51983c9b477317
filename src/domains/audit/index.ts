// The audit area's public surface: every area records its changes through appendAudit,
// in the same transaction as the change.
export { appendAudit, appendAudits, verifyAuditChain, CHAIN_ORDER, PLATFORM_CHAIN, type AuditInput, type AuditRow, type ChainVerification } from './audit.chain';
export { startAuditSealer, type AuditSealer } from './audit.sealer';
export { AuditEvent } from './audit-event.model';
export { AUDIT_ACTION_LABELS, auditActionLabel, hasAuditActionLabel, type AuditAction, type AuditActionOf } from './audit.labels';
