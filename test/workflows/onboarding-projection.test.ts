import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { esignStateQuery, esignTransitionUpdate, esignWorkflowId } from '../../workflows/esign/esign.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import {
  createOnboardingUpdate, editOnboardingUpdate, ONBOARDING_WORKFLOW_TYPE, onboardingStateQuery, onboardingTransitionUpdate, onboardingWorkflowId,
  type OnboardingStep, type OnboardingTransitionArgs, type OnboardingWorkflowInput, type RiskResult,
} from '../../workflows/onboarding/onboarding.contract';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { fakeOnboardingActivities, LOW_RISK } from './fixtures/onboarding-fake-activities';

const AZ = 'ON2';
const settings = { draftIdleDays: 30, infoReminderDays: 7, infoExpiryDays: 30 };
const signer = { id: 'signer:x', username: 'firmatario', roles: ['signer'] };
const client = { ip: '203.0.113.1', userAgent: 'test' };
const coA: MachineActor = { id: 'u-co-a', username: 'co_a', roles: ['co'] };
const coB: MachineActor = { id: 'u-co-b', username: 'co_b', roles: ['co'] };

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
 * The onboarding workflow moves only after its projection was written: a projection that
 * fails leaves the state exactly as it was, and the update fails with PROJECTION_FAILED; a
 * caller who already reads the new row while the workflow has not moved yet is checked
 * against where it is going, never refused as stale.
 */
describe('onboarding workflow: projection first (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestWorkflowEnvironment;
  const risk: RiskResult = { ...LOW_RISK, score: 55, classe: 'alto', secondApprovalRequired: true };
  const fake = fakeOnboardingActivities({ now: async () => Number(await env.currentTimeMs()), risk: () => risk });
  /** Transitions whose projection fails once (`<caseId>:<action>`), as a database refusing the row would. */
  const failOnce = new Set<string>();
  /** A transition whose projection waits for the test's go (`<caseId>:<action>`). */
  let gate: { key: string; reached: () => void; go: Promise<void> } | null = null;
  /** Cases whose next signing document cannot be prepared. */
  const failSigning = new Set<string>();
  const edits: { caseId: string; kind: string }[] = [];
  const activities = {
    ...fake.activities,
    async applyOnboardingEdit(p: OnboardingStep & { edit: { kind: string; wallet?: { id: string } } }) {
      edits.push({ caseId: p.caseId, kind: p.edit.kind });
      return fake.activities.applyOnboardingEdit(p);
    },
    async prepareOnboardingSigning(p: OnboardingStep & { purpose: string }) {
      if (failSigning.delete(p.caseId)) throw ApplicationFailure.nonRetryable('the signing document could not be made', 'PdfError');
      return fake.activities.prepareOnboardingSigning(p);
    },
    async recordOnboardingTransition(p: OnboardingStep & { action: string; from: string; to: string; extra: Record<string, unknown> }) {
      const key = `${p.caseId}:${p.action}`;
      if (failOnce.delete(key)) throw ApplicationFailure.nonRetryable('the database refused the row', 'DatabaseError');
      if (gate?.key === key) { gate.reached(); await gate.go; }
      return fake.activities.recordOnboardingTransition(p);
    },
  };
  const workflowsPath = join(import.meta.dirname, 'fixtures', 'onboarding.workflows.ts');

  before(async () => { env = await startTimeSkippingEnv(); });
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
    const act = (action: OnboardingTransitionArgs['action'], actor: MachineActor = customer, args?: OnboardingTransitionArgs['input']) =>
      h.executeUpdate(onboardingTransitionUpdate, { args: [{ action, actor, input: args }] });
    const state = () => h.query(onboardingStateQuery);
    const edit = () => h.executeUpdate(editOnboardingUpdate, { args: [{ actor: customer, edit: { kind: 'section', section: 'anagrafe', data: { denominazione: 'Alfa' } } }] });
    return { caseId, h, act, state, edit };
  }

  /** Signs the declarations of a submitted case and waits for the review: the case is then `in_review`. */
  async function signAndReview(c: Awaited<ReturnType<typeof startCase>>, ceremonyId: string) {
    const ceremony = env.client.workflow.getHandle(esignWorkflowId(AZ, ceremonyId));
    for (let i = 0; i < 100 && !(await ceremony.query(esignStateQuery).catch(() => null))?.created; i++) await new Promise((r) => setTimeout(r, 50));
    for (const action of ['terms', 'present'] as const) await ceremony.executeUpdate(esignTransitionUpdate, { args: [{ action, actor: signer, client }] });
    await ceremony.executeUpdate(esignTransitionUpdate, { args: [{ action: 'sign', actor: signer, client, otp: '123456' }] });
    for (let i = 0; i < 100 && (await c.state()).status !== 'in_review'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await c.state()).status, 'in_review');
  }

  it('a projection that fails leaves the state as it was, fails the update with PROJECTION_FAILED, and the same call succeeds afterwards', async () => {
    const taskQueue = 'onb-projection-fails';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      await c.edit();
      const draft = await c.state();

      failOnce.add(`${c.caseId}:submit`);
      const refused = await rejection(c.act('submit'));
      assert.equal(refused.type, 'PROJECTION_FAILED');
      assert.match(refused.message, /could not be recorded \(the database refused the row\): the record stays draft/);
      assert.deepEqual(await c.state(), draft, 'not a field moved: status, risk, submission count, four-eyes, timers');
      assert.deepEqual((await c.h.describe()).searchAttributes.RecordStatus, ['draft'], 'nor the published status');

      const submitted = await c.act('submit');
      assert.equal(submitted.status, 'submitted');
      assert.equal(submitted.submissions, 1, 'the refused attempt did not count');
      await signAndReview(c, submitted.declarations!.ceremonyId);

      // The four-eyes approver moves with the state: a failed first approval leaves none.
      const inReview = await c.state();
      failOnce.add(`${c.caseId}:approve`);
      assert.equal((await rejection(c.act('approve', coA))).type, 'PROJECTION_FAILED');
      assert.deepEqual(await c.state(), inReview);
      assert.equal((await rejection(c.act('complete-approval', coB))).type, 'INVALID_TRANSITION', 'no second approval without a first');
      const first = await c.act('approve', coA);
      assert.equal(first.status, 'pending_second_approval');
      assert.equal(first.approvedBy, coA.id);
      assert.equal((await c.act('complete-approval', coB)).status, 'approved');
      assert.deepEqual(fake.calls.transitions.filter((t) => t.caseId === c.caseId).map((t) => t.action), ['submit', 'complete-submission', 'approve', 'complete-approval']);
    });
  });

  it('a caller who reads the new row before the workflow moved is checked against where it is going', async () => {
    const taskQueue = 'onb-projection-in-flight';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      await signAndReview(c, (await c.act('submit')).declarations!.ceremonyId);
      let go!: () => void;
      const reached = new Promise<void>((resolve) => {
        gate = { key: `${c.caseId}:approve`, reached: resolve, go: new Promise<void>((r) => { go = r; }) };
      });
      const firstApproval = c.act('approve', coA);
      await reached;
      // The projection runs inside the update's workflow task (a local activity): the row may
      // already say pending_second_approval while the workflow has not moved. Updates sent now
      // wait for that task and are checked against the state it leaves, never refused as stale.
      const sameApprover = rejection(c.act('complete-approval', coA));
      await new Promise((r) => setTimeout(r, 300));
      go();
      gate = null;
      assert.equal((await firstApproval).status, 'pending_second_approval');
      assert.equal((await sameApprover).type, 'FOUR_EYES_REQUIRED', 'four eyes against the approver of the step in flight');
      const done = await c.act('complete-approval', coB);
      assert.equal(done.status, 'approved');
      assert.equal(done.approvedBy, coA.id);
    });
  });

  it('a travel-rule declaration whose ceremony cannot start goes back to none, on the row as in the state', async () => {
    const taskQueue = 'onb-projection-signing';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath, activities });
    await worker.runUntil(async () => {
      const c = await startCase(taskQueue);
      const editOf = (edit: Record<string, unknown>) => c.h.executeUpdate(editOnboardingUpdate, { args: [{ actor: { id: `cliente:${c.caseId}`, username: 'cliente', roles: ['cliente'] }, edit: edit as never }] });
      await editOf({ kind: 'wallet-add', wallet: { id: randomUUID(), rete: 'BTC', indirizzo: 'bc1qexample', tipo: 'custodial', vasp_nome: 'X' } });
      const before = await c.state();
      failSigning.add(c.caseId);
      assert.equal((await rejection(editOf({ kind: 'travel-rule-sign', declaration: { luogo: 'Milano' } }))).type, 'PROJECTION_FAILED');
      assert.deepEqual((await c.state()).travelRule, { status: 'none', ceremonyId: null });
      assert.equal((await c.state()).lastEditAt, before.lastEditAt, 'a failed edit is no edit');
      assert.deepEqual(edits.filter((e) => e.caseId === c.caseId).map((e) => e.kind), ['wallet-add', 'travel-rule-sign', 'travel-rule-reset']);
      const signing = await editOf({ kind: 'travel-rule-sign', declaration: { luogo: 'Milano' } });
      assert.equal(signing.state.travelRule.status, 'signing');
      // No timers left behind for a queue without a worker (they would stall time skipping).
      await env.client.workflow.getHandle(esignWorkflowId(AZ, signing.ceremonyId!)).terminate('test done');
      await c.h.terminate('test done');
    });
  });
});
