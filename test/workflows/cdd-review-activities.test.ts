import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { cddReviewWorkflowId, type CddReviewChange } from '../../workflows/cdd/cdd-review.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The periodic review's projection against real PostgreSQL: once per change under retries, tenant-bound. */
describe('periodic CDD review activities', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let acts: ReturnType<typeof createCddReviewActivities>;
  before(async () => {
    env = await getTestEnv();
    acts = createCddReviewActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config });
  });

  async function review(tenant: string) {
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente', created_by: 'test' });
    const id = randomUUID();
    const dueAt = new Date('2030-01-01T00:00:00.000Z');
    await env.ownerDb('cdd_reviews').insert({
      id, cod_azienda: tenant, cod_anagrafe: 'ANA-000001', motivo: 'prima_revisione', classe_rischio: 'alto', due_at: dueAt, workflow_id: cddReviewWorkflowId(tenant, id),
    });
    return { id, dueAt };
  }
  const actor = { id: '00000000-0000-4000-8000-0000000000c0', username: 'co', roles: ['co'] };

  it('writes each change once even when the activity is retried', async () => {
    const tenant = await env.createTenant();
    const r = await review(tenant);
    const move: CddReviewChange = {
      codAzienda: tenant, reviewId: r.id, changeId: randomUUID(), action: 'reschedule', from: 'scheduled', to: 'scheduled', actor,
      dueAt: '2029-06-01T00:00:00.000Z', previousDueAt: r.dueAt.toISOString(), reason: 'Notizie negative',
    };
    await acts.projectCddReviewChange(move);
    await acts.projectCddReviewChange(move);
    const cancel: CddReviewChange = { ...move, changeId: randomUUID(), action: 'cancel', to: 'cancelled', previousDueAt: move.dueAt, reason: 'Rapporto cessato' };
    await acts.projectCddReviewChange(cancel);
    await acts.projectCddReviewChange(cancel);

    const row = await env.ownerDb('cdd_reviews').where({ id: r.id }).first();
    assert.deepEqual([row.stato, new Date(row.due_at).toISOString(), row.last_change_id], ['annullata', move.dueAt, cancel.changeId]);
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'cdd_review', entity_id: r.id }).orderBy('id'); // insertion order: seq is given by the sealer shortly after commit, and may still be null here
    assert.deepEqual(audit.map((a) => [a.action, a.data.from, a.data.to, a.data.reason]), [
      ['cdd_review.reschedule', 'programmata', 'programmata', 'Notizie negative'],
      ['cdd_review.cancel', 'programmata', 'annullata', 'Rapporto cessato'],
    ]);
    assert.equal(audit[0].data.previous_due_at, r.dueAt.toISOString());
    assert.equal(audit[1].data.previous_due_at, undefined, 'a cancellation keeps the date');
    assert.equal((await verifyAuditChain(env.ownerDb, tenant)).ok, true);
  });

  it('cannot touch another tenant\'s review (row-level security): not found, not retried', async () => {
    const owner = await env.createTenant();
    const intruder = await env.createTenant();
    const r = await review(owner);
    await assert.rejects(acts.projectCddReviewChange({
      codAzienda: intruder, reviewId: r.id, changeId: randomUUID(), action: 'cancel', from: 'scheduled', to: 'cancelled', actor,
      dueAt: r.dueAt.toISOString(), previousDueAt: r.dueAt.toISOString(), reason: 'x',
    }), (err: Error & { type?: string; nonRetryable?: boolean }) => err.type === 'CDD_REVIEW_NOT_FOUND' && err.nonRetryable === true);
    assert.equal((await env.ownerDb('cdd_reviews').where({ id: r.id }).first()).stato, 'programmata');
  });
});
