import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createReportingActivities } from '../../activities/reporting/reporting.activities';
import { workflowsEntry } from '../../temporal/bundle';
import type { MachineActor } from '../../workflows/lib/machine';
import {
  createReportUpdate, REPORT_WORKFLOW_TYPE, reportStateQuery, reportTransitionUpdate, reportWorkflowId, type ReportTipo,
} from '../../workflows/reporting/reporting.contract';
import { coDueAt } from '../../workflows/reporting/rules/comunicazioni-oggettive';
import { saraDueAt } from '../../workflows/reporting/rules/sara';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { seedReportingMonth } from '../helpers/reporting-fixture';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** The month before the server's current one, as `YYYY-MM`. */
const previousMonth = (now: number) => {
  const d = new Date(now);
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
};

/**
 * The report's workflow on the time-skipping server, with the production durations and the real
 * activities against PostgreSQL: generation from the stored movements; the deadline of each type
 * (a notice five days before, another when it passes: flag, audit events, notifications); a
 * report submitted in time gets no notice.
 */
describe('reporting workflow (generation, deadline timers on the time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let generator: MachineActor;
  let officer: MachineActor;
  let writer: Awaited<ReturnType<TestEnv['login']>>;
  const activities: Record<string, unknown> = {};

  before(async () => {
    env = await getTestEnv();
    Object.assign(activities, createReportingActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch }));
    tenant = await env.createTenant();
    const a = await env.createUser({ tenant, roles: ['analyst'] });
    const c = await env.createUser({ tenant, roles: ['co'] });
    generator = { id: a.cod_utente, username: a.username, roles: ['analyst'] };
    officer = { id: c.cod_utente, username: c.username, roles: ['co'] };
    writer = await env.login(a);
  });
  const suite = useTimeSkippingSuite({ name: 'reporting', workflowsPath: workflowsEntry(), activities });

  /** The server's clock moves on from one test to the next: each seeds the month before its own now. */
  async function start(t: TimeSkippingTest, tipo: ReportTipo, periodo: string) {
    await seedReportingMonth(env, tenant, writer, periodo, `wf-${tipo}`);
    const reportId = randomUUID();
    const h = await t.client.workflow.start(REPORT_WORKFLOW_TYPE, { workflowId: reportWorkflowId(tenant, reportId), taskQueue: t.taskQueue, args: [{ codAzienda: tenant, reportId, tipo, periodo }] });
    await h.executeUpdate(createReportUpdate, { args: [{ actor: generator }] });
    return { h, reportId };
  }
  const row = (id: string) => env.ownerDb('reporting_reports').where({ id }).first();
  const notices = (id: string) => env.ownerDb('audit_events').where({ entity_id: id }).whereIn('action', ['reporting.due_soon', 'reporting.overdue']).orderBy('id').pluck('action');
  const notes = (id: string) => env.ownerDb('notifications').where({ entity_id: id }).pluck('tipo');
  const until = async (t: TimeSkippingTest, at: number) => { const now = await t.now(); if (at > now) await t.sleep(at - now); };
  async function generated(h: { query: (q: typeof reportStateQuery) => Promise<{ status: string }> }) {
    for (let i = 0; i < 300; i++) {
      const s = await h.query(reportStateQuery);
      if (s.status !== 'generating') return s.status;
      await new Promise((r) => setTimeout(r, 100));
    }
    return 'generating';
  }

  it('generates the comunicazione oggettiva of last month, warns five days before the 15th of the second month after, and flags it overdue after', () => suite.run(async (t) => {
    const periodo = previousMonth(await t.now());
    const { h, reportId } = await start(t, 'comunicazione_oggettiva', periodo);
    assert.equal(await generated(h), 'generated');
    const r = await row(reportId);
    assert.deepEqual([r.stato, r.negativa, r.righe, r.operazioni, r.progresso], ['generated', false, 4, 27, 100]);
    const due = Date.parse(coDueAt(periodo));
    assert.equal(new Date(r.due_at).getTime(), due);
    await until(t, due - 5 * DAY - MINUTE);
    await h.query(reportStateQuery);
    assert.deepEqual(await notices(reportId), []);
    await t.sleep(2 * MINUTE);
    await h.query(reportStateQuery);
    assert.deepEqual(await notices(reportId), ['reporting.due_soon']);
    assert.ok((await notes(reportId)).includes('reporting_due_soon'));
    assert.equal((await row(reportId)).overdue, false);
    await until(t, due + MINUTE);
    const s = await h.query(reportStateQuery);
    assert.deepEqual(await notices(reportId), ['reporting.due_soon', 'reporting.overdue']);
    assert.ok((await notes(reportId)).includes('reporting_overdue'));
    assert.deepEqual([(await row(reportId)).overdue, s.overdue], [true, true]);
  }));

  it('an S.AR.A. report submitted in time gets no notice (due by the 2nd of the third month after)', () => suite.run(async (t) => {
    const periodo = previousMonth(await t.now());
    const { h, reportId } = await start(t, 'sara', periodo);
    assert.equal(await generated(h), 'generated');
    const r = await row(reportId);
    assert.deepEqual([r.righe, Number(r.totale_eur)], [1, 20000]);
    const due = Date.parse(saraDueAt(periodo));
    assert.equal(new Date(r.due_at).getTime(), due);
    await h.executeUpdate(reportTransitionUpdate, { args: [{ action: 'approve', actor: officer }] });
    await h.executeUpdate(reportTransitionUpdate, { args: [{ action: 'submit', actor: officer, riferimento: 'INFOSTAT-1' }] });
    await until(t, due + DAY);
    const s = await h.query(reportStateQuery);
    assert.equal(s.status, 'submitted');
    assert.deepEqual(await notices(reportId), []);
    // The outcome completes it and the workflow ends.
    await h.executeUpdate(reportTransitionUpdate, { args: [{ action: 'complete-submission', actor: officer, submissionId: s.pendingSubmission!, esito: 'accettata' }] });
    assert.equal((await h.result()).status, 'completed');
  }));
});
