import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit/audit.chain';
import { testAction, waitForSealed } from '../helpers/audit';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

describe('audit API and pages', () => {
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient;
  let otherCo: TestClient;

  const append = (cod: string, action: string, entityId: string, data: Record<string, unknown> = {}, actor = 'mario.rossi') =>
    withTenant(env.deps.db, { codAzienda: cod }, (trx) => appendAudit(trx, { codAzienda: cod, actor, action: testAction(action.replace(/^test\./, '')), entityType: 'pratica', entityId, data }));

  before(async () => {
    env = await getTestEnv();
    [tenant, other] = [await env.createTenant(), await env.createTenant()];
    co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    otherCo = await env.login(await env.createUser({ tenant: other, roles: ['co'] }));
    await append(tenant, 'test.pratica.aperta', 'P-1', { importo: 1000 });
    await append(tenant, 'test.pratica.chiusa', 'P-1', { esito: 'ok' }, 'luigi.verdi');
    await append(tenant, 'test.pratica.aperta', 'P-2');
    await append(other, 'test.pratica.aperta', 'P-SEGRETA');
    // These tests read seq: wait for the worker's sealer (unsealed events are audit-sealer.test.ts's).
    await waitForSealed(env.ownerDb, tenant);
  });

  it('lists the tenant\'s events newest first, with filters and pagination', async () => {
    const all = await co.get('/api/audit/events');
    assert.equal(all.status, 200, all.text);
    const seqs = all.body.items.map((e: { seq: number }) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((x, y) => y - x));
    assert.ok(all.body.total >= 5); // azienda.created, utente.created, three of ours
    assert.ok(all.body.items.every((e: { cod_azienda: string }) => e.cod_azienda === tenant));
    assert.equal(all.body.limit, 50);
    assert.equal(all.body.offset, 0);

    const opened = await co.get('/api/audit/events?action=test.pratica.aperta');
    assert.deepEqual(opened.body.items.map((e: { entity_id: string }) => e.entity_id), ['P-2', 'P-1']);
    assert.equal(opened.body.total, 2);

    const byEntity = await co.get('/api/audit/events?entity_type=pratica&entity_id=P-1');
    assert.deepEqual(byEntity.body.items.map((e: { action: string }) => e.action), ['test.pratica.chiusa', 'test.pratica.aperta']);
    assert.deepEqual(byEntity.body.items[1].data, { importo: 1000 });

    const byActor = await co.get('/api/audit/events?actor=luigi.verdi');
    assert.deepEqual(byActor.body.items.map((e: { action: string }) => e.action), ['test.pratica.chiusa']);

    const page = await co.get('/api/audit/events?action=test.pratica.aperta&limit=1&offset=1');
    assert.equal(page.body.total, 2);
    assert.deepEqual(page.body.items.map((e: { entity_id: string }) => e.entity_id), ['P-1']);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    assert.equal((await co.get(`/api/audit/events?from=${encodeURIComponent(future)}`)).body.total, 0);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    assert.equal((await co.get(`/api/audit/events?to=${encodeURIComponent(past)}`)).body.total, 0);
    const window = await co.get(`/api/audit/events?action=test.pratica.aperta&from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}`);
    assert.equal(window.body.total, 2);
  });

  it('rejects malformed filters with 422 problem details', async () => {
    const r = await co.get('/api/audit/events?from=ieri&limit=0');
    assert.equal(r.status, 422);
    assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
    const paths = r.body.errors.map((e: { path: string }) => e.path);
    assert.ok(paths.includes('from') && paths.includes('limit'), JSON.stringify(r.body.errors));
  });

  it('isolates tenants: no foreign event is listed, naming another tenant is a 404', async () => {
    const mine = await co.get('/api/audit/events?entity_id=P-SEGRETA');
    assert.equal(mine.body.total, 0);
    assert.equal((await co.get(`/api/audit/events?cod_azienda=${other}`)).status, 404);
    const theirs = await otherCo.get('/api/audit/events?entity_type=pratica');
    assert.deepEqual(theirs.body.items.map((e: { entity_id: string }) => e.entity_id), ['P-SEGRETA']);
    const superadmin = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    const chosen = await superadmin.get(`/api/audit/events?cod_azienda=${other}&entity_type=pratica`);
    assert.equal(chosen.status, 200, chosen.text);
    assert.deepEqual(chosen.body.items.map((e: { entity_id: string }) => e.entity_id), ['P-SEGRETA']);
    const platform = await superadmin.get('/api/audit/events?limit=200');
    assert.equal(platform.status, 200);
    assert.ok(platform.body.items.length > 0 && platform.body.items.every((e: { cod_azienda: string }) => e.cod_azienda === '_platform'));
  });

  it('is reserved to admin, co, auditor and superadmin', async () => {
    const analyst = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    assert.equal((await analyst.get('/api/audit/events')).status, 403);
    assert.equal((await analyst.get('/api/audit/verify')).status, 403);
    assert.equal((await env.client().get('/api/audit/events')).status, 401);
    const auditor = await env.login(await env.createUser({ tenant, roles: ['auditor'] }));
    assert.equal((await auditor.get('/api/audit/events')).status, 200);
  });

  it('the application role cannot update or delete audit events', async () => {
    await assert.rejects(
      withTenant(env.deps.db, { codAzienda: tenant }, (trx) => trx('audit_events').where({ cod_azienda: tenant }).update({ actor: 'x' })),
      /permission denied/,
    );
    await assert.rejects(
      withTenant(env.deps.db, { codAzienda: tenant }, (trx) => trx('audit_events').where({ cod_azienda: tenant }).delete()),
      /permission denied/,
    );
  });

  it('verifies the chain, and reports the first tampered event', async () => {
    const t = await env.createTenant();
    const admin = await env.login(await env.createUser({ tenant: t, roles: ['admin'] }));
    for (let i = 1; i <= 3; i++) await append(t, 'test.pratica.aggiornata', `P-${i}`, { n: i });
    await waitForSealed(env.ownerDb, t);
    const ok = await admin.get('/api/audit/verify');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.ok, true);
    assert.equal(ok.body.firstBroken, null);
    const [{ n }] = await env.ownerDb('audit_events').where({ cod_azienda: t }).count<{ n: number }[]>({ n: '*' });
    assert.equal(ok.body.checked, Number(n));
    assert.ok(ok.body.checked >= 5); // azienda.created, utente.created, three updates (and the sign-in)
    const okPage = await admin.get('/audit/verifica', { accept: 'text/html' });
    assert.match(okPage.text, /Catena integra/);

    const target = await env.ownerDb('audit_events').where({ cod_azienda: t, entity_id: 'P-2' }).first('seq');
    await env.ownerDb.transaction(async (trx) => {
      await trx.raw('alter table audit_events disable trigger audit_events_no_change');
      await trx('audit_events').where({ cod_azienda: t, seq: target.seq }).update({ data: JSON.stringify({ n: 999 }) });
      await trx.raw('alter table audit_events enable trigger audit_events_no_change');
    });

    const broken = await admin.get('/api/audit/verify');
    assert.equal(broken.body.ok, false);
    assert.equal(broken.body.firstBroken, target.seq);
    assert.equal(broken.body.reason, 'hash_mismatch');
    assert.equal(broken.body.checked, target.seq - 1);
    const page = await admin.get('/audit/verifica', { accept: 'text/html' });
    assert.match(page.text, /Catena interrotta/);
    assert.match(page.text, new RegExp(`data-testid="first-broken">${target.seq}<`));
    // Another tenant's chain is untouched by the tampering.
    assert.equal((await co.get('/api/audit/verify')).body.ok, true);
  });

  it('the events page filters server-side and serves the table alone to htmx', async () => {
    const page = await co.get('/audit/eventi?action=test.pratica.chiusa', { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /<html/);
    assert.match(page.text, /pratica\.chiusa/);
    assert.doesNotMatch(page.text, /<code class="small">test\.pratica\.aperta<\/code>/);
    assert.match(page.text, /value="test\.pratica\.chiusa"/); // the filter keeps what was typed
    const fragment = await co.get('/audit/eventi?entity_id=P-2', { accept: 'text/html', 'HX-Request': 'true' });
    assert.equal(fragment.status, 200);
    assert.doesNotMatch(fragment.text, /<html/);
    assert.match(fragment.text, /data-testid="audit-events"/);
    assert.match(fragment.headers.get('vary') ?? '', /HX-Request/i);
    const bad = await co.get('/audit/eventi?da=31-12-2025', { accept: 'text/html' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Data non valida/);
    assert.match(bad.text, /value="31-12-2025"/);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await co.get(`/audit/eventi?da=${today}&a=${today}&action=test.pratica.aperta`, { accept: 'text/html' });
    assert.match(dated.text, /P-2/);
  });
});
