import { condition, continueAsNew, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { createCaseActivities } from '../../activities/case/case.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import { waitForDeadline } from '../lib/sla';
import {
  CASE_RECORD_TYPE, caseStateQuery, caseTransitionUpdate, createCaseUpdate, caseWorkflowId,
  type CaseWorkflowInput, type CaseWorkflowState,
} from './case.contract';
import { caseMachine } from './case.machine';

type CaseActivities = ReturnType<typeof createCaseActivities>;
const NOT_FOUND = ['CASE_NOT_FOUND'];
const acts = transitionProjections<CaseActivities>(NOT_FOUND);
const background = proxyActivities<CaseActivities>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: NOT_FOUND } });

/**
 * One durable workflow per case. The machine decides every transition in the update
 * validator; the handler writes the projection (status row, case event, audit event) and
 * only then changes the in-memory state. The SLA timer lives here too.
 */
export async function caseWorkflow(input: CaseWorkflowInput): Promise<CaseWorkflowState> {
  const state: CaseWorkflowState = input.state ?? {
    status: caseMachine.initial, created: false, overdue: false, slaDueAt: input.slaDueAt,
    closingRequestedBy: null, outcome: null, transitions: 0,
  };
  const p = recordProcess({
    machine: caseMachine, recordType: CASE_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.caseId, state,
    guards: () => ({ closing_requested_by: state.closingRequestedBy }),
  });

  setHandler(caseStateQuery, () => state);

  p.onCreate(createCaseUpdate, async (args) => {
    const record = await acts.createCaseProjection({
      codAzienda: input.codAzienda, caseId: input.caseId, workflowId: caseWorkflowId(input.codAzienda, input.caseId),
      actor: args.actor, data: args.data, slaDays: input.slaDays, slaDueAt: state.slaDueAt,
    });
    return { state, record: record ?? null };
  }, () => ({ state, record: null }));

  p.onTransition(caseTransitionUpdate, async (args, to) => {
    const from = state.status;
    const written = await p.commit(to, () => acts.projectCaseTransition({
      codAzienda: input.codAzienda, caseId: input.caseId, transitionId: uuid4(), action: args.action,
      from, to, actor: args.actor, reason: args.reason, outcome: args.outcome, event: args.event,
    }));
    if (args.action === 'close') { state.closingRequestedBy = args.actor.id; state.outcome = args.outcome ?? null; }
    if (args.action === 'reopen') { state.closingRequestedBy = null; state.outcome = null; }
    // Histories recorded before projections answered their row carry no result here.
    return { state, record: written?.record ?? null, event: written?.event };
  });

  await p.run(async (stop) => {
    if (state.overdue) { await condition(stop); return; }
    if ((await waitForDeadline(state.slaDueAt, stop)) === 'expired' && !p.done()) {
      await background.markCaseOverdue({ codAzienda: input.codAzienda, caseId: input.caseId, slaDueAt: state.slaDueAt });
      state.overdue = true;
    }
  }, () => continueAsNew<typeof caseWorkflow>({ ...input, state }));
  return state;
}
