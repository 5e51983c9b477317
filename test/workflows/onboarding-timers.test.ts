import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { Worker } from '@temporalio/worker';
import { cddReviewWorkflowId } from '../../workflows/cdd/cdd-review.contract';
import { esignStateQuery, esignTransitionUpdate, esignWorkflowId } from '../../workflows/esign/esign.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import {
  createOnboardingUpdate, editOnboardingUpdate, ONBOARDING_WORKFLOW_TYPE, onboardingStateQuery, onboardingTransitionUpdate, onboardingWorkflowId,
  type OnboardingTransitionArgs, type OnboardingWorkflowInput, type OnboardingWorkflowState, type RiskResult,
} from '../../workflows/onboarding/onboarding.contract';
import { fakeOnboardingActivities, LOW_RISK } from './fixtures/onboarding-fake-activities';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AZ = 'ON1';
const settings = { draftIdleDays: 30, infoReminderDays: 7, infoExpiryDays: 30 };
const signer = { id: 'signer:x', username: 'firmatario', roles: ['signer'] };
const client = { ip: '203.0.113.1', userAgent: 'test' };
const coA: MachineActor = { id: 'u-co-a', username: 'co_a', roles: ['co'] };
const coB: MachineActor = { id: 'u-co-b', username: 'co_b', roles: ['co'] };
const analyst: MachineActor = { id: 'u-an', username: 'analista', roles: ['analyst'] };

async function rejection(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected an update failure, got ${err}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  }
  assert.fail('expected the update to be rejected');
}

/**
 * The onboarding case's timers and its child workflows on Temporal's time-skipping
 * server, with the production day counts: draft idle expiry, the reminder and expiry of
 * an information request, the declarations ceremony completing the submission, and the
 * four-eyes approval that starts the periodic review. Activities are recorders
 * (fixtures/onboarding-fake-activities.ts).
 */
describe('onboarding workflow timers and approval (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestWorkflowEnvironment;
  let risk: RiskResult;
  const { calls, activities } = fakeOnboardingActivities({ now: async () => Number(await env.currentTimeMs()), risk: () => risk });
  const lowRisk = LOW_RISK;
  const workflowsPath = join(import.meta.dirname, 'fixtures', 'onboarding.workflows.ts');
  const of = (caseId: string) => calls.transitions.filter((t) => t.caseId === caseId).map((t) => `${t.action}:${t.to}`);

  before(async () => { env = await startTimeSkippingEnv(); });
  beforeEach(() => { risk = lowRisk; });
  after(async () => { await env?.teardown(); });

  async function startCase(taskQueue: string) {
    const caseId = randomUUID();
    const customer: MachineActor = { id: `cliente:${caseId}`, username: 'cliente', roles: ['cliente'] };
    const input: OnboardingWorkflowInput = { codAzienda: AZ, caseId, settings };
    const op = new WithStartWorkflowOperation(ONBOARDING_WORKFLOW_TYPE, {
      workflowId: onboardingWorkflowId(AZ, caseId), taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await env.client.workflow.executeUpdateWithStart(createOnboardingUpdate, {
      args: [{ actor: customer, data: { email: 'a@example.test', canale: 'online', subjectType: 'societa' } }], startWorkflowOperation: op,
    });
    const h = await op.workflowHandle();
    const edit = (data: unknown = { denominazione: 'Alfa' }) =>
      h.executeUpdate(editOnboardingUpdate, { args: [{ actor: customer, edit: { kind: 'section', section: 'anagrafe', data } }] });
    const act = (action: OnboardingTransitionArgs['action'], actor: MachineActor = customer, input?: OnboardingTransitionArgs['input']) =>
      h.executeUpdate(onboardingTransitionUpdate, { args: [{ action, actor, input }] });
    const status = async () => (await h.query(onboardingStateQuery)).status;
    return { caseId, h, customer, edit, act, status };
  }

  /** Signs a child ceremony as the applicant would: terms, present, the right code. */
  async function signCeremony(ceremonyId: string) {
    const c = env.client.workflow.getHandle(esignWorkflowId(AZ, ceremonyId));
    for (let i = 0; i < 100 && !(await c.query(esignStateQuery).catch(() => null))?.created; i++) await new Promise((r) => setTimeout(r, 50));
    for (const action of ['terms', 'present'] as const) await c.executeUpdate(esignTransitionUpdate, { args: [{ action, actor: signer, client }] });
    const s = await c.executeUpdate(esignTransitionUpdate, { args: [{ action: 'sign', actor: signer, client, otp: '123456' }] });
    assert.equal(s.status, 'signed');
  }

  /** Submits and signs the declarations: the signature's signal moves the case to review. */
  async function submitAndSign(c: Awaited<ReturnType<typeof startCase>>) {
    const submitted = await c.act('submit');
    assert.equal(submitted.status, 'submitted');
    assert.equal(submitted.declarations?.status, 'active');
    // Completing before the signature is refused.
    assert.equal((await rejection(c.act('complete-submission'))).type, 'SIGNATURE_PENDING');
    await signCeremony(submitted.declarations!.ceremonyId);
    for (let i = 0; i < 100 && (await c.status()) !== 'in_review'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await c.status(), 'in_review');
    assert.deepEqual(calls.notified.filter((n) => n.caseId === c.caseId).map((n) => n.event), ['in_review']);
  }

  it('expires a draft after 30 idle days, counted from the last edit', async () => {
    const taskQueue = 'onb-draft';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      await env.sleep(20 * DAY);
      assert.equal(await c.status(), 'draft');
      await c.edit();
      await env.sleep(11 * DAY);
      // Day 31: without the edit it would have expired.
      assert.equal(await c.status(), 'draft');
      await env.sleep(18 * DAY);
      assert.equal(await c.status(), 'draft', 'day 49: 29 days after the edit');
      assert.deepEqual(of(c.caseId), []);
      await env.sleep(2 * DAY);
      const result = await c.h.result();
      assert.equal(result.status, 'expired');
      assert.deepEqual(calls.transitions.filter((t) => t.caseId === c.caseId), [
        { caseId: c.caseId, action: 'expire', from: 'draft', to: 'expired', extra: { reason: 'draft_idle', days: 30 } },
      ]);
      assert.deepEqual(calls.purged.filter((id) => id === c.caseId), [c.caseId], 'a never-submitted draft is purged when it expires');
    });
  });

  it('a run that continued as new keeps the due dates of the one before (draft expiry, reminder, info-request expiry)', async () => {
    const taskQueue = 'onb-continued';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const now = Number(await env.currentTimeMs());
      const iso = (ms: number) => new Date(ms).toISOString();
      // Polled, never awaited as results: awaiting result() here left the next test's time skipping crawling.
      const until = async (ok: () => Promise<boolean>) => { for (let i = 0; i < 100 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 50)); };
      // Started the way continue-as-new starts the next run: the input carries the state.
      const continued = async (over: Partial<OnboardingWorkflowState>) => {
        const caseId = randomUUID();
        const state: OnboardingWorkflowState = {
          status: 'draft', created: true, subjectType: 'societa', lastEditAt: iso(now), submittedAt: null, submissions: 0, approvedBy: null,
          secondApprovalRequired: false, risk: null, declarations: null, travelRule: { status: 'none', ceremonyId: null }, wallets: [],
          infoRequestedAt: null, reminderSent: false, codAnagrafe: null, transitions: 0, ...over,
        };
        const h = await env.client.workflow.start(ONBOARDING_WORKFLOW_TYPE, {
          workflowId: onboardingWorkflowId(AZ, caseId), taskQueue, args: [{ codAzienda: AZ, caseId, settings, state } satisfies OnboardingWorkflowInput],
        });
        return { caseId, h, status: async () => (await h.query(onboardingStateQuery)).status };
      };
      const asked = { status: 'info_requested' as const, submissions: 1, submittedAt: iso(now - 40 * DAY), transitions: 3 };
      // Last edited 25 days before: it expires 5 days into the new run, not 30.
      const draft = await continued({ lastEditAt: iso(now - 25 * DAY) });
      // Information asked 6 days before: the reminder is due in a day; asked 29 days before and reminded: the expiry is.
      const toRemind = await continued({ ...asked, infoRequestedAt: iso(now - 6 * DAY), lastEditAt: iso(now - 6 * DAY) });
      const toExpire = await continued({ ...asked, infoRequestedAt: iso(now - 29 * DAY), lastEditAt: iso(now - 29 * DAY), reminderSent: true });
      const links = (id: string) => calls.links.filter((l) => l.caseId === id).map((l) => l.purpose);

      await env.sleep(23 * HOUR);
      assert.deepEqual([links(toRemind.caseId), of(toExpire.caseId), of(draft.caseId)], [[], [], []], 'nothing before its date');
      await env.sleep(2 * HOUR);
      await until(async () => links(toRemind.caseId).length > 0 && (await toExpire.status()) === 'expired');
      assert.deepEqual(links(toRemind.caseId), ['reminder']);
      assert.equal(await toExpire.status(), 'expired');
      assert.deepEqual(calls.transitions.find((t) => t.caseId === toExpire.caseId)?.extra, { reason: 'info_request_unanswered', days: 30 });
      assert.equal(await draft.status(), 'draft');
      await env.sleep(3 * DAY + 20 * HOUR);
      assert.equal(await draft.status(), 'draft', '4 days 21 hours into the run');
      await env.sleep(4 * HOUR);
      await until(async () => calls.purged.includes(draft.caseId));
      assert.equal(await draft.status(), 'expired');
      assert.deepEqual(calls.purged.filter((id) => id === draft.caseId), [draft.caseId]);
      assert.equal(await toRemind.status(), 'info_requested');
      await toRemind.h.terminate('test done');
    });
  });

  it('reminds the applicant 7 days after an information request and expires the case at day 30', async () => {
    const taskQueue = 'onb-info';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      await submitAndSign(c);
      const asked = await c.act('request-info', analyst, { message: 'Manca la visura aggiornata' });
      assert.equal(asked.status, 'info_requested');
      const links = () => calls.links.filter((l) => l.caseId === c.caseId).map((l) => l.purpose);
      assert.deepEqual(links(), ['info_request']);
      await env.sleep(6 * DAY + 20 * HOUR);
      assert.deepEqual(links(), ['info_request'], 'no reminder before day 7');
      await env.sleep(8 * HOUR);
      assert.deepEqual(links(), ['info_request', 'reminder']);
      assert.equal(await c.status(), 'info_requested');
      await env.sleep(22 * DAY);
      assert.equal(await c.status(), 'info_requested', 'day 29');
      assert.deepEqual(links(), ['info_request', 'reminder'], 'one reminder only');
      await env.sleep(2 * DAY);
      assert.equal((await c.h.result()).status, 'expired');
      assert.deepEqual(of(c.caseId), ['submit:submitted', 'complete-submission:in_review', 'request-info:info_requested', 'expire:expired']);
      assert.deepEqual(calls.transitions.find((t) => t.caseId === c.caseId && t.action === 'expire')!.extra, { reason: 'info_request_unanswered', days: 30 });
      assert.ok(!calls.purged.includes(c.caseId), 'a submitted case keeps its data (AML retention)');
    });
  });

  it('a declarations ceremony that ends unsigned leaves the case submitted; complete-submission starts a fresh one', async () => {
    const taskQueue = 'onb-resign';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      const submitted = await c.act('submit');
      const first = submitted.declarations!.ceremonyId;
      // Three wrong codes lock the ceremony (its 24 h expiry is covered by the e-sign timer tests).
      const ceremony = env.client.workflow.getHandle(esignWorkflowId(AZ, first));
      for (const action of ['terms', 'present'] as const) await ceremony.executeUpdate(esignTransitionUpdate, { args: [{ action, actor: signer, client }] });
      for (let i = 0; i < 3; i++) await ceremony.executeUpdate(esignTransitionUpdate, { args: [{ action: 'sign', actor: signer, client, otp: '000000' }] });
      assert.equal((await ceremony.result()).status, 'locked');
      const declarations = async () => (await c.h.query(onboardingStateQuery)).declarations?.status;
      for (let i = 0; i < 100 && (await declarations()) !== 'ended'; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(await declarations(), 'ended');
      assert.equal(await c.status(), 'submitted', 'an unsigned ceremony does not move the case');

      const again = await c.act('complete-submission');
      assert.equal(again.status, 'submitted');
      assert.equal(again.declarations?.status, 'active');
      assert.notEqual(again.declarations?.ceremonyId, first);
      await signCeremony(again.declarations!.ceremonyId);
      for (let i = 0; i < 100 && (await c.status()) !== 'in_review'; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(await c.status(), 'in_review');
      assert.deepEqual(of(c.caseId), ['submit:submitted', 'complete-submission:in_review']);
    });
  });

  it('a wallet added after the travel-rule declaration was signed is refused until the declaration is reset', async () => {
    const taskQueue = 'onb-travel-rule';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      const addWallet = () => c.h.executeUpdate(editOnboardingUpdate, {
        args: [{ actor: c.customer, edit: { kind: 'wallet-add', wallet: { id: randomUUID(), rete: 'BTC', indirizzo: 'bc1qexample', tipo: 'custodial', vasp_nome: 'X' } } }],
      });
      await addWallet();
      const signing = await c.h.executeUpdate(editOnboardingUpdate, { args: [{ actor: c.customer, edit: { kind: 'travel-rule-sign', declaration: { luogo: 'Milano' } } }] });
      assert.equal(signing.state.travelRule.status, 'signing');
      assert.equal((await rejection(addWallet())).type, 'ONBOARDING_CONFLICT');
      await c.h.executeUpdate(editOnboardingUpdate, { args: [{ actor: c.customer, edit: { kind: 'travel-rule-reset' } }] });
      const after = await addWallet();
      assert.equal(after.state.wallets.length, 2);
      // Nothing of this test may keep timers for a queue without a worker: they would stall time skipping for the next test.
      await env.client.workflow.getHandle(esignWorkflowId(AZ, signing.state.travelRule.ceremonyId ?? signing.ceremonyId!)).terminate('test done').catch(() => undefined);
      await c.h.terminate('test done');
    });
  });

  it('a high-risk case needs a second, different compliance officer; approval starts the periodic review', async () => {
    const taskQueue = 'onb-approve';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    risk = { ...lowRisk, score: 55, classe: 'alto', secondApprovalRequired: true };
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      const walletId = randomUUID();
      await c.h.executeUpdate(editOnboardingUpdate, {
        args: [{ actor: c.customer, edit: { kind: 'wallet-add', wallet: { id: walletId, rete: 'ETH', indirizzo: '0xabc', tipo: 'self_hosted', volume_annuo_eur: 5000 } } }],
      });
      await submitAndSign(c);
      assert.equal((await rejection(c.act('approve', coA))).type, 'WALLETS_PENDING');
      await c.act('wallet-verify', analyst, { wallet_id: walletId });
      const first = await c.act('approve', coA, { note: 'ok' });
      assert.equal(first.status, 'pending_second_approval');
      assert.equal(first.approvedBy, coA.id);
      assert.ok(calls.notified.some((n) => n.caseId === c.caseId && n.event === 'pending_second_approval'));
      assert.equal((await rejection(c.act('complete-approval', coA))).type, 'FOUR_EYES_REQUIRED');
      assert.equal((await rejection(c.act('complete-approval', analyst))).type, 'FORBIDDEN');
      assert.equal(await c.status(), 'pending_second_approval');
      const done = await c.act('complete-approval', coB);
      assert.equal(done.status, 'approved');
      assert.equal(done.codAnagrafe, 'ANA-000001');
      assert.deepEqual(calls.materialised.filter((m) => m.caseId === c.caseId), [{ caseId: c.caseId, firstApprover: coA.id, actor: coB.username }]);
      assert.deepEqual(of(c.caseId), ['submit:submitted', 'complete-submission:in_review', 'approve:pending_second_approval', 'complete-approval:approved']);
      assert.deepEqual(calls.outcomes.filter((o) => o.caseId === c.caseId), [{ caseId: c.caseId, outcome: 'approved' }], 'the applicant is told once');

      // The periodic review is a child that outlives the case: it sleeps until its due date (one year here), then marks the review due.
      const review: WorkflowHandle = env.client.workflow.getHandle(cddReviewWorkflowId(AZ, `rev-${c.caseId}`));
      assert.equal((await review.describe()).status.name, 'RUNNING');
      assert.ok(!calls.reviewsDue.includes(`rev-${c.caseId}`));
      const dueAt = Number(await env.currentTimeMs()) + 365 * DAY;
      assert.equal((await c.h.result()).status, 'approved');
      assert.equal(await review.result(), 'due');
      assert.ok(Number(await env.currentTimeMs()) >= dueAt - HOUR, 'not before the due date');
      assert.deepEqual(calls.reviewsDue.filter((r) => r === `rev-${c.caseId}`), [`rev-${c.caseId}`]);
    });
  });
});
