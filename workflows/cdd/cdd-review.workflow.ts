import {
  allHandlersFinished, condition, patched, proxyActivities, setHandler, uuid4,
} from '@temporalio/workflow';
import type { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { checkTransition, type MachineActor } from '../lib/machine';
import { publishRecord } from '../lib/search-attributes';
import { createSerialQueue } from '../lib/serial';
import { waitForDeadline } from '../lib/sla';
import { transitionFailure } from '../lib/transition-failure';
import { transitionProjections } from '../lib/projections';
import {
  CDD_REVIEW_RECORD_TYPE, cancelCddReviewUpdate, cddReviewStateQuery, rescheduleCddReviewUpdate,
  type CddReviewChange, type CddReviewInput, type CddReviewState,
} from './cdd-review.contract';
import { cddReviewMachine, type CddReviewAction, type CddReviewStatus } from './cdd-review.machine';

// The due mark runs when the timer fires, with no caller waiting: it is retried until the database takes it.
const timerActs = proxyActivities<ReturnType<typeof createCddReviewActivities>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '10 minutes' },
});
// A change is asked for by a person waiting on the answer: a few quick attempts, then the update fails and nothing moved.
const changeActs = transitionProjections<ReturnType<typeof createCddReviewActivities>>(['CDD_REVIEW_NOT_FOUND']);

/**
 * Reviews started before this patch replay their recorded path: no search attributes at
 * start. Their timers and due marks are the same commands, so they too can be rescheduled
 * and cancelled once running on this code.
 */
export const CDD_REVIEW_CONTROLS_PATCH = 'cdd-review-controls';

/**
 * A customer's periodic review: a durable timer until the due date (years away), then the
 * review is marked due and the compliance officers are told. Until then it can be
 * rescheduled (new date, reason) or cancelled (reason); every change is written to its
 * `cdd_reviews` row with an audit event before the state here moves. The CDD task (its own
 * process) takes a due review from there.
 */
export async function cddReviewWorkflow(input: CddReviewInput): Promise<CddReviewStatus> {
  const controlled = patched(CDD_REVIEW_CONTROLS_PATCH);
  const state: CddReviewState = { status: cddReviewMachine.initial, dueAt: input.dueAt, changes: 0 };
  const serial = createSerialQueue();
  let published = false;
  const publish = () => {
    published = true;
    publishRecord({ codAzienda: input.codAzienda, recordType: CDD_REVIEW_RECORD_TYPE, recordId: input.reviewId, status: state.status, dueAt: state.dueAt });
  };
  if (controlled) publish();

  const check = (action: CddReviewAction, actor: MachineActor, fields: Record<string, unknown>) =>
    checkTransition(cddReviewMachine, { state: state.status, action, actor, input: fields });
  const validDate = (iso: string) => !Number.isNaN(new Date(iso).getTime());

  const change = (action: CddReviewAction, actor: MachineActor, reason: string, dueAt: string) => serial(async () => {
    // Checked again here: the timer or an earlier update in the queue may have moved the state since validation.
    const c = check(action, actor, { dueAt, reason });
    if (!c.ok) throw transitionFailure(c);
    const projection: CddReviewChange = {
      codAzienda: input.codAzienda, reviewId: input.reviewId, changeId: uuid4(), action,
      from: state.status, to: c.to, actor, dueAt, previousDueAt: state.dueAt, reason,
    };
    await changeActs.projectCddReviewChange(projection);
    state.status = c.to;
    state.dueAt = dueAt;
    state.changes++;
    publish();
    return state;
  });

  setHandler(cddReviewStateQuery, () => state);
  setHandler(rescheduleCddReviewUpdate, (args) => change('reschedule', args.actor, args.reason, args.dueAt), {
    validator: (args) => {
      const c = check('reschedule', args.actor, { dueAt: validDate(args.dueAt) ? args.dueAt : undefined, reason: args.reason });
      if (!c.ok) throw transitionFailure(c);
    },
  });
  setHandler(cancelCddReviewUpdate, (args) => change('cancel', args.actor, args.reason, state.dueAt), {
    validator: (args) => {
      const c = check('cancel', args.actor, { reason: args.reason });
      if (!c.ok) throw transitionFailure(c);
    },
  });

  while (state.status === 'scheduled') {
    const waitingFor = state.dueAt;
    const r = await waitForDeadline(waitingFor, () => state.status !== 'scheduled' || state.dueAt !== waitingFor);
    if (r !== 'expired') continue;
    await serial(async () => {
      // A reschedule or cancel that landed with the timer wins: the loop waits for the new date, or ends.
      if (state.status !== 'scheduled' || state.dueAt !== waitingFor) return;
      await timerActs.markCddReviewDue({ codAzienda: input.codAzienda, reviewId: input.reviewId, codAnagrafe: input.codAnagrafe });
      state.status = 'due';
      if (published) publish();
    });
  }
  // Let in-flight updates answer their callers before completing.
  await condition(allHandlersFinished);
  return state.status;
}
