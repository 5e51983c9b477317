import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { createCddTaskActivities, type EddCasesReader } from '../../activities/cdd/cdd-task.activities';
import { messaging } from '../../activities/outbox/messaging';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { cddTaskWorkflowId, type CddTaskNewData, type CddTaskProjection } from '../../workflows/cdd/cdd-task.contract';
import type { CddTaskAction, CddTaskStatus } from '../../workflows/cdd/cdd-task.machine';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * The CDD task's projections against real PostgreSQL: each step written once under retries,
 * and the completion's checks (questionnaire, approved EDD case through the EDD area's reader).
 */
describe('CDD task activities', function () {
  this.timeout(60_000);
  let env: TestEnv;
  const analyst = { id: '00000000-0000-4000-8000-0000000000a1', username: 'analista', roles: ['analyst'] };
  const co = { id: '00000000-0000-4000-8000-0000000000c1', username: 'co', roles: ['co'] };

  before(async () => { env = await getTestEnv(); });

  const acts = (edd: EddCasesReader | null) => {
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: async () => undefined };
    return createCddTaskActivities(deps, messaging(deps), edd);
  };

  /** An enhanced task moved to pending_review, with its completed questionnaire. */
  async function enhancedTask(a: ReturnType<typeof acts>) {
    const tenant = await env.createTenant();
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente', pep: true, classe_rischio: 'alto', created_by: 'test' });
    const taskId = randomUUID();
    const data: CddTaskNewData = {
      cod_anagrafe: 'ANA-000001', motivo: 'manuale', livello: 'rafforzata', motivazioni_livello: [{ codice: 'pep', testo: 'PEP' }], classe_rischio: 'alto', pep: true,
      analista_puo_completare: false, origine: {}, due_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    };
    const created = await a.createCddTaskProjection({ codAzienda: tenant, taskId, workflowId: cddTaskWorkflowId(tenant, taskId), actor: analyst, data });
    assert.equal(created.record?.cod_pratica, 'CDD-000001');
    const again = await a.createCddTaskProjection({ codAzienda: tenant, taskId, workflowId: cddTaskWorkflowId(tenant, taskId), actor: analyst, data });
    assert.equal(again.record?.id, taskId, 'a retried create answers the row it wrote');
    const step = (action: CddTaskAction, from: CddTaskStatus, to: CddTaskStatus): CddTaskProjection => ({ codAzienda: tenant, taskId, transitionId: randomUUID(), action, from, to, actor: analyst });
    await a.projectCddTaskTransition(step('start', 'open', 'in_progress'));
    await a.projectCddTaskTransition(step('review', 'in_progress', 'pending_review'));
    await env.ownerDb('questionari').insert({
      id: randomUUID(), cod_azienda: tenant, cod_questionario: 'QST-000001', template_id: '5c0d4a5e-6b0f-4f3a-9a41-0c2d7e1b9a01', template_codice: 'kyc-standard',
      template_versione: 1, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', cdd_pratica_id: taskId, risposte: '{}', stato: 'completato',
      created_by: 'test', completed_by: 'test', completed_at: new Date(),
    });
    const complete: CddTaskProjection = { ...step('complete', 'pending_review', 'completed'), actor: co };
    return { tenant, taskId, complete };
  }

  it('refuses to complete an enhanced task without an EDD case approved since it opened', async () => {
    const stale = new Date(Date.now() - 365 * 86_400_000);
    const a = acts(async () => [{ stato: 'approved', approved_at: stale }, { stato: 'open', approved_at: null }]);
    const t = await enhancedTask(a);
    await assert.rejects(a.projectCddTaskTransition(t.complete), (err) => err instanceof ApplicationFailure && err.type === 'EDD_REQUIRED' && err.nonRetryable);
    const row = await env.ownerDb('cdd_pratiche').where({ id: t.taskId }).first();
    assert.equal(row.stato, 'pending_review', 'nothing written');
    assert.equal((await env.ownerDb('cdd_reviews').where({ cod_azienda: t.tenant })).length, 0);
  });

  it('completes with an approved EDD case, once under retries: one audit event, one next review', async () => {
    const a = acts(async () => [{ stato: 'closed', approved_at: new Date(Date.now() + 1000) }]);
    const t = await enhancedTask(a);
    const first = await a.projectCddTaskTransition(t.complete);
    const retry = await a.projectCddTaskTransition(t.complete);
    assert.equal(first.record.stato, 'completed');
    assert.equal(retry.nextReview?.reviewId, first.nextReview?.reviewId, 'the retry answers the review the first attempt scheduled');
    assert.equal((await env.ownerDb('cdd_reviews').where({ cod_azienda: t.tenant })).length, 1);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: t.tenant, entity_id: t.taskId, action: 'cdd_task.complete' });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].data.edd, 'approvata');
    assert.equal((await verifyAuditChain(env.ownerDb, t.tenant)).ok, true);
  });
});
