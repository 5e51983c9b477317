import type { MachineDef } from '../lib/machine';

export const CDD_TASK_STATES = ['open', 'in_progress', 'pending_review', 'completed', 'abstained', 'deleted'] as const;
export type CddTaskStatus = (typeof CDD_TASK_STATES)[number];

/** The states of a task still being worked: at most one per customer (a unique index says so). */
export const CDD_OPEN_STATES = ['open', 'in_progress', 'pending_review'] as const satisfies readonly CddTaskStatus[];

export const CDD_TASK_ACTIONS = ['start', 'add-note', 'review', 'send-back', 'complete', 'abstain', 'delete'] as const;
export type CddTaskAction = (typeof CDD_TASK_ACTIONS)[number];

/** Who works a CDD task (the operators and the compliance staff). */
const WORKERS = ['co', 'analyst', 'admin'] as const;

/**
 * CDD task (adeguata verifica), as in docs/processes.md:
 * open --start--> in_progress --review--> pending_review --complete--> completed;
 * any open state --abstain--> abstained (art. 42: reasons required, an SOS is proposed).
 *
 * `complete` is the reviewer's step and is four-eyes against who asked for the review. The
 * compliance officer may always complete; an analyst only when the task's level is simplified
 * or ordinary and the tenant's policy lets analysts complete those (`cdd.analyst_can_complete`):
 * the machine lists both roles, and the record's `completer_roles` guard (computed from level and
 * policy, see cdd-task.contract.ts) narrows it. `send-back` returns a task from review to the
 * operator with a note; `delete` withdraws a task opened by mistake (co or admin, reason).
 */
export const cddTaskMachine: MachineDef<CddTaskStatus, CddTaskAction> = {
  name: 'cdd_task',
  initial: 'open',
  states: CDD_TASK_STATES,
  final: ['completed', 'abstained', 'deleted'],
  transitions: [
    { action: 'start', from: ['open'], to: 'in_progress', roles: WORKERS },
    { action: 'add-note', from: ['open', 'in_progress', 'pending_review'], roles: WORKERS, requires: ['nota'] },
    { action: 'review', from: ['in_progress'], to: 'pending_review', roles: WORKERS },
    { action: 'send-back', from: ['pending_review'], to: 'in_progress', roles: ['co', 'analyst'], requires: ['nota'] },
    { action: 'complete', from: ['pending_review'], to: 'completed', roles: ['co', 'analyst'], fourEyes: { against: 'review_requested_by' } },
    { action: 'abstain', from: ['open', 'in_progress', 'pending_review'], to: 'abstained', roles: ['co', 'analyst', 'sos'], requires: ['nota'] },
    { action: 'delete', from: ['open'], to: 'deleted', roles: ['co', 'admin'], requires: ['nota'] },
  ],
};
