import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createFilingActivities } from '../../activities/filing/filing.activities';
import { workflowsEntry } from '../../temporal/bundle';
import {
  createFilingUpdate, FILING_WORKFLOW_TYPE, filingStateQuery, filingTransitionUpdate, filingWorkflowId, type FilingWorkflowInput,
} from '../../workflows/filing/filing.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The deadline of each filing type on the time-skipping server, with the production
 * durations and the real activities against PostgreSQL: a notice five days before the due
 * date, another when it passes (overdue flag, audit events, notifications); a classification
 * that changes the type moves the deadline; a filing sent in time gets no notice.
 */
describe('filing deadlines (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let actor: MachineActor;
  const activities: Record<string, unknown> = {};

  before(async () => {
    env = await getTestEnv();
    Object.assign(activities, createFilingActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch }));
    tenant = await env.createTenant();
    const u = await env.createUser({ tenant, roles: ['analyst'] });
    await env.createUser({ tenant, roles: ['co'] });
    actor = { id: u.cod_utente, username: u.username, roles: ['analyst'] };
  });
  const suite = useTimeSkippingSuite({ name: 'filing-deadlines', workflowsPath: workflowsEntry(), activities });

  async function start(t: TimeSkippingTest, tipo: FilingWorkflowInput['tipo'], periodo: string | null = null) {
    const filingId = randomUUID();
    const workflowId = filingWorkflowId(tenant, filingId);
    const createdAt = await t.now();
    const input: FilingWorkflowInput = { codAzienda: tenant, filingId, createdAt: new Date(createdAt).toISOString(), tipo, periodo };
    const h = await t.client.workflow.start(FILING_WORKFLOW_TYPE, { workflowId, taskQueue: t.taskQueue, args: [input] });
    await h.executeUpdate(createFilingUpdate, { args: [{ actor, data: { titolo: `Filing ${tipo}`, tipo, periodo_riferimento: periodo } }] });
    return { h, filingId, createdAt };
  }
  const notices = (id: string) => env.ownerDb('audit_events').where({ entity_id: id }).whereIn('action', ['filing.due_soon', 'filing.overdue']).orderBy('id').pluck('action');
  const notes = (id: string) => env.ownerDb('notifications').where({ entity_id: id }).pluck('tipo');
  const row = (id: string) => env.ownerDb('filings').where({ id }).first();
  const until = async (t: TimeSkippingTest, at: number) => { const now = await t.now(); if (at > now) await t.sleep(at - now); };

  it('an STR: notice five days before its 30 days run out, overdue when they have', () => suite.run(async (t) => {
    const { h, filingId, createdAt } = await start(t, 'str');
    const due = createdAt + 30 * DAY;
    assert.equal(new Date((await row(filingId)).due_at).getTime(), due);
    await until(t, due - 5 * DAY - MINUTE);
    assert.deepEqual(await notices(filingId), []);
    await t.sleep(2 * MINUTE);
    await h.query(filingStateQuery);
    assert.deepEqual(await notices(filingId), ['filing.due_soon']);
    assert.ok((await notes(filingId)).includes('filing_due_soon'));
    assert.equal((await row(filingId)).overdue, false);
    await until(t, due + MINUTE);
    await h.query(filingStateQuery);
    assert.deepEqual(await notices(filingId), ['filing.due_soon', 'filing.overdue']);
    assert.ok((await notes(filingId)).includes('filing_overdue'));
    assert.equal((await row(filingId)).overdue, true);
    assert.equal((await h.query(filingStateQuery)).overdue, true);
  }));

  it('a classification that makes it a comunicazione oggettiva moves the deadline to the 15th of the second month after', () => suite.run(async (t) => {
    const now = new Date(await t.now());
    const { h, filingId } = await start(t, 'str');
    // Reference month: the current one; due by the 15th of the month after next.
    const periodo = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const r = await h.executeUpdate(filingTransitionUpdate, { args: [{ action: 'classify', actor, tipo: 'comunicazione_oggettiva', periodo, jurisdiction: 'ae-goaml-5.0.2', reportCode: 'STR' }] });
    const due = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 15, 22, 59, 59);
    assert.equal(r.state.dueAt, new Date(due).toISOString());
    assert.equal(new Date((await row(filingId)).due_at).getTime(), due);
    // Past the STR's old 30 days: nothing, since that deadline no longer applies.
    await t.sleep(31 * DAY);
    await h.query(filingStateQuery);
    const before = await notices(filingId);
    if (due - 5 * DAY > await t.now()) assert.deepEqual(before, []);
    await until(t, due + MINUTE);
    await h.query(filingStateQuery);
    assert.deepEqual(await notices(filingId), ['filing.due_soon', 'filing.overdue']);
  }));
});
