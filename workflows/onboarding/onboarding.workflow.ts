import {
  ActivityFailure, allHandlersFinished, ApplicationFailure, ParentClosePolicy, condition, continueAsNew, log, patched, proxyActivities, setHandler,
  startChild, uuid4, workflowInfo, type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { createOnboardingActivities } from '../../activities/onboarding/onboarding.activities';
import { VERIFICATION_WORKFLOW_TYPE } from '../verification/verification.contract';
import { cddReviewWorkflowId, type CddReviewInput } from '../cdd/cdd-review.contract';
import { CEREMONY_TTL_MS, esignCompletedSignal, esignEndedSignal, esignWorkflowId, type EsignActivities, type EsignWorkflowInput } from '../esign/esign.contract';
import { STEP_ACTIVITY } from '../lib/activity-options';
import { transitionProjections } from '../lib/projections';
import { checkTransition, isFinal, type MachineActor } from '../lib/machine';
import { projectionFailure } from '../lib/record-process';
import { publishRecord } from '../lib/search-attributes';
import { createSerialQueue } from '../lib/serial';
import { transitionFailure } from '../lib/transition-failure';
import {
  createOnboardingUpdate, editOnboardingUpdate, ONBOARDING_FAILURES, ONBOARDING_RECORD_TYPE, onboardingStateQuery, onboardingTransitionUpdate,
  onboardingWorkflowId, type CeremonyRef, type OnboardingEdit, type OnboardingTransitionArgs, type OnboardingWorkflowInput, type OnboardingWorkflowState,
} from './onboarding.contract';
import { ONBOARDING_SYSTEM_ROLE, onboardingMachine, walletMachine, type OnboardingAction, type OnboardingStatus } from './onboarding.machine';
import { onboardingTimers } from './onboarding.timers';

// Bounded: an update's caller is waiting, and a timer step that fails is tried again later (onboarding.timers.ts).
const acts = proxyActivities<ReturnType<typeof createOnboardingActivities>>({
  ...STEP_ACTIVITY,
  retry: {
    ...STEP_ACTIVITY.retry,
    nonRetryableErrorTypes: [ONBOARDING_FAILURES.notFound, ONBOARDING_FAILURES.conflict, ONBOARDING_FAILURES.tooManyDocuments, ONBOARDING_FAILURES.documentsTooLarge],
  },
});

const esignActs = transitionProjections<EsignActivities>();
/** The light projections of edits and decisions, which somebody waits for: local activities in the update's task. */
const projections = transitionProjections<ReturnType<typeof createOnboardingActivities>>([
  ONBOARDING_FAILURES.notFound, ONBOARDING_FAILURES.conflict, ONBOARDING_FAILURES.tooManyDocuments, ONBOARDING_FAILURES.documentsTooLarge,
]);

/** Versioning marker: the applicant is told the decision (see docs/architecture.md, Versioning). */
const APPLICANT_OUTCOME_PATCH = 'applicant-outcome-message';
/** Versioning marker: an approval opens the customer's KYC/KYB verification (issue 13); cases approved before it replay without it. */
const OPEN_VERIFICATION_PATCH = 'open-verification';
/**
 * Versioning marker, decided once on a run's first task: the state moves only after its
 * projection was written, ceremonies report their end by signal, and the run continues as
 * new when Temporal suggests it. Runs started before it keep the old order for their life.
 */
const PROJECTION_FIRST_PATCH = 'projection-first';
/** Versioning marker: runs from before PROJECTION_FIRST_PATCH also write a ceremony's outcome on the row, from the first one after it. */
const CEREMONY_ROW_PATCH = 'ceremony-outcome-row';

const SYSTEM: MachineActor = { id: 'system', username: 'system', roles: [ONBOARDING_SYSTEM_ROLE] };
const fail = (type: string, message: string, details?: unknown) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, details: details === undefined ? [] : [details] });
/** Refusals the API answers on their own; any other activity failure becomes PROJECTION_FAILED. */
const KNOWN_REFUSALS = new Set<string>([...Object.values(ONBOARDING_FAILURES), 'INVALID_TRANSITION', 'FORBIDDEN', 'FOUR_EYES_REQUIRED', 'MISSING_FIELDS']);

const initialState = (): OnboardingWorkflowState => ({
  status: onboardingMachine.initial, created: false, subjectType: null, lastEditAt: new Date().toISOString(), submittedAt: null, submissions: 0,
  approvedBy: null, secondApprovalRequired: false, risk: null, declarations: null, travelRule: { status: 'none', ceremonyId: null },
  wallets: [], infoRequestedAt: null, reminderSent: false, codAnagrafe: null, transitions: 0,
});

/**
 * One durable workflow per onboarding case. The applicant's edits and the reviewers'
 * decisions arrive as updates, checked by the machine in the validator and again in the
 * serial queue; activities write the rows with their audit events, and only then does the
 * state move. Submission runs validation, screening and the risk score as activities, then
 * starts the declarations signing ceremony as a child: its signal (signed, or ended
 * unsigned) reaches whichever run is current. Timers: idle draft expiry, and the reminder
 * and expiry of an information request. Continues as new when suggested, carrying its state.
 */
export async function onboardingCaseWorkflow(input: OnboardingWorkflowInput): Promise<OnboardingWorkflowState> {
  const state: OnboardingWorkflowState = input.state ?? initialState();
  const projectionFirst = patched(PROJECTION_FIRST_PATCH);
  const serial = createSerialQueue();
  const wfId = onboardingWorkflowId(input.codAzienda, input.caseId);
  const step = (actor: MachineActor) => ({ codAzienda: input.codAzienda, caseId: input.caseId, transitionId: uuid4(), actor });
  /** While a transition's projection is being written: where it is going (a validator may accept what is valid there). */
  let pending: Pick<OnboardingWorkflowState, 'status' | 'approvedBy'> | null = null;
  const checkIn = (s: Pick<OnboardingWorkflowState, 'status' | 'approvedBy'>, action: string, actor: MachineActor, args: Record<string, unknown>) =>
    checkTransition(onboardingMachine, { state: s.status, action, actor, record: { approved_by: s.approvedBy }, input: args });
  const check = (action: string, actor: MachineActor, args: Record<string, unknown> = {}) => checkIn(state, action, actor, args);
  /**
   * The validators' check. A caller who already reads the new row (written, the state not
   * yet moved) is checked against where the state is going, so it never gets a stale 409;
   * the handler checks again against the state itself, in the serial queue.
   */
  const admissible = (action: string, actor: MachineActor, args: Record<string, unknown> = {}) => {
    const now = check(action, actor, args);
    return now.ok || !pending ? now : checkIn({ ...state, ...pending }, action, actor, args);
  };

  const publishStatus = () => publishRecord({ codAzienda: input.codAzienda, recordType: ONBOARDING_RECORD_TYPE, recordId: input.caseId, status: state.status });
  if (input.state) publishStatus();

  /** A handler's work; an activity failure that is not a refusal the API knows says the step did not happen. */
  const guarded = async <T>(action: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      // The refusals the API knows travel as they are; the kit says what anything else means.
      if (err.cause instanceof ApplicationFailure && err.cause.type && KNOWN_REFUSALS.has(err.cause.type)) throw err;
      throw projectionFailure(err, (t) => KNOWN_REFUSALS.has(t), { action, state: state.status });
    }
  };

  /** Writes the transition (row and audit event), then moves the state with the other fields it changes. */
  const moveTo = async (action: OnboardingAction, to: OnboardingStatus, actor: MachineActor, extra: Record<string, unknown> = {}, changes: Partial<OnboardingWorkflowState> = {}) => {
    const from = state.status;
    const commit = () => { Object.assign(state, changes); state.status = to; state.transitions++; publishStatus(); };
    if (!projectionFirst) {
      // A run from before the patch moved first: the same order keeps its history replaying.
      commit();
      await projections.recordOnboardingTransition({ ...step(actor), action, from, to, extra });
      return;
    }
    pending = { status: to, approvedBy: changes.approvedBy !== undefined ? changes.approvedBy : state.approvedBy };
    try {
      await projections.recordOnboardingTransition({ ...step(actor), action, from, to, extra });
    } finally {
      pending = null;
    }
    commit();
  };

  /** Starts a signing ceremony as a child; the applicant reaches it from the wizard (no token crosses history). */
  const startCeremony = async (purpose: 'dichiarazioni' | 'travel_rule', actor: MachineActor) => {
    const doc = await acts.prepareOnboardingSigning({ ...step(actor), purpose });
    const create = { actor, data: { signer: doc.signer, document: doc.document, consent: doc.consent, tokenHash: doc.tokenHash, parentWorkflowId: wfId } };
    const expiresAt = new Date(Date.now() + CEREMONY_TTL_MS).toISOString();
    const childId = esignWorkflowId(input.codAzienda, doc.ceremonyId);
    // The ceremony's row is written before the update returns, so the signing link the
    // applicant is sent to answers at once; the child's own (idempotent) create is then a no-op.
    await esignActs.createEsignProjection({ codAzienda: input.codAzienda, ceremonyId: doc.ceremonyId, workflowId: childId, actor, data: create.data, expiresAt });
    const childInput: EsignWorkflowInput = { codAzienda: input.codAzienda, ceremonyId: doc.ceremonyId, parentWorkflowId: wfId, expiresAt, create };
    const child: ChildWorkflowHandle<(i: EsignWorkflowInput) => Promise<{ status: string }>> = await startChild('esignCeremonyWorkflow', {
      workflowId: childId, args: [childInput],
      // The ceremony is its own record: it outlives the case's workflow if that ends first.
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    if (!projectionFirst) {
      // Runs from before the patch watch the child's result (a new run could not: the ceremony signals instead).
      void child.result().then((r) => { if (r.status !== 'signed') endedInMemory(doc.ceremonyId); }, () => undefined);
    }
    return doc.ceremonyId;
  };
  /** A ceremony that ends unsigned (24 h, 3 wrong codes, cancelled) frees the way to a new one. */
  const endedInMemory = (ceremonyId: string) => {
    if (state.declarations?.ceremonyId === ceremonyId) state.declarations.status = 'ended';
    if (state.travelRule.ceremonyId === ceremonyId && state.travelRule.status === 'signing') state.travelRule = { status: 'none', ceremonyId: null };
  };

  setHandler(onboardingStateQuery, () => state);

  setHandler(createOnboardingUpdate, (args) => serial(() => guarded('create', async () => {
    if (state.created) return state;
    await projections.createOnboardingProjection({ ...step(args.actor), data: args.data, workflowId: wfId });
    state.created = true;
    state.subjectType = args.data.subjectType ?? null;
    publishStatus();
    return state;
  })));

  const applyEdit = async (edit: OnboardingEdit, actor: MachineActor): Promise<string | null> => {
    switch (edit.kind) {
      case 'travel-rule-sign': {
        if (state.travelRule.status === 'signing' || state.travelRule.status === 'signed' || state.travelRule.status === 'completed') {
          throw fail(ONBOARDING_FAILURES.conflict, 'the travel-rule declaration is already being signed: reset it first', { travel_rule: state.travelRule.status });
        }
        await projections.applyOnboardingEdit({ ...step(actor), edit });
        let ceremonyId: string;
        try {
          ceremonyId = await startCeremony('travel_rule', actor);
        } catch (err) {
          // The row says "being signed" but no ceremony started: it goes back to none, as the state stays.
          if (projectionFirst) await projections.applyOnboardingEdit({ ...step(actor), edit: { kind: 'travel-rule-reset' } }).catch(() => undefined);
          throw err;
        }
        state.travelRule = { status: 'signing', ceremonyId };
        return ceremonyId;
      }
      case 'travel-rule-complete': {
        if (state.travelRule.status === 'completed') return state.travelRule.ceremonyId;
        if (state.travelRule.status !== 'signed') {
          throw fail(ONBOARDING_FAILURES.signaturePending, 'the travel-rule declaration has not been signed yet', { travel_rule: state.travelRule.status, ceremony_id: state.travelRule.ceremonyId });
        }
        await projections.applyOnboardingEdit({ ...step(actor), edit });
        state.travelRule.status = 'completed';
        return state.travelRule.ceremonyId;
      }
      case 'travel-rule-reset':
        await projections.applyOnboardingEdit({ ...step(actor), edit });
        state.travelRule = { status: 'none', ceremonyId: null };
        return null;
      case 'wallet-add': {
        // The signed declaration lists the wallets it covers: a later wallet needs it reset and signed again.
        if (state.travelRule.status !== 'none') {
          throw fail(ONBOARDING_FAILURES.conflict, 'the travel-rule declaration is signed or being signed: reset it before adding a wallet', { travel_rule: state.travelRule.status });
        }
        const r = await projections.applyOnboardingEdit({ ...step(actor), edit });
        if (r.wallet) state.wallets.push(r.wallet);
        return null;
      }
      default: {
        await projections.applyOnboardingEdit({ ...step(actor), edit });
        if (edit.kind === 'section' && edit.section === 'subject_type') state.subjectType = (edit.data as { subject_type?: typeof state.subjectType }).subject_type ?? null;
        return null;
      }
    }
  };

  setHandler(editOnboardingUpdate, (args) => serial(() => guarded('edit', async () => {
    const c = check('edit', args.actor);
    if (!c.ok) throw transitionFailure(c);
    const ceremonyId = await applyEdit(args.edit, args.actor);
    state.lastEditAt = new Date().toISOString();
    return { state, ceremonyId };
  })), {
    validator: (args) => {
      if (!state.created) throw fail(ONBOARDING_FAILURES.notFound, 'case not created yet');
      const c = admissible('edit', args.actor);
      if (!c.ok) throw transitionFailure(c);
    },
  });

  const submit = async (actor: MachineActor) => {
    const v = await acts.validateOnboarding(step(actor));
    if (!v.ok) throw fail(ONBOARDING_FAILURES.validation, 'the application is incomplete', { issues: v.issues });
    await acts.screenOnboardingSubjects(step(actor));
    await acts.screenOnboardingWallets(step(actor));
    const risk = await acts.scoreOnboardingRisk(step(actor));
    const submissions = state.submissions + 1;
    await moveTo('submit', 'submitted', actor, { risk_score: risk.score, risk_classe: risk.classe, submission: submissions }, {
      risk: { score: risk.score, classe: risk.classe }, secondApprovalRequired: risk.secondApprovalRequired,
      submittedAt: new Date().toISOString(), submissions, approvedBy: null,
    });
    state.declarations = { ceremonyId: await startCeremony('dichiarazioni', actor), status: 'active' };
  };

  const completeSubmission = async (actor: MachineActor) => {
    const d = state.declarations;
    if (d?.status === 'signed') {
      await moveTo('complete-submission', 'in_review', actor, { ceremony_id: d.ceremonyId });
      await acts.notifyOnboardingReviewers({ ...step(actor), event: 'in_review' });
      return;
    }
    if (!d || d.status === 'ended') {
      // The last ceremony expired or locked: the applicant gets a fresh one.
      state.declarations = { ceremonyId: await startCeremony('dichiarazioni', actor), status: 'active' };
      return;
    }
    throw fail(ONBOARDING_FAILURES.signaturePending, 'the declarations have not been signed yet', { ceremony_id: d.ceremonyId });
  };

  const walletAction = async (args: OnboardingTransitionArgs) => {
    const id = args.input?.wallet_id;
    const w = state.wallets.find((x) => x.id === id);
    if (!w) throw fail(ONBOARDING_FAILURES.notFound, `wallet ${id} not found`);
    const action = args.action === 'wallet-verify' ? 'verify' : 'revoke';
    const c = checkTransition(walletMachine, { state: w.status, action, actor: args.actor, input: { ...args.input } });
    if (!c.ok) throw transitionFailure(c);
    if (action === 'verify' && w.selfHosted && (w.volumeEur ?? 0) > 1000) {
      const proven = w.proof === 'firma_verificata' || w.proof === 'firma_non_verificata'
        || (w.proof === 'dichiarazione' && state.travelRule.status === 'completed');
      if (!proven) throw fail(ONBOARDING_FAILURES.proofRequired, 'a self-hosted wallet over EUR 1000 needs proof of control before it can be verified', { wallet_id: w.id });
    }
    await projections.recordWalletTransition({ ...step(args.actor), walletId: w.id, action, from: w.status, to: c.to, reason: args.input?.reason ?? null });
    w.status = c.to;
  };

  const approve = async (args: OnboardingTransitionArgs) => {
    const pendingWallets = state.wallets.filter((w) => w.status === 'pending').map((w) => w.id);
    if (pendingWallets.length) throw fail(ONBOARDING_FAILURES.walletsPending, 'every wallet must be verified or revoked before approval', { wallet_ids: pendingWallets });
    if (args.action === 'approve' && state.secondApprovalRequired) {
      await moveTo('approve', 'pending_second_approval', args.actor, { note: args.input?.note ?? null, first_approver: args.actor.username }, { approvedBy: args.actor.id });
      await acts.notifyOnboardingReviewers({ ...step(args.actor), event: 'pending_second_approval' });
      return;
    }
    const firstApprover = args.action === 'approve' ? args.actor.id : state.approvedBy;
    const made = await acts.materialiseOnboardingCustomer({ ...step(args.actor), firstApprover });
    await moveTo(args.action, 'approved', args.actor, { note: args.input?.note ?? null, cod_anagrafe: made.codAnagrafe }, { approvedBy: firstApprover, codAnagrafe: made.codAnagrafe });
    const review: CddReviewInput = { codAzienda: input.codAzienda, codAnagrafe: made.codAnagrafe, reviewId: made.reviewId, dueAt: made.reviewDueAt };
    await startChild('cddReviewWorkflow', {
      workflowId: cddReviewWorkflowId(input.codAzienda, made.reviewId), args: [review], parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    // Added after the first recorded histories: cases decided before it replay without the message.
    if (patched(APPLICANT_OUTCOME_PATCH)) await acts.sendOnboardingOutcome({ ...step(args.actor), outcome: 'approved' });
    // The verification's row was written with the customer (materialise); its validity timer starts here, outliving the case.
    if (patched(OPEN_VERIFICATION_PATCH) && made.verifica) {
      await startChild(VERIFICATION_WORKFLOW_TYPE, { workflowId: made.verifica.workflowId, args: [made.verifica.input], parentClosePolicy: ParentClosePolicy.ABANDON });
    }
  };

  const requestInfo = async (args: OnboardingTransitionArgs) => {
    const asked = () => { const at = new Date().toISOString(); return { infoRequestedAt: at, reminderSent: false, lastEditAt: at }; };
    if (projectionFirst) {
      await moveTo('request-info', 'info_requested', args.actor, { message: args.input?.message }, asked());
    } else {
      // Before the patch these followed the move: the timers read them, so the order stays for those runs.
      await moveTo('request-info', 'info_requested', args.actor, { message: args.input?.message });
      Object.assign(state, asked());
    }
    await acts.sendOnboardingLink({ ...step(args.actor), purpose: 'info_request' });
  };

  setHandler(onboardingTransitionUpdate, (args) => serial(() => guarded(args.action, async () => {
    const c = check(args.action, args.actor, { ...args.input });
    if (!c.ok) throw transitionFailure(c);
    switch (args.action) {
      case 'submit': await submit(args.actor); break;
      case 'complete-submission': await completeSubmission(args.actor); break;
      case 'approve': case 'complete-approval': await approve(args); break;
      case 'wallet-verify': case 'wallet-revoke': await walletAction(args); break;
      case 'request-info': await requestInfo(args); break;
      case 'reject':
        await moveTo('reject', 'rejected', args.actor, { reason: args.input?.reason });
        if (patched(APPLICANT_OUTCOME_PATCH)) await acts.sendOnboardingOutcome({ ...step(args.actor), outcome: 'rejected' });
        break;
      case 'erase':
        await acts.eraseOnboardingCase(step(args.actor));
        state.status = 'erased';
        state.transitions++;
        publishStatus();
        break;
    }
    return state;
  })), {
    validator: (args) => {
      if (!state.created) throw fail(ONBOARDING_FAILURES.notFound, 'case not created yet');
      const c = admissible(args.action, args.actor, { ...args.input });
      if (!c.ok) throw transitionFailure(c);
    },
  });

  /**
   * A ceremony of the case ended (signed, or unsigned). Its outcome is written on the case's
   * row first, then the state follows; a signature of the declarations completes the
   * submission. A ceremony replaced since, or a repeated signal, changes nothing.
   */
  const ceremonyOutcome = (ceremonyId: string, outcome: Exclude<CeremonyRef['status'], 'active'>) => serial(async () => {
    const declarations = state.declarations?.ceremonyId === ceremonyId && state.declarations.status === 'active';
    const travelRule = state.travelRule.ceremonyId === ceremonyId && state.travelRule.status === 'signing';
    if (!declarations && !travelRule) return;
    await acts.recordOnboardingCeremony({ ...step(SYSTEM), ceremonyId, purpose: declarations ? 'dichiarazioni' : 'travel_rule', outcome });
    if (declarations) state.declarations = { ceremonyId, status: outcome };
    else state.travelRule = outcome === 'signed' ? { status: 'signed', ceremonyId } : { status: 'none', ceremonyId: null };
    if (declarations && outcome === 'signed' && state.status === 'submitted') await completeSubmission(SYSTEM);
  }).catch((err: unknown) => log.warn('ceremony outcome not applied', { ceremonyId, outcome, error: String(err) }));

  /** Runs from before the patch keep their in-memory handling, and write the outcome on the row for the pages. */
  const legacyRow = (ceremonyId: string, outcome: 'signed' | 'ended') => {
    const purpose = state.declarations?.ceremonyId === ceremonyId ? 'dichiarazioni' : state.travelRule.ceremonyId === ceremonyId ? 'travel_rule' : null;
    if (!purpose || !patched(CEREMONY_ROW_PATCH)) return;
    void serial(() => acts.recordOnboardingCeremony({ ...step(SYSTEM), ceremonyId, purpose, outcome })).catch(() => undefined);
  };

  setHandler(esignCompletedSignal, (s) => {
    if (projectionFirst) return ceremonyOutcome(s.ceremonyId, 'signed');
    legacyRow(s.ceremonyId, 'signed');
    if (state.travelRule.ceremonyId === s.ceremonyId && state.travelRule.status === 'signing') state.travelRule.status = 'signed';
    if (state.declarations?.ceremonyId === s.ceremonyId) {
      state.declarations.status = 'signed';
      // The signature completes the submission (serialised with the updates).
      void serial(async () => { if (state.status === 'submitted') await completeSubmission(SYSTEM); }).catch(() => undefined);
    }
    return undefined;
  });
  setHandler(esignEndedSignal, (s) => {
    if (projectionFirst) return ceremonyOutcome(s.ceremonyId, 'ended');
    legacyRow(s.ceremonyId, 'ended');
    endedInMemory(s.ceremonyId);
    return undefined;
  });

  const mustContinue = () => projectionFirst && workflowInfo().continueAsNewSuggested;
  await onboardingTimers(input.settings, state, serial, {
    expire: (extra) => moveTo('expire', 'expired', SYSTEM, extra),
    purge: () => acts.purgeExpiredDraft(step(SYSTEM)),
    remind: () => acts.sendOnboardingLink({ ...step(SYSTEM), purpose: 'reminder' }),
  }, mustContinue);
  // In-flight updates and signals finish (and answer their callers) before the run completes or continues.
  await condition(allHandlersFinished);
  if (!isFinal(onboardingMachine, state.status) && mustContinue()) await continueAsNew<typeof onboardingCaseWorkflow>({ ...input, state });
  return state;
}
