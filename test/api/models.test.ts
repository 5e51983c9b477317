import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { Case } from '../../src/domains/cases/case.model';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The Objection models: tenant rows only inside a tenant transaction, and graph reads through the relation mappings. */
describe('models: Objection on the tenant transaction', () => {
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let caseId: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    const analyst = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    const r = await analyst.post('/api/cases', { titolo: 'Grafo', tipo: 'indagine', priorita: 'alta' });
    assert.equal(r.status, 201, r.text);
    caseId = r.body.id;
    assert.equal((await analyst.post(`/api/cases/${caseId}/events`, { tipo: 'nota', testo: 'Una nota' })).status, 201);
  });

  it('reads a case with its timeline and audit trail through the relation mappings', async () => {
    const c = await withTenant(env.deps.db, { codAzienda: tenant }, async (trx) => Case.of(trx).findById(caseId).withGraphFetched('[events, audit]'));
    assert.ok(c);
    assert.equal(c.titolo, 'Grafo');
    assert.deepEqual(c.events!.map((e) => e.tipo), ['apertura', 'nota']);
    assert.deepEqual(c.audit!.map((a) => a.action), ['case.create', 'case.add-event']);
    assert.ok(c.audit!.every((a) => a.entity_type === undefined || a.entity_type === 'case'));
  });

  it('sees nothing of another tenant, and refuses a query outside a tenant transaction', async () => {
    const seen = await withTenant(env.deps.db, { codAzienda: other }, async (trx) => Case.of(trx).findById(caseId));
    assert.equal(seen, undefined, "another tenant's case does not exist here");
    assert.throws(() => Case.of(env.deps.db as never), /inside withTenant/);
    assert.throws(() => Case.of(undefined as never), /inside withTenant/);
  });
});
