import type { MachineDef } from '../lib/machine';

export const CDD_REVIEW_STATES = ['scheduled', 'due', 'cancelled'] as const;
export type CddReviewStatus = (typeof CDD_REVIEW_STATES)[number];

export const CDD_REVIEW_ACTIONS = ['reschedule', 'cancel'] as const;
export type CddReviewAction = (typeof CDD_REVIEW_ACTIONS)[number];

/**
 * Periodic review: scheduled until its due date (the timer moves it to `due`, no one else
 * can), rescheduled by the compliance staff with a reason, or cancelled by the compliance
 * officer (the relationship ended, a new review replaced it). The CDD task takes a due
 * review from there.
 */
export const cddReviewMachine: MachineDef<CddReviewStatus, CddReviewAction> = {
  name: 'cdd_review',
  initial: 'scheduled',
  states: CDD_REVIEW_STATES,
  final: ['due', 'cancelled'],
  transitions: [
    { action: 'reschedule', from: ['scheduled'], roles: ['co', 'analyst'], requires: ['dueAt', 'reason'] },
    { action: 'cancel', from: ['scheduled'], to: 'cancelled', roles: ['co'], requires: ['reason'] },
  ],
};
