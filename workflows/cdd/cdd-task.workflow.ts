import {
  allHandlersFinished, ApplicationFailure, condition, continueAsNew, ParentClosePolicy, proxyActivities, setHandler, startChild, uuid4,
} from '@temporalio/workflow';
import type { createCddTaskActivities } from '../../activities/cdd/cdd-task.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import { allowedActions } from '../lib/machine';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import { cddReviewWorkflowId, CDD_REVIEW_WORKFLOW_TYPE, type CddReviewInput } from './cdd-review.contract';
import {
  CDD_TASK_FAILURES, CDD_TASK_RECORD_TYPE, cddTaskStateQuery, cddTaskTransitionUpdate, cddTaskWorkflowId, createCddTaskUpdate,
  type CddTaskReply, type CddTaskWorkflowInput, type CddTaskWorkflowState,
} from './cdd-task.contract';
import { cddTaskMachine } from './cdd-task.machine';

type CddTaskActivities = ReturnType<typeof createCddTaskActivities>;
const OWN_FAILURES = [CDD_TASK_FAILURES.notFound, CDD_TASK_FAILURES.questionnaireIncomplete, CDD_TASK_FAILURES.eddRequired];
const acts = transitionProjections<CddTaskActivities>(OWN_FAILURES);
// After completion nobody waits: the earlier reviews' cancellation rides out an outage.
const background = proxyActivities<CddTaskActivities>(BACKGROUND_ACTIVITY);

/**
 * One durable workflow per CDD task (docs/processes.md, CDD task). The machine decides every
 * transition in the update validator; the handler writes the projection (row, audit event)
 * and only then moves the state. Completion writes the next periodic review in the same
 * transaction, then starts its timer (`cddReviewWorkflow`, abandoned: it outlives the task)
 * and cancels the reviews it replaces.
 */
export async function cddTaskWorkflow(input: CddTaskWorkflowInput): Promise<CddTaskWorkflowState> {
  const state: CddTaskWorkflowState = input.state ?? {
    status: cddTaskMachine.initial, created: false, superseded: null, transitions: 0, livello: null, analystMayComplete: false, reviewRequestedBy: null,
  };
  const p = recordProcess({
    machine: cddTaskMachine, recordType: CDD_TASK_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.taskId, state,
    guards: () => ({ review_requested_by: state.reviewRequestedBy }),
  });

  setHandler(cddTaskStateQuery, () => state);

  // Not the kit's onCreate: a create that runs into another open task of the customer ends this run unpublished.
  setHandler(createCddTaskUpdate, (args) => p.serial(async (): Promise<CddTaskReply> => {
    if (state.created || state.superseded) return { state, record: null, ...(state.superseded ? { existing: state.superseded } : {}) };
    const r = await p.project(() => acts.createCddTaskProjection({
      codAzienda: input.codAzienda, taskId: input.taskId, workflowId: cddTaskWorkflowId(input.codAzienda, input.taskId), actor: args.actor, data: args.data,
    }), 'create');
    if (r.existing) {
      state.superseded = r.existing;
      return { state, record: null, existing: r.existing };
    }
    state.created = true;
    state.livello = args.data.livello;
    state.analystMayComplete = args.data.analista_puo_completare;
    p.publishStatus();
    return { state, record: r.record };
  }));

  p.onTransition(cddTaskTransitionUpdate, async (args, to) => {
    // The level and the tenant's policy narrow who completes: the machine lets co and analyst, this record may want co alone.
    if (args.action === 'complete' && !args.actor.roles.includes('co') && !state.analystMayComplete) {
      throw ApplicationFailure.create({
        type: CDD_TASK_FAILURES.completerNotAllowed, nonRetryable: true,
        message: 'only a compliance officer may complete this task (its level, or the tenant policy)',
        details: [{ state: state.status, action: args.action, allowed_actions: allowedActions(cddTaskMachine, state.status, args.actor, { review_requested_by: state.reviewRequestedBy }).filter((a) => a !== 'complete') }],
      });
    }
    const from = state.status;
    const written = await p.commit(to, () => acts.projectCddTaskTransition({
      codAzienda: input.codAzienda, taskId: input.taskId, transitionId: uuid4(), action: args.action, from, to, actor: args.actor, nota: args.nota,
    }));
    if (args.action === 'review') state.reviewRequestedBy = args.actor.id;
    if (args.action === 'send-back') state.reviewRequestedBy = null;
    if (written.nextReview) {
      const review: CddReviewInput = { codAzienda: input.codAzienda, codAnagrafe: written.nextReview.codAnagrafe, reviewId: written.nextReview.reviewId, dueAt: written.nextReview.dueAt };
      await startChild(CDD_REVIEW_WORKFLOW_TYPE, {
        workflowId: cddReviewWorkflowId(input.codAzienda, review.reviewId), args: [review], parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
    return { state, record: written.record };
  });

  await condition(() => state.created || state.superseded !== null);
  if (state.superseded) {
    await condition(allHandlersFinished);
    return state;
  }
  await p.run(async (stop) => { await condition(stop); }, () => continueAsNew<typeof cddTaskWorkflow>({ ...input, state }));
  // The reviews this completion replaced: cancelled through their own workflows (row, audit), after the reply left.
  if (state.status === 'completed') await background.cancelReplacedCddReviews({ codAzienda: input.codAzienda, taskId: input.taskId });
  return state;
}
