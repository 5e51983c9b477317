import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createCase } from '../../src/domains/cases/cases.commands';
import type { SessionUser } from '../../src/http/context';
import type { Role } from '../../src/kit/roles';
import { staffActor } from '../../src/kit/actor';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { workflowsEntry } from '../../temporal/bundle';
import {
  CASE_WORKFLOW_TYPE, caseStateQuery, caseTransitionUpdate, caseWorkflowId, type CaseOverdue, type CaseWorkflowInput, type CaseWorkflowState,
} from '../../workflows/case/case.contract';
import { editOnboarding, transitionOnboarding } from '../../src/domains/onboarding/onboarding.commands';
import {
  addWallet, completeSubmission, completeTravelRule, onboardingTemporal, reloadCase, signTravelRule, submitCase,
} from '../../src/domains/onboarding/onboarding.service';
import { onboardingEsignToken } from '../../src/domains/onboarding/onboarding.tokens';
import { onboardingStateQuery, type OnboardingWorkflowState } from '../../workflows/onboarding/onboarding.contract';
import { startContinueAsNewStack, type ContinueAsNewStack } from '../helpers/continue-as-new-stack';
import { getTestEnv } from '../helpers/env';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { completeDraft, signOnboardingCeremony, waitFor, waitForStatus } from '../helpers/onboarding';

const sessionUser = (u: { cod_utente: string; username: string; ruoli: Role[] }, tenant: string): SessionUser => ({
  cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: `${u.username}@example.test`, nome: 'N', cognome: 'C', ruoli: u.ruoli, totp_enabled: true,
});
const DAY = 86_400_000;
const actor = (u: SessionUser) => ({ id: u.cod_utente, username: u.username, roles: u.ruoli });

async function rejection(p: Promise<unknown>): Promise<ApplicationFailure> {
  try { await p; } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected an update failure, got ${err}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  }
  assert.fail('the update was accepted');
}

/**
 * The case and onboarding workflows on a Temporal server that suggests continue-as-new
 * after a dozen history events: nearly every step is followed by a new run. The state, the
 * timers' due dates, the four-eyes approver and the ceremonies' signals must come through
 * each one, and the next update must behave as if nothing happened.
 */
describe('continue-as-new (dev server suggesting it after a few events)', function () {
  this.timeout(300_000);
  let stack: ContinueAsNewStack;
  let tenant: string;

  before(async () => {
    const env = await getTestEnv();
    stack = await startContinueAsNewStack(env, 12);
    tenant = await stack.createTenant();
  });
  after(async () => { await stack?.stop(); });

  describe('case workflow', () => {
    it('keeps its state, SLA due date and four-eyes across runs, and keeps answering updates', async () => {
      const analyst = sessionUser(await stack.createUser({ tenant, roles: ['analyst'] }), tenant);
      const co = sessionUser(await stack.createUser({ tenant, roles: ['co'] }), tenant);
      const t = { client: stack.temporal, taskQueue: stack.deps.config.temporal.taskQueue };
      const { caseId, workflowId, reply: { state: created } } = await createCase(t, { codAzienda: tenant, user: analyst, data: { titolo: 'Continua', descrizione: '', tipo: 'indagine', priorita: 'media' }, slaDays: 30 });
      const h = stack.temporal.workflow.getHandle(workflowId);
      const send = async (u: SessionUser, args: Record<string, unknown>) => (await h.executeUpdate(caseTransitionUpdate, { args: [{ ...args, actor: actor(u) } as never] })).state;

      let last: CaseWorkflowState = created;
      for (let i = 1; i <= 6; i++) last = await send(analyst, { action: 'add-event', event: { tipo: 'nota', testo: `Nota ${i}` } });
      assert.equal(last.transitions, 6);
      last = await send(analyst, { action: 'close', outcome: 'archiviato', reason: 'nessun riscontro' });
      assert.equal(last.status, 'closing');

      const runs = await waitForRuns(stack, workflowId, 3);
      assert.ok(runs.slice(0, -1).every((r) => r.status.name === 'CONTINUED_AS_NEW'), 'every run but the last continued as new');
      // The current run carries the state of the first, SLA due date and the closer included.
      const now = await h.query(caseStateQuery);
      assert.deepEqual(now, { ...last });
      assert.equal(now.slaDueAt, created.slaDueAt, 'the SLA due date is absolute: the same in every run');
      assert.equal(now.closingRequestedBy, analyst.cod_utente);

      // Four eyes after continue-as-new: the one who closed may not confirm.
      assert.equal((await rejection(send(analyst, { action: 'complete-closure' }))).type, 'FORBIDDEN');
      const analystCo = sessionUser(await stack.createUser({ tenant, roles: ['co', 'analyst'] }), tenant);
      assert.equal((await send(analystCo, { action: 'reopen', reason: 'ancora un controllo' })).status, 'open');
      assert.equal((await send(analystCo, { action: 'close', outcome: 'archiviato', reason: 'chiuso' })).status, 'closing');
      assert.equal((await rejection(send(analystCo, { action: 'complete-closure' }))).type, 'FOUR_EYES_REQUIRED');
      const done = await send(co, { action: 'complete-closure' });
      assert.equal(done.status, 'closed');
      assert.equal(done.transitions, 10);
      assert.equal((await h.result()).status, 'closed');

      const row = await stack.ownerDb('cases').where({ id: caseId }).first();
      assert.equal(row.stato, 'closed');
      const audit = await stack.ownerDb('audit_events').where({ entity_type: 'case', entity_id: caseId }).orderBy('id').pluck('action');
      assert.deepEqual(audit, ['case.create', ...Array(6).fill('case.add-event'), 'case.close', 'case.reopen', 'case.close', 'case.complete-closure'],
        'each step written once, none lost or repeated across runs');
    });
  });

  describe('onboarding workflow', () => {
    it('carries state, wallets, ceremonies and the first approver across runs; ceremony signals reach the current run', async () => {
      const deps = stack.deps;
      const t = await onboardingTemporal(deps);
      const c = await completeDraft(stack, tenant, { pepOwner: true });
      const workflowId = c.row.workflow_id;
      const h = stack.temporal.workflow.getHandle(workflowId);
      const runs = async () => (await stack.runsOf(workflowId)).length;
      const runId = async () => (await h.describe()).runId;
      /** Real edits until the server suggests a new run; the state the old run answered last must be the new run's, to the letter. */
      const forceNewRun = async () => {
        const before = await runId();
        const countries = { paesi: [{ paese: 'IT', ruolo: 'sede_operativa' }, { paese: 'DE', ruolo: 'clienti' }] };
        let last: OnboardingWorkflowState | undefined;
        for (let i = 0; i < 3; i++) last = (await editOnboarding(t, c.row, { kind: 'section', section: 'countries', data: countries })).state;
        await waitFor('a new run', async () => (await runId()) !== before);
        assert.deepEqual(await h.query(onboardingStateQuery), last, 'the new run starts from the whole state of the old one');
      };
      assert.ok((await runs()) >= 3, 'filling in the draft already went through several runs');
      let state = await h.query(onboardingStateQuery);
      assert.equal(state.created, true);
      assert.equal(state.subjectType, 'societa');

      // A travel-rule ceremony started by one run, signed after the case moved on to another.
      await addWallet(deps, c.row, { rete: 'BTC', indirizzo: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tipo: 'custodial', vasp_nome: 'Exchange Esempio S.p.A.', volume_annuo_eur: 800 });
      const travel = await signTravelRule(deps, c.row, { titolare_wallet: true, fondi_leciti: true, aggiornamento: true, luogo: 'Milano' });
      await forceNewRun();
      state = await h.query(onboardingStateQuery);
      assert.deepEqual(state.travelRule, { status: 'signing', ceremonyId: travel.ceremony_id });
      assert.equal(state.wallets.length, 1);
      await signOnboardingCeremony(stack, travel.ceremony_id);
      await waitFor('the signature in the row', async () => ((await reloadCase(deps, c.row)).travel_rule as { stato?: string }).stato === 'signed');
      assert.equal((await completeTravelRule(deps, c.row)).ceremony_id, travel.ceremony_id);

      // The declarations ceremony ends unsigned (three wrong codes) after a new run: the case learns it by signal.
      const { state: submitted, firma } = await submitCase(deps, await reloadCase(deps, c.row));
      assert.equal(submitted.status, 'submitted');
      assert.ok(firma);
      const declarationsRun = await runId();
      // Each early completion is refused by the handler (signature pending): history, and a new run.
      for (let i = 0; i < 4; i++) assert.equal((await completeSubmission(deps, await reloadCase(deps, c.row))).done, false);
      await waitFor('a new run', async () => (await runId()) !== declarationsRun);
      await lockCeremony(firma.ceremony_id);
      const ended = await waitFor('the ended ceremony in the row', async () => {
        const r = await reloadCase(deps, c.row);
        return r.declarations_stato === 'ended' ? r : undefined;
      });
      assert.equal(ended.stato, 'submitted', 'an unsigned ceremony does not move the case');
      assert.equal((await h.query(onboardingStateQuery)).declarations?.status, 'ended');
      const fresh = await completeSubmission(deps, ended);
      assert.ok(!fresh.done, 'a fresh ceremony');
      assert.notEqual(fresh.firma.ceremony_id, firma.ceremony_id);
      await signOnboardingCeremony(stack, fresh.firma.ceremony_id);
      let row = await waitForStatus(stack, c, 'in_review');
      assert.equal(row.declarations_stato, 'signed');

      // Four eyes across runs: the first approver is carried, the second must differ.
      const [analyst, coA, coB] = [await staff(['analyst']), await staff(['co']), await staff(['co'])];
      const walletId = (await stack.ownerDb('onboarding_wallets').where({ case_id: c.caseId }).first()).id as string;
      await transitionOnboarding(t, row, { action: 'wallet-verify', actor: staffActor(analyst), input: { wallet_id: walletId } });
      const first = await transitionOnboarding(t, row, { action: 'approve', actor: staffActor(coA), input: { note: 'PEP' } });
      assert.equal(first.status, 'pending_second_approval');
      const approvedIn = await runId();
      // A wallet the case does not have is refused by the handler: history, and a new run.
      for (let i = 0; i < 4; i++) {
        await assert.rejects(transitionOnboarding(t, row, { action: 'wallet-verify', actor: staffActor(analyst), input: { wallet_id: randomUUID() } }), (e: { status?: number }) => e.status === 404);
      }
      await waitFor('a new run', async () => (await runId()) !== approvedIn);
      assert.equal((await h.query(onboardingStateQuery)).approvedBy, coA.cod_utente);
      row = await reloadCase(deps, c.row);
      await assert.rejects(transitionOnboarding(t, row, { action: 'complete-approval', actor: staffActor(coA) }), (e: { code?: string }) => e.code === 'FOUR_EYES_REQUIRED');
      const done = await transitionOnboarding(t, row, { action: 'complete-approval', actor: staffActor(coB) });
      assert.equal(done.status, 'approved');
      assert.equal(done.submissions, 1);
      assert.ok(done.codAnagrafe);
      assert.deepEqual(done.wallets.map((w) => w.status), ['verified']);
      assert.equal((await h.result()).status, 'approved');

      const all = await stack.runsOf(workflowId);
      assert.ok(all.length >= 6, `${all.length} runs`);
      assert.ok(all.slice(0, -1).every((r) => r.status.name === 'CONTINUED_AS_NEW'));
      const audit = await stack.ownerDb('audit_events').where({ entity_type: 'onboarding_case', entity_id: c.caseId }).pluck('action');
      const count = (a: string) => audit.filter((x: string) => x === a).length;
      assert.deepEqual(['submit', 'complete-submission', 'approve', 'complete-approval'].map((a) => count(`onboarding.${a}`)), [1, 1, 1, 1], 'each transition written once');
      assert.equal(count('onboarding.ceremony'), 3, 'travel rule signed, declarations ended, declarations signed');
    });
  });

  async function staff(roles: Role[]) {
    return sessionUser(await stack.createUser({ tenant, roles }), tenant);
  }

  /** Three wrong codes, through the signer's API. */
  async function lockCeremony(ceremonyId: string) {
    const token = onboardingEsignToken(stack.deps.config.sessionSecret, ceremonyId);
    const anon = stack.client();
    const path = `/api/v1/esign/ceremony/${ceremonyId}`;
    assert.equal((await anon.post(`${path}/terms`, { token })).status, 200);
    assert.equal((await anon.post(`${path}/present`, { token })).status, 200);
    for (let i = 0; i < 3; i++) await anon.post(`${path}/sign`, { token, otp: '000000' });
    assert.equal((await stack.ownerDb('esign_ceremonies').where({ id: ceremonyId }).first()).stato, 'locked');
  }
});

/**
 * What continue-as-new hands to the next run is the input with the state; started that way
 * on the time-skipping server, the case's SLA timer fires at the carried due date (not 30
 * days after the new run), and a case already marked overdue is not marked again.
 */
describe('continue-as-new: the case SLA from a carried state (time-skipping server)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  const overdue: CaseOverdue[] = [];
  const activities = {
    async createCaseProjection() {},
    async projectCaseTransition() {},
    async markCaseOverdue(p: CaseOverdue) { overdue.push(p); return { notified: 1 }; },
  };
  before(async () => { env = await startTimeSkippingEnv(); });
  after(async () => { await env?.teardown(); });

  it('fires at the due date the run before had, once', async () => {
    const taskQueue = 'case-continued';
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: workflowsEntry(), activities });
    await worker.runUntil(async () => {
      const now = Number(await env.currentTimeMs());
      const start = (caseId: string, state: Partial<CaseWorkflowState>) => {
        const slaDueAt = new Date(now + 5 * DAY).toISOString();
        const carried: CaseWorkflowState = { status: 'open', created: true, overdue: false, slaDueAt, closingRequestedBy: null, outcome: null, transitions: 4, ...state };
        const input: CaseWorkflowInput = { codAzienda: 'CAN1', caseId, slaDays: 30, slaDueAt, state: carried };
        return env.client.workflow.start(CASE_WORKFLOW_TYPE, { workflowId: caseWorkflowId('CAN1', caseId), taskQueue, args: [input] });
      };
      // Opened 25 days before the run started: 5 days left, not 30.
      const due = await start('00000000-0000-4000-8000-0000000000c1', {});
      // Already marked overdue by the run before.
      const marked = await start('00000000-0000-4000-8000-0000000000c2', { overdue: true, status: 'escalated' });
      await env.sleep(4 * DAY);
      assert.equal(overdue.length, 0, 'not before the carried due date');
      await env.sleep(2 * DAY);
      for (let i = 0; i < 100 && !overdue.length; i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(overdue.map((o) => o.caseId), ['00000000-0000-4000-8000-0000000000c1']);
      assert.equal((await due.query(caseStateQuery)).overdue, true);
      const s = await marked.query(caseStateQuery);
      assert.deepEqual([s.status, s.overdue, s.transitions], ['escalated', true, 4]);
      await due.terminate('test done');
      await marked.terminate('test done');
    });
  });
});

/** Waits until the workflow id has at least `n` runs (visibility is eventually consistent). */
async function waitForRuns(stack: ContinueAsNewStack, workflowId: string, n: number) {
  const until = Date.now() + 30_000;
  for (;;) {
    const runs = await stack.runsOf(workflowId);
    if (runs.length >= n || Date.now() > until) {
      assert.ok(runs.length >= n, `${workflowId}: ${runs.length} runs, expected at least ${n}`);
      return runs;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
