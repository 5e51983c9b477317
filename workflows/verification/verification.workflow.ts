import { condition, continueAsNew, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { createVerificationActivities } from '../../activities/verification/verification.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import type { MachineActor } from '../lib/machine';
import { transitionProjections } from '../lib/projections';
import { recordProcess } from '../lib/record-process';
import {
  VERIFICATION_FAILURES, VERIFICATION_RECORD_TYPE, VERIFICATION_SYSTEM_ACTOR, verificationDocumentsChangedSignal, verificationStateQuery,
  verificationTransitionUpdate, type VerificationReply, type VerificationWorkflowInput, type VerificationWorkflowState,
} from './verification.contract';
import { verificationMachine, type VerificationAction, type VerificationStatus } from './verification.machine';

type Acts = ReturnType<typeof createVerificationActivities>;
const OWN = Object.values(VERIFICATION_FAILURES);
const acts = transitionProjections<Acts>(OWN);
// Nobody waits for these: reading the deadline and the expiry ride out an outage.
const background = proxyActivities<Acts>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: OWN } });

/**
 * One durable workflow per KYC or KYB verification (docs/verifications.md). The row is written
 * in the transaction that opens the verification (the API's, or the approved onboarding's, with
 * its checks, documents and audit event); the workflow starts with its state and deadline and keeps
 * the validity timer. People move it (start, approve, reject) through the update, which the machine
 * checks in the validator; the projection (row, audit) is written before the state moves. A
 * document the verification relied on that changes (replaced, new expiry) signals the workflow,
 * which reads the deadline again: an earlier document expiry brings the expiry forward. When the
 * timer fires on an open verification, the system expires it. The workflow ends with a final state.
 */
export async function verificationWorkflow(input: VerificationWorkflowInput): Promise<VerificationWorkflowState> {
  // The row is written before the workflow starts: it is created from its first task.
  const state: VerificationWorkflowState = input.state ?? {
    status: input.initial.stato, created: true, transitions: 0, scadeIl: input.initial.scadeIl, deadlineStale: false,
  };
  const p = recordProcess({ machine: verificationMachine, recordType: VERIFICATION_RECORD_TYPE, codAzienda: input.codAzienda, recordId: input.verificaId, state });
  const ref = { codAzienda: input.codAzienda, verificaId: input.verificaId };

  setHandler(verificationStateQuery, () => state);
  setHandler(verificationDocumentsChangedSignal, () => { state.deadlineStale = true; });

  /** One transition's projection, then the state. */
  const step = (action: VerificationAction, to: VerificationStatus, actor: MachineActor, motivo?: string) => {
    const from = state.status;
    return p.commit(to, () => acts.projectVerificationTransition({ ...ref, transitionId: uuid4(), action, from, to, actor, motivo }));
  };

  p.onTransition(verificationTransitionUpdate, async (args, to): Promise<VerificationReply> => ({
    state, record: await step(args.action, to, args.actor, args.motivo?.trim()),
  }));

  if (!input.state) p.publishStatus();

  await p.run(async (stop) => {
    if (state.deadlineStale) {
      state.deadlineStale = false;
      state.scadeIl = (await background.recomputeVerificationDeadline(ref)).scadeIl;
      return;
    }
    if (!state.scadeIl) {
      await condition(() => stop() || state.deadlineStale);
      return;
    }
    const ms = Math.max(1, Date.parse(state.scadeIl) - Date.now());
    // Woken early by a person's decision (stop) or a changed document (a new deadline).
    if (await condition(() => stop() || state.deadlineStale, ms)) return;
    await p.serial(async () => {
      if (p.done() || state.deadlineStale) return;
      const from = state.status;
      try {
        // Nobody waits for the expiry: it rides out an outage instead of failing after a few attempts.
        await p.commit('expired', () => background.projectVerificationTransition({
          ...ref, transitionId: uuid4(), action: 'expire', from, to: 'expired', actor: VERIFICATION_SYSTEM_ACTOR,
        }));
      } catch {
        // Refused for good (the row is not where the workflow thinks): follow the row.
        const read = await background.readVerificationDeadline(ref);
        state.status = read.stato;
        state.scadeIl = read.scadeIl;
      }
    });
  }, () => continueAsNew<typeof verificationWorkflow>({ ...input, state }));
  return state;
}
