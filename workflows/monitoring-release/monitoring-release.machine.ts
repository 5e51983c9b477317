import type { MachineDef } from '../lib/machine';

/**
 * The release of a rule's draft (docs/monitoring.md, "Rules, versions and release gates"): asked
 * by a compliance officer or admin, it waits for a second person's approval. Approval puts the
 * draft in force only when the gates pass at that moment (a backtest of this exact draft, its alert
 * volume within the tenant's tolerance); otherwise it is refused (409, with the gates) and the
 * release keeps waiting. The person who asked may not approve (four-eyes, 403); anyone who may
 * approve may refuse, the requester included (a withdrawal), with a reason.
 */
export const RELEASE_STATES = ['in_attesa', 'attivata', 'respinta'] as const;
export type ReleaseStatus = (typeof RELEASE_STATES)[number];

export const RELEASE_ACTIONS = ['approva', 'respingi'] as const;
export type ReleaseAction = (typeof RELEASE_ACTIONS)[number];

/** Who asks for, approves and refuses a release: the compliance officer and the tenant admin (the rules' editors). */
export const RELEASE_ROLES = ['co', 'admin'] as const;

export const releaseMachine: MachineDef<ReleaseStatus, ReleaseAction> = {
  name: 'monitoring-release',
  initial: 'in_attesa',
  states: RELEASE_STATES,
  final: ['attivata', 'respinta'],
  transitions: [
    { action: 'approva', from: ['in_attesa'], to: 'attivata', roles: RELEASE_ROLES, fourEyes: { against: 'richiesto_da' } },
    { action: 'respingi', from: ['in_attesa'], to: 'respinta', roles: RELEASE_ROLES, requires: ['motivazione'] },
  ],
};
