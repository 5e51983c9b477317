import type { MachineDef } from '../lib/machine';
import { PROCESS_WRITERS } from '../lib/roles';

export const CASE_STATES = ['open', 'escalated', 'closing', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATES)[number];

export const CASE_ACTIONS = ['add-event', 'escalate', 'close', 'complete-closure', 'reopen'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

const WRITERS = PROCESS_WRITERS;

/** Case (investigation), as in docs/processes.md. */
export const caseMachine: MachineDef<CaseStatus, CaseAction> = {
  name: 'case',
  initial: 'open',
  states: CASE_STATES,
  final: ['closed'],
  transitions: [
    // Notes stay possible while the case is being worked, escalated included.
    { action: 'add-event', from: ['open', 'escalated'], roles: WRITERS, requires: ['event'] },
    { action: 'escalate', from: ['open'], to: 'escalated', roles: WRITERS },
    { action: 'close', from: ['open', 'escalated'], to: 'closing', roles: WRITERS, requires: ['outcome', 'reason'] },
    { action: 'complete-closure', from: ['closing'], to: 'closed', roles: ['co'], fourEyes: { against: 'closing_requested_by' } },
    { action: 'reopen', from: ['closing'], to: 'open', roles: WRITERS },
  ],
};
