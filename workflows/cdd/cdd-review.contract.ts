import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { CddReviewStatus } from './cdd-review.machine';

/** The periodic due-diligence review of a customer; the first is scheduled at onboarding approval. */
export const cddReviewWorkflowId = (codAzienda: string, reviewId: string) => `cdd-review:${codAzienda}:${reviewId}`;
export const CDD_REVIEW_WORKFLOW_TYPE = 'cddReviewWorkflow';
export const CDD_REVIEW_RECORD_TYPE = 'cdd_review';

export interface CddReviewInput {
  codAzienda: string;
  codAnagrafe: string;
  reviewId: string;
  /** ISO date: by risk class (high 1 year, medium 3, low 5; tenant settings). */
  dueAt: string;
}

/** Years until the next periodic review, by risk class (docs/processes.md, CDD task). */
export const REVIEW_YEARS: Record<string, number> = { alto: 1, medio_alto: 2, medio: 3, basso: 5 };

/** `cdd_reviews.stato` for each state (column values are Italian, like the rest of the schema). */
export const CDD_REVIEW_STATO: Record<CddReviewStatus, string> = { scheduled: 'programmata', due: 'scaduta', cancelled: 'annullata' };

export interface CddReviewState {
  status: CddReviewStatus;
  /** ISO date the review falls due; moved by `reschedule`. */
  dueAt: string;
  /** Reschedules and cancellations applied so far. */
  changes: number;
}

export interface CddRescheduleArgs {
  actor: MachineActor;
  /** ISO date-time of the new due date. */
  dueAt: string;
  reason: string;
}

export interface CddCancelArgs {
  actor: MachineActor;
  reason: string;
}

export const rescheduleCddReviewUpdate = defineUpdate<CddReviewState, [CddRescheduleArgs]>('reschedule');
export const cancelCddReviewUpdate = defineUpdate<CddReviewState, [CddCancelArgs]>('cancel');
export const cddReviewStateQuery = defineQuery<CddReviewState>('state');

/** What the projection activity receives for one reschedule or cancellation. */
export interface CddReviewChange {
  codAzienda: string;
  reviewId: string;
  /** Idempotency key: a retried activity finds it on the row and writes nothing twice. */
  changeId: string;
  action: 'reschedule' | 'cancel';
  from: CddReviewStatus;
  to: CddReviewStatus;
  actor: MachineActor;
  dueAt: string;
  previousDueAt: string;
  reason: string;
}
