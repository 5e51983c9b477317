import type { MachineDef } from '../lib/machine';

export const VERIFICATION_STATES = ['pending', 'in_progress', 'approved', 'rejected', 'expired'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATES)[number];

/** The states of a verification still being worked: at most one per customer and kind (a unique index says so). */
export const VERIFICATION_OPEN_STATES = ['pending', 'in_progress'] as const satisfies readonly VerificationStatus[];

export const VERIFICATION_ACTIONS = ['start', 'approve', 'reject', 'expire'] as const;
export type VerificationAction = (typeof VERIFICATION_ACTIONS)[number];

/** What a person asks for through the API and the pages: `expire` is the workflow's own timer. */
export const VERIFICATION_USER_ACTIONS = ['start', 'approve', 'reject'] as const;
export type VerificationUserAction = (typeof VERIFICATION_USER_ACTIONS)[number];

/** The platform's own role: no person holds it, so no request can expire a verification by hand. */
export const VERIFICATION_SYSTEM_ROLE = 'system';

/**
 * KYC / KYB verification, as in docs/processes.md and docs/verifications.md:
 * pending --start--> in_progress --approve--> approved | --reject (motivo)--> rejected;
 * pending | in_progress --expire--> expired (the validity timer, brought forward by the expiry of
 * a document the verification relied on). The decision is the compliance staff's (co, analyst);
 * an administrator may take a verification in hand (start) but not decide it. A KYB approval
 * also needs every check passed or waived: the approve projection checks that in its transaction
 * (the checks are rows, see activities/verification/).
 */
export const verificationMachine: MachineDef<VerificationStatus, VerificationAction> = {
  name: 'verification',
  initial: 'pending',
  states: VERIFICATION_STATES,
  final: ['approved', 'rejected', 'expired'],
  transitions: [
    { action: 'start', from: ['pending'], to: 'in_progress', roles: ['co', 'analyst', 'admin'] },
    { action: 'approve', from: ['in_progress'], to: 'approved', roles: ['co', 'analyst'] },
    { action: 'reject', from: ['in_progress'], to: 'rejected', roles: ['co', 'analyst'], requires: ['motivo'] },
    { action: 'expire', from: ['pending', 'in_progress'], to: 'expired', roles: [VERIFICATION_SYSTEM_ROLE] },
  ],
};
