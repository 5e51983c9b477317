import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { createCddSweepActivities } from '../../activities/cdd/cdd-sweep.activities';
import { createCddTaskActivities } from '../../activities/cdd/cdd-task.activities';
import { workflowsEntry } from '../../temporal/bundle';
import { CDD_REVIEW_WORKFLOW_TYPE, cddReviewStateQuery, cddReviewWorkflowId, type CddReviewInput } from '../../workflows/cdd/cdd-review.contract';
import { CDD_SWEEP_WORKFLOW_TYPE, type CddSweepTenantResult } from '../../workflows/cdd/cdd-sweep.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';

const DAY = 86_400_000;

/**
 * The events that open CDD tasks without anybody asking: a periodic review that falls due (its
 * timer runs years on the time-skipping server, with the production durations), a document
 * about to expire and a new screening match, each turned into one task by the sweep that the
 * `cdd-sweep` Schedule runs, however often it runs.
 */
describe('CDD task events: periodic review due, document expiry, new match, onboarding (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let n = 0;
  // Codes of documents written straight to the table (the records area's command numbers its own).
  let docSeq = 0;
  // Filled in once the stack is up: each test's worker is made from it (time-skipping suite).
  const activities: Record<string, unknown> = {};

  before(async () => {
    env = await getTestEnv();
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch };
    Object.assign(activities, { ...createCddReviewActivities(deps), ...createCddTaskActivities(deps), ...createCddSweepActivities(deps) });
    tenant = await env.createTenant();
    await env.createUser({ tenant, roles: ['co'] });
  });
  // After the stack's hook: the test stack installs the SDK's Runtime first, the time-skipping server then uses it.
  const suite = useTimeSkippingSuite({ name: 'cdd-task-timers', workflowsPath: workflowsEntry(), activities });

  async function customer(over: Record<string, unknown> = {}): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, classe_rischio: 'medio', created_by: 'test', ...over });
    return cod;
  }

  const sweep = async (t: TimeSkippingTest): Promise<CddSweepTenantResult> => {
    const all = await t.client.workflow.execute(CDD_SWEEP_WORKFLOW_TYPE, { workflowId: `cdd-sweep-test:${randomUUID()}`, taskQueue: t.taskQueue, args: [] }) as CddSweepTenantResult[];
    const mine = all.find((r) => r.codAzienda === tenant);
    assert.ok(mine, 'the sweep visits every active tenant');
    return mine;
  };
  const tasksOf = (cod: string) => env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant, cod_anagrafe: cod }).orderBy('created_at');

  it('a periodic review that falls due opens a CDD task (revisione_periodica), once', () => suite.run(async (t) => {
    const cod = await customer();
    const reviewId = randomUUID();
    const dueAt = await t.now() + 3 * 365 * DAY;
    const workflowId = cddReviewWorkflowId(tenant, reviewId);
    await env.ownerDb('cdd_reviews').insert({ id: reviewId, cod_azienda: tenant, cod_anagrafe: cod, motivo: 'prima_revisione', classe_rischio: 'medio', due_at: new Date(dueAt), workflow_id: workflowId });
    const input: CddReviewInput = { codAzienda: tenant, codAnagrafe: cod, reviewId, dueAt: new Date(dueAt).toISOString() };
    const h = await t.client.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId, taskQueue: t.taskQueue, args: [input] });
    await h.query(cddReviewStateQuery);

    // Not due yet: the sweep finds nothing for this customer.
    await sweep(t);
    assert.equal((await tasksOf(cod)).length, 0);

    await t.sleep(3 * 365 * DAY + 60_000);
    assert.equal(await h.result(), 'due');
    assert.equal((await env.ownerDb('cdd_reviews').where({ id: reviewId }).first()).stato, 'scaduta');
    const first = await sweep(t);
    assert.ok(first.created >= 1);
    const [task, ...more] = await tasksOf(cod);
    assert.equal(more.length, 0);
    assert.equal(task.motivo, 'revisione_periodica');
    assert.equal(task.review_id, reviewId);
    assert.equal(task.origine.review_id, reviewId);
    assert.equal(task.livello, 'ordinaria');
    assert.equal(task.stato, 'open');

    await sweep(t);
    assert.equal((await tasksOf(cod)).length, 1, 'the next run of the sweep opens nothing more');
  }));

  it('a document about to expire opens one task per document and expiry date, within the tenant\'s notice', () => suite.run(async (t) => {
    const cod = await customer();
    const today = new Date();
    const inDays = (d: number) => new Date(today.getTime() + d * DAY).toISOString().slice(0, 10);
    const doc = async (scadenza: string, stato = 'valido') => {
      const id = randomUUID();
      await env.ownerDb('documenti').insert({ id, cod_azienda: tenant, cod_documento: `DOC-${900000 + ++docSeq}`, cod_anagrafe: cod, tipo: 'carta_identita', numero: `CA${n}${id.slice(0, 4)}`, data_scadenza: scadenza, stato, created_by: 'test' });
      return id;
    };
    const soon = await doc(inDays(20));
    await doc(inDays(90));
    await doc(inDays(10), 'sostituito');

    await sweep(t);
    const tasks = await tasksOf(cod);
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].motivo, 'documento_in_scadenza');
    assert.equal(tasks[0].origine.documento_id, soon);
    assert.equal(new Date(tasks[0].due_at).toISOString().slice(0, 10), inDays(20), 'due by the document\'s expiry');
    await sweep(t);
    assert.equal((await tasksOf(cod)).length, 1, 'the same document opens nothing more');

    // A longer notice reaches the second document: it joins the customer's open task instead of opening another.
    await env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'cdd.document_expiry_notice_days', valore: JSON.stringify(120), updated_by: 'test' });
    const joined = await sweep(t);
    assert.equal(joined.joined, 1);
    assert.equal((await tasksOf(cod)).length, 1);
    assert.equal((await env.ownerDb('cdd_attivazioni').where({ cod_azienda: tenant, cdd_pratica_id: tasks[0].id })).length, 2);
  }));

  it('a new screening match of a customer opens a task (nuovo_match_screening); a dismissed one does not', () => suite.run(async (t) => {
    const cod = await customer();
    const clean = await customer();
    for (const [who, stato] of [[cod, 'open'], [clean, 'false_positive']] as const) {
      const subject = randomUUID();
      await env.ownerDb('screening_subjects').insert({ id: subject, cod_azienda: tenant, tipo: 'person', nome: `Soggetto ${who}`, cod_anagrafe: who });
      await env.ownerDb('screening_matches').insert({
        id: randomUUID(), cod_azienda: tenant, subject_id: subject, list_name: 'EU', entry_id: `e-${who}`, entry_hash: 'h', score: 0.93, stato,
      });
    }
    await sweep(t);
    const [task] = await tasksOf(cod);
    assert.equal(task?.motivo, 'nuovo_match_screening');
    assert.equal(task.origine.lista, 'EU');
    assert.ok(task.motivazioni_livello.some((m: { codice: string }) => m.codice === 'match_screening'), 'the open match is a reason of the level');
    assert.equal((await tasksOf(clean)).length, 0);
  }));

  it('an approved onboarding opens the new customer\'s task (onboarding), once', () => suite.run(async (t) => {
    const cod = await customer();
    const caseId = randomUUID();
    await env.ownerDb('onboarding_cases').insert({ id: caseId, cod_azienda: tenant, stato: 'approved', cod_anagrafe: cod, workflow_id: `onboarding:${tenant}:${caseId}` });
    await sweep(t);
    await sweep(t);
    const tasks = await tasksOf(cod);
    assert.deepEqual(tasks.map((t) => [t.motivo, t.origine.onboarding_case_id]), [['onboarding', caseId]]);
  }));

  it('a scheduled review ends when every relationship of its customer has ended; an open relationship keeps it', () => suite.run(async (t) => {
    const review = async (cod: string) => {
      const reviewId = randomUUID();
      const dueAt = new Date(await t.now() + 2 * 365 * DAY).toISOString();
      const workflowId = cddReviewWorkflowId(tenant, reviewId);
      await env.ownerDb('cdd_reviews').insert({ id: reviewId, cod_azienda: tenant, cod_anagrafe: cod, motivo: 'prima_revisione', classe_rischio: 'medio', due_at: dueAt, workflow_id: workflowId });
      const h = await t.client.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId, taskQueue: t.taskQueue, args: [{ codAzienda: tenant, codAnagrafe: cod, reviewId, dueAt } satisfies CddReviewInput] });
      await h.query(cddReviewStateQuery);
      return { reviewId, h };
    };
    const rapporto = async (cod: string, chiuso: boolean) => env.ownerDb('rapporti').insert({
      cod_azienda: tenant, cod_rapporto: `RAP-${cod}`, cod_anagrafe: cod, tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test',
      stato: chiuso ? 'chiuso' : 'attivo', data_chiusura: chiuso ? '2026-10-31' : null,
    });
    const ended = await customer();
    await rapporto(ended, true);
    const open = await customer();
    await rapporto(open, false);
    const a = await review(ended);
    const b = await review(open);

    const r = await sweep(t);
    assert.ok(r.reviewsCancelled >= 1);
    const row = await env.ownerDb('cdd_reviews').where({ id: a.reviewId }).first();
    assert.equal(row.stato, 'annullata');
    assert.equal(await a.h.result(), 'cancelled');
    const [audit] = await env.ownerDb('audit_events').where({ entity_type: 'cdd_review', entity_id: a.reviewId, action: 'cdd_review.cancel' });
    assert.match(audit.data.reason, /rapporti del cliente sono chiusi \(l'ultimo il 31\/10\/2026\)/);
    assert.equal((await env.ownerDb('cdd_reviews').where({ id: b.reviewId }).first()).stato, 'programmata');

    await sweep(t);
    assert.equal((await env.ownerDb('audit_events').where({ entity_type: 'cdd_review', entity_id: a.reviewId, action: 'cdd_review.cancel' })).length, 1, 'cancelled once');
  }));
});
