import {
  allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler, upsertSearchAttributes, uuid4, workflowInfo,
} from '@temporalio/workflow';
import type { createCaseActivities } from '../../activities/case/case.activities';
import { checkTransition, type MachineActor } from '../lib/machine';
import { CodAzienda, RecordId, RecordStatus, RecordType } from '../lib/search-attributes';
import { createSerialQueue } from '../lib/serial';
import { waitForDeadline } from '../lib/sla';
import { transitionFailure } from '../lib/transition-failure';
import {
  CASE_RECORD_TYPE, caseStateQuery, caseTransitionUpdate, createCaseUpdate, caseWorkflowId,
  type CaseTransitionArgs, type CaseWorkflowInput, type CaseWorkflowState,
} from './case.contract';
import { caseMachine } from './case.machine';

const acts = proxyActivities<ReturnType<typeof createCaseActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: ['CASE_NOT_FOUND'] },
});

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
  const serial = createSerialQueue();
  const record = () => ({ closing_requested_by: state.closingRequestedBy });
  const check = (args: CaseTransitionArgs, actor: MachineActor) =>
    checkTransition(caseMachine, { state: state.status, action: args.action, actor, record: record(), input: { ...args } });

  const publishStatus = () => upsertSearchAttributes([
    { key: CodAzienda, value: input.codAzienda },
    { key: RecordType, value: CASE_RECORD_TYPE },
    { key: RecordId, value: input.caseId },
    { key: RecordStatus, value: state.status },
  ]);

  setHandler(caseStateQuery, () => state);

  setHandler(createCaseUpdate, (args) => serial(async () => {
    // A repeated create (client retry, duplicate start) is success: same state back.
    if (state.created) return state;
    await acts.createCaseProjection({
      codAzienda: input.codAzienda, caseId: input.caseId, workflowId: caseWorkflowId(input.codAzienda, input.caseId),
      actor: args.actor, data: args.data, slaDays: input.slaDays, slaDueAt: state.slaDueAt,
    });
    state.created = true;
    publishStatus();
    return state;
  }));

  setHandler(caseTransitionUpdate, (args) => serial(async () => {
    // Checked again here: an earlier update in the queue may have moved the state since validation.
    const c = check(args, args.actor);
    if (!c.ok) throw transitionFailure(c);
    const from = state.status;
    await acts.projectCaseTransition({
      codAzienda: input.codAzienda, caseId: input.caseId, transitionId: uuid4(), action: args.action,
      from, to: c.to, actor: args.actor, reason: args.reason, outcome: args.outcome, event: args.event,
    });
    state.status = c.to;
    state.transitions++;
    if (args.action === 'close') { state.closingRequestedBy = args.actor.id; state.outcome = args.outcome ?? null; }
    if (args.action === 'reopen') { state.closingRequestedBy = null; state.outcome = null; }
    if (from !== c.to) publishStatus();
    return state;
  }), {
    validator: (args) => {
      if (!state.created) throw transitionFailure({ ok: false, code: 'INVALID_TRANSITION', message: 'case not created yet', state: state.status, action: args.action, allowedActions: [] });
      const c = check(args, args.actor);
      if (!c.ok) throw transitionFailure(c);
    },
  });

  const closed = () => state.status === 'closed';
  const mustContinue = () => workflowInfo().continueAsNewSuggested;

  for (;;) {
    if (!state.overdue && !closed()) {
      const r = await waitForDeadline(state.slaDueAt, () => closed() || mustContinue());
      if (r === 'expired' && !closed()) {
        await acts.markCaseOverdue({ codAzienda: input.codAzienda, caseId: input.caseId, slaDueAt: state.slaDueAt });
        state.overdue = true;
      }
    } else {
      await condition(() => closed() || mustContinue());
    }
    if (closed() || mustContinue()) break;
  }
  // Let in-flight updates finish (and answer their callers) before completing or continuing.
  await condition(allHandlersFinished);
  if (!closed()) await continueAsNew<typeof caseWorkflow>({ ...input, state });
  return state;
}
