import { condition, continueAsNew, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { createSosActivities } from '../../activities/sos/sos.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import { addDays, waitForDeadline } from '../lib/sla';
import {
  SOS_RECORD_TYPE, createSosUpdate, sosStateQuery, sosTransitionUpdate, sosWorkflowId,
  type SosWorkflowInput, type SosWorkflowState,
} from './sos.contract';
import { SOS_EVALUATION_STATES, sosMachine } from './sos.machine';

type SosActivities = ReturnType<typeof createSosActivities>;
const NOT_FOUND = ['SOS_NOT_FOUND'];
const acts = transitionProjections<SosActivities>(NOT_FOUND);
const background = proxyActivities<SosActivities>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: NOT_FOUND } });

/**
 * One durable workflow per suspicious-transaction report (docs/sos.md). The machine decides
 * every transition; the projection writes the row, the timeline and the SOS audit chain. The
 * evaluation timer starts at submission and, when the delegate has not decided within the
 * tenant's term, escalates to the compliance officers once.
 */
export async function sosWorkflow(input: SosWorkflowInput): Promise<SosWorkflowState> {
  const state: SosWorkflowState = input.state ?? {
    status: sosMachine.initial, created: false, transitions: 0, evaluationDueAt: null, escalated: false,
  };
  const p = recordProcess({ machine: sosMachine, recordType: SOS_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.sosId, state });

  setHandler(sosStateQuery, () => state);

  p.onCreate(createSosUpdate, async (args) => {
    const record = await acts.createSosProjection({
      codAzienda: input.codAzienda, sosId: input.sosId, workflowId: sosWorkflowId(input.codAzienda, input.sosId),
      actor: args.actor, data: args.data, evaluationDays: input.evaluationDays,
    });
    return { state, record: record ?? null };
  }, () => ({ state, record: null }));

  p.onTransition(sosTransitionUpdate, async (args, to) => {
    const from = state.status;
    // The term runs from the submission (workflow time: deterministic, and skipped in tests).
    const dueAt = args.action === 'submit' ? addDays(new Date(), input.evaluationDays).toISOString() : undefined;
    const record = await p.commit(to, () => acts.projectSosTransition({
      codAzienda: input.codAzienda, sosId: input.sosId, transitionId: uuid4(), action: args.action, from, to,
      actor: args.actor, reason: args.reason, protocollo: args.protocollo, ...(dueAt ? { evaluationDueAt: dueAt } : {}),
    }));
    if (dueAt) state.evaluationDueAt = dueAt;
    return { state, record: record ?? null };
  });

  const evaluating = () => SOS_EVALUATION_STATES.includes(state.status);
  await p.run(async (stop) => {
    if (!evaluating() || state.escalated || !state.evaluationDueAt) {
      // Nothing to time: wait for the next transition (or the end).
      const before = state.transitions;
      await condition(() => stop() || state.transitions !== before);
      return;
    }
    const due = state.evaluationDueAt;
    if ((await waitForDeadline(due, () => stop() || !evaluating())) === 'expired' && evaluating()) {
      await background.escalateSosEvaluation({ codAzienda: input.codAzienda, sosId: input.sosId, dueAt: due });
      state.escalated = true;
    }
  }, () => continueAsNew<typeof sosWorkflow>({ ...input, state }));
  return state;
}
