import type { MachineDef } from '../lib/machine';

export const ONBOARDING_STATES = [
  'draft', 'submitted', 'in_review', 'pending_second_approval', 'approved', 'rejected', 'info_requested', 'erased', 'expired',
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATES)[number];

export const ONBOARDING_ACTIONS = [
  'edit', 'submit', 'complete-submission', 'approve', 'complete-approval', 'reject', 'request-info', 'erase', 'expire',
  'wallet-verify', 'wallet-revoke',
] as const;
export type OnboardingAction = (typeof ONBOARDING_ACTIONS)[number];

/** The applicant: no account, a session bound to one case through a signed link. */
export const CUSTOMER_ROLE = 'cliente';
/** Timers and the signature signal. */
export const ONBOARDING_SYSTEM_ROLE = 'system';
/** Staff who review: the first approval; the second (four-eyes) is the compliance officer's. */
export const REVIEWERS = ['co', 'analyst'] as const;

/** States in which the applicant may still change what they gave. */
export const EDITABLE_STATES: readonly OnboardingStatus[] = ['draft', 'info_requested'];

/**
 * Onboarding case, as in docs/processes.md. `approve` goes to `approved`, or to
 * `pending_second_approval` when the risk is high or medium-high, a PEP is declared or screening found
 * any match: the workflow picks the target from the submission's risk result.
 * Erase is allowed only before the first submission (see docs/processes.md: AML
 * retention wins over erasure once the data has been submitted).
 */
export const onboardingMachine: MachineDef<OnboardingStatus, OnboardingAction> = {
  name: 'onboarding',
  initial: 'draft',
  states: ONBOARDING_STATES,
  final: ['approved', 'rejected', 'erased', 'expired'],
  transitions: [
    { action: 'edit', from: ['draft', 'info_requested'], roles: [CUSTOMER_ROLE] },
    { action: 'submit', from: ['draft', 'info_requested'], to: 'submitted', roles: [CUSTOMER_ROLE] },
    { action: 'complete-submission', from: ['submitted'], to: 'in_review', roles: [CUSTOMER_ROLE, ONBOARDING_SYSTEM_ROLE] },
    { action: 'approve', from: ['in_review'], to: 'approved', roles: REVIEWERS },
    { action: 'complete-approval', from: ['pending_second_approval'], to: 'approved', roles: ['co'], fourEyes: { against: 'approved_by' } },
    { action: 'reject', from: ['in_review', 'pending_second_approval'], to: 'rejected', roles: REVIEWERS, requires: ['reason'] },
    { action: 'request-info', from: ['in_review'], to: 'info_requested', roles: REVIEWERS, requires: ['message'] },
    { action: 'erase', from: ['draft'], to: 'erased', roles: [CUSTOMER_ROLE] },
    { action: 'expire', from: ['draft', 'info_requested'], to: 'expired', roles: [ONBOARDING_SYSTEM_ROLE] },
    { action: 'wallet-verify', from: ['in_review', 'pending_second_approval'], roles: REVIEWERS, requires: ['wallet_id'] },
    { action: 'wallet-revoke', from: ['in_review', 'pending_second_approval'], roles: REVIEWERS, requires: ['wallet_id', 'reason'] },
  ],
};

export const WALLET_STATES = ['pending', 'verified', 'revoked'] as const;
export type WalletStatus = (typeof WALLET_STATES)[number];

/**
 * Wallet of an applicant. Self-hosted wallets whose expected volume exceeds EUR 1000
 * need proof of control (signed message or declaration) before verify (EU TFR art. 14, 16).
 */
export const walletMachine: MachineDef<WalletStatus, 'verify' | 'revoke'> = {
  name: 'wallet',
  initial: 'pending',
  states: WALLET_STATES,
  final: ['revoked'],
  transitions: [
    { action: 'verify', from: ['pending'], to: 'verified', roles: REVIEWERS },
    { action: 'revoke', from: ['pending', 'verified'], to: 'revoked', roles: REVIEWERS, requires: ['reason'] },
  ],
};

/** Days and thresholds of the process; tenant settings may change the day counts. */
export const ONBOARDING_DEFAULTS = {
  draftIdleDays: 30,
  infoReminderDays: 7,
  infoExpiryDays: 30,
  selfHostedProofThresholdEur: 1000,
} as const;
