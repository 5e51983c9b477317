import assert from 'node:assert/strict';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createCaseActivities } from '../../activities/case/case.activities';
import { createCase } from '../../src/domains/cases/cases.commands';
import type { SessionUser } from '../../src/http/context';
import { workflowsEntry } from '../../temporal/bundle';
import { caseStateQuery, caseTransitionUpdate, type CaseOverdue } from '../../workflows/case/case.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { startTimeSkippingEnv } from '../helpers/time-skipping';

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The SLA timer on Temporal's time-skipping server with the real projection activities
 * against real PostgreSQL: 30 days pass in moments, the production duration is untouched,
 * and what is asserted is what the staff see (the overdue flag, the case event, the audit
 * event, the notifications) and when it appeared, while the workflow is still running.
 */
describe('case SLA timer (time-skipping server)', function () {
  this.timeout(240_000);
  let ts: TestWorkflowEnvironment;
  let env: TestEnv;
  let worker: Worker;
  let running: Promise<void>;
  /** Server time (skipped) at which each case's overdue mark was scheduled. */
  const overdueAt = new Map<string, number[]>();
  const taskQueue = 'case-sla-test';

  before(async () => {
    env = await getTestEnv();
    ts = await startTimeSkippingEnv();
    // Their e-mails go to delivery on the shared stack (this test's worker runs only the case's activities).
    const acts = createCaseActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch });
    worker = await Worker.create({
      connection: ts.nativeConnection, taskQueue, workflowsPath: workflowsEntry(),
      activities: {
        ...acts,
        async markCaseOverdue(p: CaseOverdue) {
          overdueAt.set(p.caseId, [...(overdueAt.get(p.caseId) ?? []), Context.current().info.scheduledTimestampMs]);
          return acts.markCaseOverdue(p);
        },
      },
    });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await ts?.teardown();
  });

  interface OpenCase { tenant: string; caseId: string; h: WorkflowHandle; dueAt: number; users: Record<'analyst' | 'coA' | 'coB', SessionUser> }

  async function openCase(slaDays: number): Promise<OpenCase> {
    const tenant = await env.createTenant();
    const session = async (roles: ('analyst' | 'co')[]) => {
      const u = await env.createUser({ tenant, roles });
      return { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: roles, totp_enabled: true } as SessionUser;
    };
    const users = { analyst: await session(['analyst']), coA: await session(['co']), coB: await session(['co']) };
    const now = new Date(Number(await ts.currentTimeMs()));
    const made = await createCase({ client: ts.client, taskQueue }, {
      codAzienda: tenant, user: users.analyst, slaDays, now, data: { titolo: 'SLA', descrizione: '', tipo: 'indagine', priorita: 'media' },
    });
    return { tenant, caseId: made.caseId, h: ts.client.workflow.getHandle(made.workflowId), dueAt: now.getTime() + slaDays * DAY, users };
  }

  const send = (c: OpenCase, who: SessionUser, args: Record<string, unknown>) =>
    c.h.executeUpdate(caseTransitionUpdate, { args: [{ ...args, actor: { id: who.cod_utente, username: who.username, roles: who.ruoli } } as never] });
  const row = (c: OpenCase) => env.ownerDb('cases').where({ id: c.caseId }).first();
  const overdueNotes = (c: OpenCase) => env.ownerDb('notifications').where({ entity_id: c.caseId, tipo: 'case_overdue' });
  const overdueAudit = (c: OpenCase) => env.ownerDb('audit_events').where({ entity_type: 'case', entity_id: c.caseId, action: 'case.overdue' });
  const overdueEvents = (c: OpenCase) => env.ownerDb('case_events').where({ case_id: c.caseId, tipo: 'scadenza' });
  const sleepUntil = async (at: number) => { const t = Number(await ts.currentTimeMs()); if (at > t) await ts.sleep(at - t); };

  it('marks an open case overdue exactly when its SLA passes: flag, case event, audit event, notifications', async () => {
    const c = await openCase(30);
    assert.equal(new Date((await row(c)).sla_due_at).getTime(), c.dueAt);

    await sleepUntil(c.dueAt - MINUTE);
    assert.equal((await row(c)).overdue, false, 'not overdue a minute before the SLA');
    assert.equal((await overdueNotes(c)).length, 0);
    assert.equal((await overdueAudit(c)).length, 0);
    assert.equal((await c.h.query(caseStateQuery)).overdue, false);

    await ts.sleep(2 * MINUTE);
    const marks = overdueAt.get(c.caseId) ?? [];
    assert.equal(marks.length, 1);
    assert.ok(marks[0]! >= c.dueAt && marks[0]! < c.dueAt + MINUTE, `marked at ${new Date(marks[0]!).toISOString()}, due ${new Date(c.dueAt).toISOString()}`);
    assert.equal((await row(c)).overdue, true);
    assert.equal((await overdueEvents(c)).length, 1);
    assert.equal((await overdueAudit(c)).length, 1);
    const notes = await overdueNotes(c);
    assert.deepEqual(notes.map((n) => n.cod_utente).sort(), [c.users.analyst, c.users.coA, c.users.coB].map((u) => u.cod_utente).sort(),
      'the compliance officers and the opener');

    // Still open and overdue: transitions keep working, and the mark is not repeated.
    const after = await send(c, c.users.analyst, { action: 'escalate' });
    assert.deepEqual([after.state.status, after.state.overdue], ['escalated', true]);
    await ts.sleep(10 * DAY);
    assert.equal((overdueAt.get(c.caseId) ?? []).length, 1);
    assert.equal((await overdueNotes(c)).length, 3);
    assert.equal((await c.h.describe()).status.name, 'RUNNING');
  });

  it('never marks a case closed before its SLA: the workflow ends at the closure and the due date passes silently', async () => {
    const c = await openCase(30);
    await ts.sleep(10 * DAY);
    await send(c, c.users.analyst, { action: 'close', outcome: 'archiviato', reason: 'nessun riscontro' });
    const closed = await send(c, c.users.coA, { action: 'complete-closure' });
    assert.equal(closed.state.status, 'closed');
    const ended = await c.h.describe();
    assert.equal(ended.status.name, 'COMPLETED', 'no timer keeps a closed case alive');
    assert.ok(ended.closeTime!.getTime() < c.dueAt);

    await sleepUntil(c.dueAt + 10 * DAY);
    assert.equal((overdueAt.get(c.caseId) ?? []).length, 0);
    const r = await row(c);
    assert.deepEqual([r.stato, r.overdue], ['closed', false]);
    assert.equal((await overdueNotes(c)).length, 0);
    assert.equal((await overdueAudit(c)).length, 0);
    assert.equal((await overdueEvents(c)).length, 0);
  });
});
