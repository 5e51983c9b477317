import {
  allHandlersFinished, ApplicationFailure, CancellationScope, condition, getExternalWorkflowHandle, isCancellation, patched, proxyActivities, setHandler,
  uuid4,
} from '@temporalio/workflow';
import { BACKGROUND_ACTIVITY, TRANSITION_ACTIVITY } from '../lib/activity-options';
import { checkTransition, isFinal, type MachineActor } from '../lib/machine';
import { publishRecord } from '../lib/search-attributes';
import { createSerialQueue } from '../lib/serial';
import { waitForDeadline } from '../lib/sla';
import { transitionFailure } from '../lib/transition-failure';
import {
  createCeremonyUpdate, ESIGN_RECORD_TYPE, esignCompletedSignal, esignEndedSignal, esignStateQuery, esignTransitionUpdate, esignWorkflowId, RESEND_LIMIT, RESEND_TOO_SOON,
  type EsignActivities, type EsignEndedSignal, type EsignNewData, type EsignTransitionArgs, type EsignWorkflowInput, type EsignWorkflowState,
} from './esign.contract';
import { esignMachine, MAX_OTP_ATTEMPTS, MAX_OTP_SENDS, OTP_RESEND_INTERVAL_MS, SYSTEM_ROLE } from './esign.machine';

const NOT_FOUND = ['ESIGN_NOT_FOUND'];
/**
 * The signer's steps: the signer is waiting, so they fail fast and the step can be tried again.
 * Regular activities, not the kit's local projections: a ceremony is a handful of steps per
 * contract, not a throughput path, and Temporal's time-skipping test server (the ceremony's
 * 24 h expiry tests) mishandles local activities racing its skipped timers.
 */
const acts = proxyActivities<EsignActivities>({ ...TRANSITION_ACTIVITY, retry: { ...TRANSITION_ACTIVITY.retry, nonRetryableErrorTypes: NOT_FOUND } });
/** The ceremony's end by expiry or cancellation: nobody waits, it rides out an outage. */
const background = proxyActivities<EsignActivities>({ ...BACKGROUND_ACTIVITY, retry: { ...BACKGROUND_ACTIVITY.retry, nonRetryableErrorTypes: NOT_FOUND } });

const SYSTEM: MachineActor = { id: 'system', username: 'system', roles: [SYSTEM_ROLE] };

/**
 * Versioning marker: a ceremony that ends unsigned tells its parent by signal (recorded
 * histories from before it expired or locked without one). See docs/architecture.md, Versioning.
 */
const ENDED_SIGNAL_PATCH = 'esign-ended-signal';

/**
 * One durable workflow per signing ceremony. The machine decides every step in the
 * update validator; activities write the row and the audit event, check the one-time
 * code by hash and sign the evidence. The 24 h expiry timer and the OTP failure count
 * live here, so neither can be reset by the web process.
 */
export async function esignCeremonyWorkflow(input: EsignWorkflowInput): Promise<EsignWorkflowState> {
  // A ceremony started as a child is created by its input: created from the first instant, so
  // a signer step that reaches the workflow with its first task is not refused.
  const state: EsignWorkflowState = {
    status: esignMachine.initial, created: Boolean(input.create), otpFailures: 0, lastOtp: null, transitions: 0, otpSends: 0, lastOtpSentAt: null,
  };
  const serial = createSerialQueue();
  const base = { codAzienda: input.codAzienda, ceremonyId: input.ceremonyId };
  const check = (args: { action: string; otp?: string }, actor: MachineActor) =>
    checkTransition(esignMachine, { state: state.status, action: args.action, actor, input: { ...args } });

  const publishStatus = () => publishRecord({ codAzienda: input.codAzienda, recordType: ESIGN_RECORD_TYPE, recordId: input.ceremonyId, status: state.status });
  const moveTo = (to: EsignWorkflowState['status']) => { state.status = to; state.transitions++; publishStatus(); };

  /** The parent learns how its ceremony ended; it may be gone (finished, erased): the ceremony's own end stands regardless. */
  const tellParent = async (send: (parent: ReturnType<typeof getExternalWorkflowHandle>) => Promise<void>) => {
    if (!input.parentWorkflowId) return;
    try {
      await send(getExternalWorkflowHandle(input.parentWorkflowId));
    } catch {
      // Nothing to tell: see above.
    }
  };
  /** Ends the ceremony unsigned (row and audit first, then the state) and tells the parent. */
  const endUnsigned = async (to: EsignEndedSignal['status']) => {
    await background.endEsignCeremony({ ...base, transitionId: uuid4(), actor: SYSTEM, to, from: state.status });
    moveTo(to);
    // Checked where it first matters: a ceremony that ended before the patch replays without the signal.
    if (patched(ENDED_SIGNAL_PATCH)) await tellParent((p) => p.signal(esignEndedSignal, { ...base, status: to }));
  };

  setHandler(esignStateQuery, () => state);

  const project = (args: { actor: MachineActor; data: EsignNewData }) => acts.createEsignProjection({
    ...base, workflowId: esignWorkflowId(input.codAzienda, input.ceremonyId), actor: args.actor, data: args.data, expiresAt: input.expiresAt,
  });
  const create = (args: { actor: MachineActor; data: EsignNewData }) => serial(async () => {
    if (state.created) return state;
    await project(args);
    state.created = true;
    publishStatus();
    return state;
  });
  setHandler(createCeremonyUpdate, create);
  // Started as a child (onboarding declarations): a parent cannot send updates, so the input
  // carries the data. The projection goes first in the serial queue, before the signer's
  // handlers exist, so it precedes any signer step (the parent has usually written it already).
  if (input.create) {
    const c = input.create;
    publishStatus();
    void serial(() => project(c));
  }

  const sign = async (args: EsignTransitionArgs) => {
    const ok = await acts.checkEsignOtp({ ...base, transitionId: uuid4(), actor: args.actor, client: args.client, otp: args.otp ?? '', attempt: state.otpFailures + 1 });
    if (!ok) {
      state.otpFailures++;
      state.lastOtp = 'wrong';
      if (state.otpFailures >= MAX_OTP_ATTEMPTS) await endUnsigned('locked');
      return;
    }
    state.lastOtp = 'ok';
    const signed = await acts.completeEsignSignature({ ...base, transitionId: uuid4(), actor: args.actor, client: args.client });
    moveTo('signed');
    await tellParent((p) => p.signal(esignCompletedSignal, { ...base, ...signed }));
  };

  /**
   * A new code: at most MAX_OTP_SENDS in all and one per OTP_RESEND_INTERVAL_MS, counted here
   * with workflow time so the web process cannot reset either. Wrong codes keep counting.
   */
  const resendRefusal = (): ApplicationFailure | null => {
    const details = { state: state.status, action: 'resend', allowed_actions: [] as string[] };
    const sends = state.otpSends ?? 0;
    if (sends >= MAX_OTP_SENDS) return ApplicationFailure.create({ type: RESEND_LIMIT, message: 'no more codes for this ceremony', nonRetryable: true, details: [details] });
    const wait = (state.lastOtpSentAt ?? 0) + OTP_RESEND_INTERVAL_MS - Date.now();
    if (wait > 0) return ApplicationFailure.create({ type: RESEND_TOO_SOON, message: 'a code was sent a moment ago', nonRetryable: true, details: [{ ...details, retry_after: Math.ceil(wait / 1000) }] });
    return null;
  };
  const codeSent = () => { state.otpSends = (state.otpSends ?? 0) + 1; state.lastOtpSentAt = Date.now(); };

  setHandler(esignTransitionUpdate, (args) => serial(async () => {
    const c = check(args, args.actor);
    if (!c.ok) throw transitionFailure(c);
    if (args.action === 'sign') {
      await sign(args);
      return state;
    }
    if (args.action === 'resend') {
      const refused = resendRefusal();
      if (refused) throw refused;
      await acts.resendEsignCode({ ...base, transitionId: uuid4(), actor: args.actor, client: args.client, send: (state.otpSends ?? 0) + 1 });
      codeSent();
      return state;
    }
    const step = { ...base, transitionId: uuid4(), actor: args.actor, client: args.client };
    if (args.action === 'terms') await acts.acceptEsignTerms(step);
    else {
      await acts.presentEsignDocument(step);
      codeSent();
    }
    moveTo(c.to);
    return state;
  }), {
    validator: (args) => {
      if (!state.created) throw transitionFailure({ ok: false, code: 'INVALID_TRANSITION', message: 'ceremony not created yet', state: state.status, action: args.action, allowedActions: [] });
      const c = check(args, args.actor);
      if (!c.ok) throw transitionFailure(c);
      if (args.action === 'resend') {
        const refused = resendRefusal();
        if (refused) throw refused;
      }
    },
  });


  const done = () => isFinal(esignMachine, state.status);
  // Serialised with the updates: a signature already in flight wins over the timer or the cancellation.
  const endIfOpen = (to: EsignEndedSignal['status']) => serial(async () => { if (!done()) await endUnsigned(to); });
  try {
    const r = await waitForDeadline(input.expiresAt, done);
    if (r === 'expired') await endIfOpen('expired');
    await condition(allHandlersFinished);
  } catch (err) {
    // Cancelled (from the Web UI, or by a parent): the row and the parent learn it, then the workflow ends as cancelled;
    // a ceremony that had already ended keeps its end.
    if (!isCancellation(err) || !patched(ENDED_SIGNAL_PATCH)) throw err;
    const open = !done();
    await CancellationScope.nonCancellable(() => endIfOpen('cancelled'));
    if (open) throw err;
  }
  return state;
}
