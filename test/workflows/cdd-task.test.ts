import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { initiateCdd, onRiskClassChanged, transitionCddTask } from '../../src/domains/cdd';
import { addCddEvidence } from '../../src/domains/cdd/cdd.service';
import type { SessionUser } from '../../src/http/context';
import { HttpError } from '../../src/http/errors';
import { CDD_REVIEW_WORKFLOW_TYPE, cddReviewStateQuery, cddReviewWorkflowId, type CddReviewInput } from '../../workflows/cdd/cdd-review.contract';
import { cddTaskStateQuery, cddTaskTransitionUpdate } from '../../workflows/cdd/cdd-task.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { insertApprovedEdd } from '../helpers/edd-fixture';

const actorOf = (u: { cod_utente: string; username: string; ruoli: string[] }): MachineActor => ({ id: u.cod_utente, username: u.username, roles: u.ruoli });

async function httpError(p: Promise<unknown>): Promise<HttpError> {
  try { await p; } catch (err) {
    assert.ok(err instanceof HttpError, `expected an HTTP refusal, got ${err}`);
    return err;
  }
  assert.fail('the change was accepted');
}

/**
 * The CDD task on the real dev server with the real worker: every step through the workflow,
 * the rows and audit events it writes, its search attributes, the periodic review it schedules
 * on completion (a running workflow) and the earlier review it cancels.
 */
describe('CDD task workflow (dev server)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: MachineActor;
  let co: MachineActor;
  let co2: MachineActor;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    analyst = actorOf(await env.createUser({ tenant, roles: ['analyst'] }));
    co = actorOf(await env.createUser({ tenant, roles: ['co'] }));
    co2 = actorOf(await env.createUser({ tenant, roles: ['co'] }));
  });

  const deps = () => ({ db: env.deps.db, client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue });

  async function customer(over: Record<string, unknown> = {}): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, classe_rischio: 'alto', created_by: 'test', ...over,
    });
    return cod;
  }

  async function completedQuestionnaire(cod: string, taskId: string) {
    await env.ownerDb('questionari').insert({
      id: randomUUID(), cod_azienda: tenant, cod_questionario: `QST-${String(900000 + n).padStart(6, '0')}`, template_id: '5c0d4a5e-6b0f-4f3a-9a41-0c2d7e1b9a01',
      template_codice: 'kyc-standard', template_versione: 1, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', cdd_pratica_id: taskId,
      risposte: JSON.stringify({ scopo_rapporto: 'investimento' }), stato: 'completato', created_by: 'test', completed_by: 'test', completed_at: new Date(),
    });
  }

  /** The customer's first periodic review, as onboarding approval leaves it: a row and its running timer. */
  async function firstReview(cod: string) {
    const reviewId = randomUUID();
    const workflowId = cddReviewWorkflowId(tenant, reviewId);
    const dueAt = new Date(Date.now() + 3 * 365 * 86_400_000);
    await env.ownerDb('cdd_reviews').insert({ id: reviewId, cod_azienda: tenant, cod_anagrafe: cod, motivo: 'prima_revisione', classe_rischio: 'medio', due_at: dueAt, workflow_id: workflowId });
    const input: CddReviewInput = { codAzienda: tenant, codAnagrafe: cod, reviewId, dueAt: dueAt.toISOString() };
    const h = await env.temporal.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId, taskQueue: env.deps.config.temporal.taskQueue, args: [input] });
    await h.query(cddReviewStateQuery);
    return { reviewId, h };
  }

  it('runs a high-risk task end to end: level, four-eyes, completion, the next review started and the old one cancelled', async () => {
    const cod = await customer();
    const old = await firstReview(cod);
    const { task, created } = await initiateCdd(deps(), { codAzienda: tenant, actor: analyst, codAnagrafe: cod, motivo: 'manuale' });
    assert.ok(created);
    assert.equal(task.livello, 'rafforzata');
    assert.deepEqual(task.motivazioni_livello.map((m) => m.codice), ['classe_alta']);
    const h = env.temporal.workflow.getHandle(task.workflow_id);
    const sa = (await h.describe()).searchAttributes as Record<string, unknown[]>;
    assert.deepEqual([sa.RecordType, sa.RecordId, sa.RecordStatus], [['cdd_task'], [task.id], ['open']]);

    await transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: analyst, action: 'start' });
    // Invalid in this state: 409 with what the state allows.
    const invalid = await httpError(transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: co, action: 'complete' }));
    assert.equal(invalid.status, 409);
    assert.deepEqual([...(invalid.extra.allowed_actions as string[])].sort(), ['abstain', 'add-note', 'review']);
    await transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: co, action: 'review' });
    assert.equal((await h.query(cddTaskStateQuery)).reviewRequestedBy, co.id);

    // The compliance officer who asked for the review cannot complete it: four eyes.
    const own = await httpError(transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: co, action: 'complete' }));
    assert.equal(own.status, 403);
    assert.equal(own.code, 'FOUR_EYES_REQUIRED');
    // The workflow's own validator says the same to a caller that goes around the command.
    try {
      await h.executeUpdate(cddTaskTransitionUpdate, { args: [{ action: 'complete', actor: co }] });
      assert.fail('accepted');
    } catch (err) {
      assert.ok(err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure);
      assert.equal(err.cause.type, 'FOUR_EYES_REQUIRED');
    }
    // An analyst may not complete an enhanced task whatever the tenant's policy.
    assert.equal((await httpError(transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: analyst, action: 'complete' }))).code, 'FORBIDDEN');

    await completedQuestionnaire(cod, task.id);
    await insertApprovedEdd(env.ownerDb, tenant, cod, task.id);
    const done = await transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: co2, action: 'complete' });
    assert.equal(done.stato, 'completed');
    assert.equal(done.completed_by, co2.id);
    assert.equal(await h.result().then((s) => s.status), 'completed');

    // High risk: the next review in one year (cdd.review_years_high), its timer running.
    const next = await env.ownerDb('cdd_reviews').where({ id: done.next_review_id }).first();
    const years = (new Date(next.due_at).getTime() - Date.now()) / (365.25 * 86_400_000);
    assert.ok(Math.abs(years - 1) < 0.01, `next review in ${years} years`);
    const nextState = await env.temporal.workflow.getHandle(next.workflow_id).query(cddReviewStateQuery);
    assert.equal(nextState.status, 'scheduled');

    // The review scheduled at onboarding is cancelled through its own workflow (row, audit event).
    assert.equal(await old.h.result(), 'cancelled');
    const oldRow = await env.ownerDb('cdd_reviews').where({ id: old.reviewId }).first();
    assert.equal(oldRow.stato, 'annullata');
    const oldAudit = await env.ownerDb('audit_events').where({ entity_type: 'cdd_review', entity_id: old.reviewId });
    assert.deepEqual(oldAudit.map((a) => [a.action, a.actor]), [['cdd_review.cancel', 'system']]);
    assert.match(oldAudit[0].data.reason, new RegExp(task.cod_pratica));

    const audit = await env.ownerDb('audit_events').where({ entity_type: 'cdd_task', entity_id: task.id }).orderBy('id');
    assert.deepEqual(audit.map((a) => a.action), ['cdd_task.create', 'cdd_task.start', 'cdd_task.review', 'cdd_task.complete']);
    assert.equal(audit[3].data.edd, 'approvata', 'the completion records the approved EDD case it relied on');

    // A finished task's workflow has ended: the machine answers from the row.
    const late = await httpError(transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: co, action: 'abstain', nota: 'x' }));
    assert.equal(late.status, 409);
  });

  it('opens one task per customer under concurrent initiations', async () => {
    const cod = await customer({ classe_rischio: 'medio' });
    const results = await Promise.all([1, 2, 3].map(() => initiateCdd(deps(), { codAzienda: tenant, actor: analyst, codAnagrafe: cod, motivo: 'manuale' })));
    assert.equal(new Set(results.map((r) => r.task.id)).size, 1);
    assert.equal(results.filter((r) => r.created).length, 1);
    const rows = await env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant, cod_anagrafe: cod });
    assert.equal(rows.length, 1);
    assert.equal(rows[0].livello, 'ordinaria');
  });

  it('a risk class change (one event key) starts at most one task, even after that task is closed', async () => {
    const cod = await customer({ classe_rischio: 'basso' });
    // The risk area's call when a released assessment changes the class.
    const event = { codAzienda: tenant, actor: co, codAnagrafe: cod, da: 'medio', a: 'basso', riferimento: 'VAL-000001' };
    const first = await onRiskClassChanged(deps(), event);
    assert.ok(first.created);
    assert.equal(first.task.motivo, 'cambio_classe_rischio');
    assert.deepEqual(first.task.origine, { da: 'medio', a: 'basso', riferimento: 'VAL-000001' });
    await transitionCddTask(deps(), { codAzienda: tenant, taskId: first.task.id, actor: co, action: 'delete', nota: 'Aperta per prova' });
    const again = await onRiskClassChanged(deps(), event);
    assert.equal(again.created, false);
    assert.equal(again.task.id, first.task.id);
    assert.equal((await env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant, cod_anagrafe: cod })).length, 1);
  });

  it('adds evidence to a task being worked (with its file named by hash), and refuses it on a closed task', async () => {
    const cod = await customer({ classe_rischio: 'basso' });
    const { task } = await initiateCdd(deps(), { codAzienda: tenant, actor: analyst, codAnagrafe: cod, motivo: 'manuale' });
    const user = { cod_utente: analyst.id, username: analyst.username, ruoli: ['analyst'] } as unknown as SessionUser;
    const sha256 = 'a'.repeat(64);
    const ev = await addCddEvidence(env.deps.db, {
      codAzienda: tenant, user, task: task.cod_pratica, tipo: 'documento', descrizione: 'Visura camerale aggiornata',
      file: { sha256, nome_file: 'visura.pdf', mime: 'application/pdf', dimensione: 1234 },
    });
    assert.equal(ev.cdd_pratica_id, task.id);
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'cdd_task', entity_id: task.id, action: 'cdd_task.evidence' });
    assert.equal(audit[0].data.sha256, sha256);
    assert.equal((await httpError(addCddEvidence(env.deps.db, { codAzienda: tenant, user, task: task.id, tipo: 'nota', descrizione: '   ' }))).status, 422);
    await transitionCddTask(deps(), { codAzienda: tenant, taskId: task.id, actor: co, action: 'delete', nota: 'Prova' });
    assert.equal((await httpError(addCddEvidence(env.deps.db, { codAzienda: tenant, user, task: task.id, tipo: 'nota', descrizione: 'Tardiva' }))).status, 422);
    const otherTenant = await env.createTenant();
    assert.equal((await httpError(addCddEvidence(env.deps.db, { codAzienda: otherTenant, user, task: task.id, tipo: 'nota', descrizione: 'x' }))).status, 404);
  });
});
