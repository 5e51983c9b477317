import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { createCddSweepActivities } from '../../activities/cdd/cdd-sweep.activities';
import { createCddTaskActivities } from '../../activities/cdd/cdd-task.activities';
import { enableTenantRls } from '../../src/db/rls';
import { workflowsEntry } from '../../temporal/bundle';
import { CDD_REVIEW_WORKFLOW_TYPE, cddReviewStateQuery, cddReviewWorkflowId, type CddReviewInput } from '../../workflows/cdd/cdd-review.contract';
import { CDD_SWEEP_WORKFLOW_TYPE, type CddSweepTenantResult } from '../../workflows/cdd/cdd-sweep.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { startTimeSkippingEnv } from '../helpers/time-skipping';

const DAY = 86_400_000;

/**
 * The events that open CDD tasks without anybody asking: a periodic review that falls due (its
 * timer runs years on the time-skipping server, with the production durations), a document
 * about to expire and a new screening match, each turned into one task by the sweep that the
 * `cdd-sweep` Schedule runs, however often it runs.
 */
describe('CDD task events: periodic review due, document expiry, new match, onboarding (time-skipping server)', function () {
  this.timeout(240_000);
  let ts: TestWorkflowEnvironment;
  let env: TestEnv;
  let worker: Worker;
  let running: Promise<void>;
  let tenant: string;
  let n = 0;
  const taskQueue = 'cdd-task-timers-test';

  before(async () => {
    env = await getTestEnv();
    await ensureDocumentsTable(env);
    ts = await startTimeSkippingEnv();
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch };
    worker = await Worker.create({
      connection: ts.nativeConnection, taskQueue, workflowsPath: workflowsEntry(),
      activities: { ...createCddReviewActivities(deps), ...createCddTaskActivities(deps), ...createCddSweepActivities(deps) },
    });
    running = worker.run();
    tenant = await env.createTenant();
    await env.createUser({ tenant, roles: ['co'] });
  });
  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await ts?.teardown();
  });

  async function customer(over: Record<string, unknown> = {}): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, classe_rischio: 'medio', created_by: 'test', ...over });
    return cod;
  }

  const sweep = async (): Promise<CddSweepTenantResult> => {
    const all = await ts.client.workflow.execute(CDD_SWEEP_WORKFLOW_TYPE, { workflowId: `cdd-sweep-test:${randomUUID()}`, taskQueue, args: [] }) as CddSweepTenantResult[];
    const mine = all.find((r) => r.codAzienda === tenant);
    assert.ok(mine, 'the sweep visits every active tenant');
    return mine;
  };
  const tasksOf = (cod: string) => env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant, cod_anagrafe: cod }).orderBy('created_at');

  it('a periodic review that falls due opens a CDD task (revisione_periodica), once', async () => {
    const cod = await customer();
    const reviewId = randomUUID();
    const dueAt = Number(await ts.currentTimeMs()) + 3 * 365 * DAY;
    const workflowId = cddReviewWorkflowId(tenant, reviewId);
    await env.ownerDb('cdd_reviews').insert({ id: reviewId, cod_azienda: tenant, cod_anagrafe: cod, motivo: 'prima_revisione', classe_rischio: 'medio', due_at: new Date(dueAt), workflow_id: workflowId });
    const input: CddReviewInput = { codAzienda: tenant, codAnagrafe: cod, reviewId, dueAt: new Date(dueAt).toISOString() };
    const h = await ts.client.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId, taskQueue, args: [input] });
    await h.query(cddReviewStateQuery);

    // Not due yet: the sweep finds nothing for this customer.
    await sweep();
    assert.equal((await tasksOf(cod)).length, 0);

    await ts.sleep(3 * 365 * DAY + 60_000);
    assert.equal(await h.result(), 'due');
    assert.equal((await env.ownerDb('cdd_reviews').where({ id: reviewId }).first()).stato, 'scaduta');
    const first = await sweep();
    assert.ok(first.created >= 1);
    const [task, ...more] = await tasksOf(cod);
    assert.equal(more.length, 0);
    assert.equal(task.motivo, 'revisione_periodica');
    assert.equal(task.review_id, reviewId);
    assert.equal(task.origine.review_id, reviewId);
    assert.equal(task.livello, 'ordinaria');
    assert.equal(task.stato, 'open');

    await sweep();
    assert.equal((await tasksOf(cod)).length, 1, 'the next run of the sweep opens nothing more');
  });

  it('a document about to expire opens one task per document and expiry date, within the tenant\'s notice', async () => {
    const cod = await customer();
    const today = new Date();
    const inDays = (d: number) => new Date(today.getTime() + d * DAY).toISOString().slice(0, 10);
    const doc = async (scadenza: string, stato = 'valido') => {
      const id = randomUUID();
      await env.ownerDb('documenti').insert({ id, cod_azienda: tenant, cod_anagrafe: cod, tipo: 'carta_identita', numero: `CA${n}${id.slice(0, 4)}`, data_scadenza: scadenza, stato, created_by: 'test' });
      return id;
    };
    const soon = await doc(inDays(20));
    await doc(inDays(90));
    await doc(inDays(10), 'sostituito');

    await sweep();
    const tasks = await tasksOf(cod);
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].motivo, 'documento_in_scadenza');
    assert.equal(tasks[0].origine.documento_id, soon);
    assert.equal(new Date(tasks[0].due_at).toISOString().slice(0, 10), inDays(20), 'due by the document\'s expiry');
    await sweep();
    assert.equal((await tasksOf(cod)).length, 1, 'the same document opens nothing more');

    // A longer notice reaches the second document: it joins the customer's open task instead of opening another.
    await env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'cdd.document_expiry_notice_days', valore: JSON.stringify(120), updated_by: 'test' });
    const joined = await sweep();
    assert.equal(joined.joined, 1);
    assert.equal((await tasksOf(cod)).length, 1);
    assert.equal((await env.ownerDb('cdd_attivazioni').where({ cod_azienda: tenant, cdd_pratica_id: tasks[0].id })).length, 2);
  });

  it('a new screening match of a customer opens a task (nuovo_match_screening); a dismissed one does not', async () => {
    const cod = await customer();
    const clean = await customer();
    for (const [who, stato] of [[cod, 'open'], [clean, 'false_positive']] as const) {
      const subject = randomUUID();
      await env.ownerDb('screening_subjects').insert({ id: subject, cod_azienda: tenant, tipo: 'person', nome: `Soggetto ${who}`, cod_anagrafe: who });
      await env.ownerDb('screening_matches').insert({
        id: randomUUID(), cod_azienda: tenant, subject_id: subject, list_name: 'EU', entry_id: `e-${who}`, entry_hash: 'h', score: 0.93, stato,
      });
    }
    await sweep();
    const [task] = await tasksOf(cod);
    assert.equal(task?.motivo, 'nuovo_match_screening');
    assert.equal(task.origine.lista, 'EU');
    assert.ok(task.motivazioni_livello.some((m: { codice: string }) => m.codice === 'match_screening'), 'the open match is a reason of the level');
    assert.equal((await tasksOf(clean)).length, 0);
  });

  it('an approved onboarding opens the new customer\'s task (onboarding), once', async () => {
    const cod = await customer();
    const caseId = randomUUID();
    await env.ownerDb('onboarding_cases').insert({ id: caseId, cod_azienda: tenant, stato: 'approved', cod_anagrafe: cod, workflow_id: `onboarding:${tenant}:${caseId}` });
    await sweep();
    await sweep();
    const tasks = await tasksOf(cod);
    assert.deepEqual(tasks.map((t) => [t.motivo, t.origine.onboarding_case_id]), [['onboarding', caseId]]);
  });
});

/**
 * The records area owns `documenti` (its migration); on a branch without it, the table is made
 * here with the columns of its contract, so the sweep is tested against the same shape.
 */
async function ensureDocumentsTable(env: TestEnv): Promise<void> {
  const { rows: [t] } = await env.ownerDb.raw("select to_regclass('public.documenti') is not null as exists");
  if (t.exists) return;
  await env.ownerDb.schema.createTable('documenti', (d) => {
    d.uuid('id').primary();
    d.text('cod_azienda').notNullable().references('aziende.cod_azienda');
    d.text('cod_anagrafe').notNullable();
    d.text('tipo').notNullable();
    d.text('numero');
    d.date('data_scadenza');
    d.text('stato').notNullable().defaultTo('valido');
    d.text('created_by').notNullable();
    d.timestamp('created_at', { useTz: true }).notNullable().defaultTo(env.ownerDb.fn.now());
  });
  await enableTenantRls(env.ownerDb, 'documenti');
  await env.ownerDb.raw(`grant select, insert, update, delete on documenti to ${env.deps.config.appDbRole}`);
}
