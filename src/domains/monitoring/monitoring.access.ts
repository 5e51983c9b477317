import type { Role } from '../../kit/roles';

/** Who drafts and changes monitoring rules: the compliance officer and the tenant admin (a draft is evaluated only once released). */
export const RULE_EDITORS: Role[] = ['co', 'admin'];
/** Who takes a rule out of evaluation: the compliance officer only (detection is their responsibility, art. 16 d.lgs. 231/2007). */
export const RULE_RETIRERS: Role[] = ['co'];
/** Who deletes an alert raised by mistake (with a reason; the audit trail keeps it). */
export const ALERT_DELETERS: Role[] = ['co', 'admin'];
