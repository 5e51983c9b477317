import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createCaseActivities } from '../../activities/case/case.activities';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { caseWorkflowId } from '../../workflows/case/case.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The projection activities against real PostgreSQL: idempotent under retries, tenant-bound. */
describe('case activities', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let acts: ReturnType<typeof createCaseActivities>;
  before(async () => {
    env = await getTestEnv();
    acts = createCaseActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config });
  });

  it('writes each projection once even when an activity is retried, and notifies once on overdue', async () => {
    const tenant = await env.createTenant();
    const opener = await env.createUser({ tenant, roles: ['analyst'] });
    const assignee = await env.createUser({ tenant, roles: ['sos'] });
    const coA = await env.createUser({ tenant, roles: ['co'] });
    const coB = await env.createUser({ tenant, roles: ['co', 'admin'] });
    await env.createUser({ tenant, roles: ['viewer'] });
    const otherTenant = await env.createTenant();
    await env.createUser({ tenant: otherTenant, roles: ['co'] });

    const caseId = randomUUID();
    const actor = { id: opener.cod_utente, username: opener.username, roles: ['analyst'] };
    const creation = {
      codAzienda: tenant, caseId, workflowId: caseWorkflowId(tenant, caseId), actor, slaDays: 30, slaDueAt: new Date().toISOString(),
      data: { titolo: 'Retry', descrizione: '', tipo: 'altro' as const, priorita: 'media' as const, assegnatario: assignee.cod_utente },
    };
    await acts.createCaseProjection(creation);
    await acts.createCaseProjection(creation);
    const transition = { codAzienda: tenant, caseId, transitionId: randomUUID(), action: 'escalate' as const, from: 'open' as const, to: 'escalated' as const, actor };
    await acts.projectCaseTransition(transition);
    await acts.projectCaseTransition(transition);

    const first = await acts.markCaseOverdue({ codAzienda: tenant, caseId, slaDueAt: creation.slaDueAt });
    const second = await acts.markCaseOverdue({ codAzienda: tenant, caseId, slaDueAt: creation.slaDueAt });
    assert.equal(first.notified, 4, 'two compliance officers, the opener and the assignee');
    assert.equal(second.notified, 0, 'the retry adds nothing');

    const row = await env.ownerDb('cases').where({ id: caseId }).first();
    assert.equal(row.stato, 'escalated');
    assert.equal(row.overdue, true);
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'case', entity_id: caseId }).orderBy('id');
    assert.deepEqual(audit.map((a) => a.action), ['case.create', 'case.escalate', 'case.overdue']);
    const events = await env.ownerDb('case_events').where({ case_id: caseId });
    assert.equal(events.length, 3);
    const notes = await env.ownerDb('notifications').where({ entity_id: caseId });
    assert.deepEqual(notes.map((n) => n.cod_utente).sort(), [opener, assignee, coA, coB].map((u) => u.cod_utente).sort());
    assert.ok(notes.every((n) => n.cod_azienda === tenant && n.link === `/casi/${caseId}` && n.tipo === 'case_overdue'));
    assert.equal((await verifyAuditChain(env.ownerDb, tenant)).ok, true);
  });

  it('cannot touch another tenant\'s case (row-level security)', async () => {
    const tenant = await env.createTenant();
    const intruderTenant = await env.createTenant();
    const u = await env.createUser({ tenant, roles: ['analyst'] });
    const caseId = randomUUID();
    const actor = { id: u.cod_utente, username: u.username, roles: ['analyst'] };
    await acts.createCaseProjection({
      codAzienda: tenant, caseId, workflowId: caseWorkflowId(tenant, caseId), actor, slaDays: 30, slaDueAt: new Date().toISOString(),
      data: { titolo: 'Mio', descrizione: '', tipo: 'altro', priorita: 'media' },
    });
    await assert.rejects(
      acts.projectCaseTransition({ codAzienda: intruderTenant, caseId, transitionId: randomUUID(), action: 'escalate', from: 'open', to: 'escalated', actor }),
      (err: Error & { type?: string }) => err.type === 'CASE_NOT_FOUND',
    );
    assert.equal((await env.ownerDb('cases').where({ id: caseId }).first()).stato, 'open');
  });
});
