import type { MachineDef } from '../lib/machine';

export const ESIGN_STATES = ['started', 'terms_accepted', 'presented', 'signed', 'expired', 'locked', 'cancelled'] as const;
export type EsignStatus = (typeof ESIGN_STATES)[number];

export const ESIGN_ACTIONS = ['terms', 'present', 'sign', 'resend', 'expire', 'lock', 'cancel'] as const;
export type EsignAction = (typeof ESIGN_ACTIONS)[number];

/** The signer is a customer without an account: the signing link's token gives this role. */
export const SIGNER_ROLE = 'signer';
/** Timer and OTP counter: only the workflow itself takes these. */
export const SYSTEM_ROLE = 'system';

/** E-signature ceremony, as in docs/processes.md. */
export const esignMachine: MachineDef<EsignStatus, EsignAction> = {
  name: 'esign',
  initial: 'started',
  states: ESIGN_STATES,
  final: ['signed', 'expired', 'locked', 'cancelled'],
  transitions: [
    { action: 'terms', from: ['started'], to: 'terms_accepted', roles: [SIGNER_ROLE] },
    { action: 'present', from: ['terms_accepted'], to: 'presented', roles: [SIGNER_ROLE] },
    { action: 'sign', from: ['presented'], to: 'signed', roles: [SIGNER_ROLE], requires: ['otp'] },
    // A new one-time code; the old one stops working. Limited by MAX_OTP_SENDS and OTP_RESEND_INTERVAL_MS.
    { action: 'resend', from: ['presented'], roles: [SIGNER_ROLE] },
    { action: 'expire', from: ['started', 'terms_accepted', 'presented'], to: 'expired', roles: [SYSTEM_ROLE] },
    { action: 'lock', from: ['presented'], to: 'locked', roles: [SYSTEM_ROLE] },
    // Its workflow was cancelled (an operator, or a parent that no longer needs it).
    { action: 'cancel', from: ['started', 'terms_accepted', 'presented'], to: 'cancelled', roles: [SYSTEM_ROLE] },
  ],
};

export const MAX_OTP_ATTEMPTS = 3;
/** Codes a ceremony may send in all: the first and four more on request. */
export const MAX_OTP_SENDS = 5;
/** The signer waits this long after a code before asking for another. */
export const OTP_RESEND_INTERVAL_MS = 60_000;
export const CEREMONY_TTL_MS = 24 * 60 * 60 * 1000;
