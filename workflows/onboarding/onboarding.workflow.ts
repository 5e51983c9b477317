import {
  allHandlersFinished, ApplicationFailure, ParentClosePolicy, condition, patched, proxyActivities, setHandler, startChild, upsertSearchAttributes, uuid4,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { createOnboardingActivities } from '../../activities/onboarding/onboarding.activities';
import { cddReviewWorkflowId, type CddReviewInput } from '../cdd/cdd-review.contract';
import { CEREMONY_TTL_MS, esignCompletedSignal, esignWorkflowId, type EsignActivities, type EsignWorkflowInput } from '../esign/esign.contract';
import { checkTransition, isFinal, type MachineActor } from '../lib/machine';
import { CodAzienda, RecordId, RecordStatus, RecordType } from '../lib/search-attributes';
import { createSerialQueue } from '../lib/serial';
import { addDays } from '../lib/sla';
import { transitionFailure } from '../lib/transition-failure';
import {
  createOnboardingUpdate, editOnboardingUpdate, ONBOARDING_FAILURES, ONBOARDING_RECORD_TYPE, onboardingStateQuery, onboardingTransitionUpdate,
  onboardingWorkflowId, type OnboardingEdit, type OnboardingTransitionArgs, type OnboardingWorkflowInput, type OnboardingWorkflowState,
} from './onboarding.contract';
import { EDITABLE_STATES, ONBOARDING_SYSTEM_ROLE, onboardingMachine, walletMachine, type OnboardingStatus } from './onboarding.machine';

const acts = proxyActivities<ReturnType<typeof createOnboardingActivities>>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [ONBOARDING_FAILURES.notFound, ONBOARDING_FAILURES.conflict] },
});

const esignActs = proxyActivities<EsignActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Versioning marker: the applicant is told the decision (see docs/architecture.md, Versioning). */
const APPLICANT_OUTCOME_PATCH = 'applicant-outcome-message';

const SYSTEM: MachineActor = { id: 'system', username: 'system', roles: [ONBOARDING_SYSTEM_ROLE] };
const fail = (type: string, message: string, details?: unknown) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, details: details === undefined ? [] : [details] });

/**
 * One durable workflow per onboarding case. The applicant's edits and the reviewers'
 * decisions arrive as updates, checked by the machine in the validator; activities
 * write the rows with their audit events. Submission runs validation, screening and the
 * risk score as activities, then starts the declarations signing ceremony as a child:
 * its signature completes the submission. Timers: idle draft expiry, and the reminder
 * and expiry of an information request.
 */
export async function onboardingCaseWorkflow(input: OnboardingWorkflowInput): Promise<OnboardingWorkflowState> {
  const state: OnboardingWorkflowState = {
    status: onboardingMachine.initial, created: false, subjectType: null, lastEditAt: new Date().toISOString(), submittedAt: null, submissions: 0,
    approvedBy: null, secondApprovalRequired: false, risk: null, declarations: null, travelRule: { status: 'none', ceremonyId: null },
    wallets: [], infoRequestedAt: null, reminderSent: false, codAnagrafe: null, transitions: 0,
  };
  const serial = createSerialQueue();
  const wfId = onboardingWorkflowId(input.codAzienda, input.caseId);
  const step = (actor: MachineActor) => ({ codAzienda: input.codAzienda, caseId: input.caseId, transitionId: uuid4(), actor });
  const record = () => ({ approved_by: state.approvedBy });
  const check = (action: string, actor: MachineActor, args: Record<string, unknown> = {}) =>
    checkTransition(onboardingMachine, { state: state.status, action, actor, record: record(), input: args });

  const publishStatus = () => upsertSearchAttributes([
    { key: CodAzienda, value: input.codAzienda },
    { key: RecordType, value: ONBOARDING_RECORD_TYPE },
    { key: RecordId, value: input.caseId },
    { key: RecordStatus, value: state.status },
  ]);
  // The state moves before its projection is written: an update that arrives meanwhile is
  // validated against the new state and, being serialised, runs after the row is written.
  // (The other order lets a caller who already sees the new row get a stale 409.)
  const moveTo = async (action: string, to: OnboardingStatus, actor: MachineActor, extra: Record<string, unknown> = {}) => {
    const from = state.status;
    state.status = to;
    state.transitions++;
    publishStatus();
    await acts.recordOnboardingTransition({ ...step(actor), action, from, to, extra });
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
    // A ceremony that ends unsigned (24 h, or 3 wrong codes) frees the way to a new one.
    void child.result().then((r) => {
      if (r.status === 'signed') return;
      if (state.declarations?.ceremonyId === doc.ceremonyId) state.declarations.status = 'ended';
      if (state.travelRule.ceremonyId === doc.ceremonyId && state.travelRule.status === 'signing') state.travelRule = { status: 'none', ceremonyId: null };
    }, () => undefined);
    return doc.ceremonyId;
  };

  setHandler(onboardingStateQuery, () => state);

  setHandler(createOnboardingUpdate, (args) => serial(async () => {
    if (state.created) return state;
    await acts.createOnboardingProjection({ ...step(args.actor), data: args.data, workflowId: wfId });
    state.created = true;
    state.subjectType = args.data.subjectType ?? null;
    publishStatus();
    return state;
  }));

  const applyEdit = async (edit: OnboardingEdit, actor: MachineActor): Promise<string | null> => {
    switch (edit.kind) {
      case 'travel-rule-sign': {
        if (state.travelRule.status === 'signing' || state.travelRule.status === 'signed' || state.travelRule.status === 'completed') {
          throw fail(ONBOARDING_FAILURES.conflict, 'the travel-rule declaration is already being signed: reset it first', { travel_rule: state.travelRule.status });
        }
        await acts.applyOnboardingEdit({ ...step(actor), edit });
        const ceremonyId = await startCeremony('travel_rule', actor);
        state.travelRule = { status: 'signing', ceremonyId };
        return ceremonyId;
      }
      case 'travel-rule-complete': {
        if (state.travelRule.status === 'completed') return state.travelRule.ceremonyId;
        if (state.travelRule.status !== 'signed') {
          throw fail(ONBOARDING_FAILURES.signaturePending, 'the travel-rule declaration has not been signed yet', { travel_rule: state.travelRule.status, ceremony_id: state.travelRule.ceremonyId });
        }
        await acts.applyOnboardingEdit({ ...step(actor), edit });
        state.travelRule.status = 'completed';
        return state.travelRule.ceremonyId;
      }
      case 'travel-rule-reset':
        await acts.applyOnboardingEdit({ ...step(actor), edit });
        state.travelRule = { status: 'none', ceremonyId: null };
        return null;
      case 'wallet-add': {
        // The signed declaration lists the wallets it covers: a later wallet needs it reset and signed again.
        if (state.travelRule.status !== 'none') {
          throw fail(ONBOARDING_FAILURES.conflict, 'the travel-rule declaration is signed or being signed: reset it before adding a wallet', { travel_rule: state.travelRule.status });
        }
        const r = await acts.applyOnboardingEdit({ ...step(actor), edit });
        if (r.wallet) state.wallets.push(r.wallet);
        return null;
      }
      default: {
        await acts.applyOnboardingEdit({ ...step(actor), edit });
        if (edit.kind === 'section' && edit.section === 'subject_type') state.subjectType = (edit.data as { subject_type?: typeof state.subjectType }).subject_type ?? null;
        return null;
      }
    }
  };

  setHandler(editOnboardingUpdate, (args) => serial(async () => {
    const c = check('edit', args.actor);
    if (!c.ok) throw transitionFailure(c);
    const ceremonyId = await applyEdit(args.edit, args.actor);
    state.lastEditAt = new Date().toISOString();
    return { state, ceremonyId };
  }), {
    validator: (args) => {
      if (!state.created) throw fail(ONBOARDING_FAILURES.notFound, 'case not created yet');
      const c = check('edit', args.actor);
      if (!c.ok) throw transitionFailure(c);
    },
  });

  const submit = async (actor: MachineActor) => {
    const v = await acts.validateOnboarding(step(actor));
    if (!v.ok) throw fail(ONBOARDING_FAILURES.validation, 'the application is incomplete', { issues: v.issues });
    await acts.screenOnboardingSubjects(step(actor));
    await acts.screenOnboardingWallets(step(actor));
    const risk = await acts.scoreOnboardingRisk(step(actor));
    state.risk = { score: risk.score, classe: risk.classe };
    state.secondApprovalRequired = risk.secondApprovalRequired;
    state.submittedAt = new Date().toISOString();
    state.submissions++;
    state.approvedBy = null;
    await moveTo('submit', 'submitted', actor, { risk_score: risk.score, risk_classe: risk.classe, submission: state.submissions });
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
    await acts.recordWalletTransition({ ...step(args.actor), walletId: w.id, action, from: w.status, to: c.to, reason: args.input?.reason ?? null });
    w.status = c.to;
  };

  const approve = async (args: OnboardingTransitionArgs) => {
    const pending = state.wallets.filter((w) => w.status === 'pending').map((w) => w.id);
    if (pending.length) throw fail(ONBOARDING_FAILURES.walletsPending, 'every wallet must be verified or revoked before approval', { wallet_ids: pending });
    if (args.action === 'approve' && state.secondApprovalRequired) {
      state.approvedBy = args.actor.id;
      await moveTo('approve', 'pending_second_approval', args.actor, { note: args.input?.note ?? null, first_approver: args.actor.username });
      await acts.notifyOnboardingReviewers({ ...step(args.actor), event: 'pending_second_approval' });
      return;
    }
    if (args.action === 'approve') state.approvedBy = args.actor.id;
    const made = await acts.materialiseOnboardingCustomer({ ...step(args.actor), firstApprover: state.approvedBy });
    state.codAnagrafe = made.codAnagrafe;
    await moveTo(args.action, 'approved', args.actor, { note: args.input?.note ?? null, cod_anagrafe: made.codAnagrafe });
    const review: CddReviewInput = { codAzienda: input.codAzienda, codAnagrafe: made.codAnagrafe, reviewId: made.reviewId, dueAt: made.reviewDueAt };
    await startChild('cddReviewWorkflow', {
      workflowId: cddReviewWorkflowId(input.codAzienda, made.reviewId), args: [review], parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    // Added after the first recorded histories: cases decided before it replay without the message.
    if (patched(APPLICANT_OUTCOME_PATCH)) await acts.sendOnboardingOutcome({ ...step(args.actor), outcome: 'approved' });
  };

  setHandler(onboardingTransitionUpdate, (args) => serial(async () => {
    const c = check(args.action, args.actor, { ...args.input });
    if (!c.ok) throw transitionFailure(c);
    switch (args.action) {
      case 'submit': await submit(args.actor); break;
      case 'complete-submission': await completeSubmission(args.actor); break;
      case 'approve': case 'complete-approval': await approve(args); break;
      case 'wallet-verify': case 'wallet-revoke': await walletAction(args); break;
      case 'request-info':
        await moveTo('request-info', 'info_requested', args.actor, { message: args.input?.message });
        state.infoRequestedAt = new Date().toISOString();
        state.reminderSent = false;
        state.lastEditAt = state.infoRequestedAt;
        await acts.sendOnboardingLink({ ...step(args.actor), purpose: 'info_request' });
        break;
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
  }), {
    validator: (args) => {
      if (!state.created) throw fail(ONBOARDING_FAILURES.notFound, 'case not created yet');
      const c = check(args.action, args.actor, { ...args.input });
      if (!c.ok) throw transitionFailure(c);
    },
  });

  setHandler(esignCompletedSignal, (s) => {
    if (state.travelRule.ceremonyId === s.ceremonyId && state.travelRule.status === 'signing') state.travelRule.status = 'signed';
    if (state.declarations?.ceremonyId === s.ceremonyId) {
      state.declarations.status = 'signed';
      // The signature completes the submission (serialised with the updates).
      void serial(async () => { if (state.status === 'submitted') await completeSubmission(SYSTEM); }).catch(() => undefined);
    }
  });

  await timers(input, state, serial, {
    expire: (extra) => moveTo('expire', 'expired', SYSTEM, extra),
    purge: () => acts.purgeExpiredDraft(step(SYSTEM)),
    remind: () => acts.sendOnboardingLink({ ...step(SYSTEM), purpose: 'reminder' }),
  });
  await condition(allHandlersFinished);
  return state;
}

/**
 * The process timers. Each waits on an absolute due date derived from the state, and
 * starts over whenever the applicant edits or the status moves.
 */
async function timers(
  input: OnboardingWorkflowInput, state: OnboardingWorkflowState, serial: ReturnType<typeof createSerialQueue>,
  on: { expire: (extra: Record<string, unknown>) => Promise<void>; purge: () => Promise<void>; remind: () => Promise<void> },
) {
  const s = input.settings;
  while (!isFinal(onboardingMachine, state.status)) {
    const seen = { status: state.status, edit: state.lastEditAt, transitions: state.transitions };
    const changed = () => state.status !== seen.status || state.lastEditAt !== seen.edit || state.transitions !== seen.transitions;
    let due: Date | null = null;
    let onDue: (() => Promise<void>) | null = null;
    if (state.status === 'draft') {
      due = addDays(new Date(state.lastEditAt), s.draftIdleDays);
      // Never submitted: nothing obliges keeping what was typed, so it goes with the expiry.
      onDue = async () => { await on.expire({ reason: 'draft_idle', days: s.draftIdleDays }); await on.purge(); };
    } else if (state.status === 'info_requested' && state.infoRequestedAt) {
      const asked = new Date(state.infoRequestedAt);
      if (!state.reminderSent) {
        due = addDays(asked, s.infoReminderDays);
        onDue = async () => { await on.remind(); state.reminderSent = true; };
      } else {
        due = addDays(asked, s.infoExpiryDays);
        // Submitted once: the data are CDD records under the AML retention, and stay.
        onDue = () => on.expire({ reason: 'info_request_unanswered', days: s.infoExpiryDays });
      }
    }
    if (!due || !onDue) {
      await condition(changed);
      continue;
    }
    const remaining = due.getTime() - Date.now();
    if (remaining > 0 && (await condition(changed, remaining))) continue;
    const fire = onDue;
    // Serialised with the updates: an edit or submit already in flight wins over the timer.
    await serial(async () => { if (!changed() && EDITABLE_STATES.includes(state.status)) await fire(); });
  }
}
