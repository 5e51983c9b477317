import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/** The edges of administration: who may change whom, self-lockout, tenant shutdown, settings per tenant, getSetting. */
describe('admin access rules', () => {
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let superadmin: TestClient;
  let admin: TestClient;
  let adminUser: TestUser;
  let platformAdmin: TestUser;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    platformAdmin = await env.createUser({ tenant: null, roles: ['superadmin'] });
    superadmin = await env.login(platformAdmin);
    adminUser = await env.createUser({ tenant, roles: ['admin'] });
    admin = await env.login(adminUser);
  });

  it('refuses a tenant admin any change to a superadmin of their tenant (no takeover through password or MFA reset)', async () => {
    const sa = await env.createUser({ tenant, roles: ['superadmin'] });
    const before = await env.ownerDb('utenti').where({ cod_utente: sa.cod_utente }).first();

    for (const body of [{ password: 'nuova-password-scelta' }, { ruoli: ['viewer'] }, { attivo: false }]) {
      const r = await admin.patch(`/api/admin/utenti/${sa.cod_utente}`, body);
      assert.equal(r.status, 403, JSON.stringify(body));
      assert.equal(r.body.code, 'FORBIDDEN');
    }
    assert.equal((await admin.post(`/api/admin/utenti/${sa.cod_utente}/reset-mfa`)).status, 403);
    // Pages too: no edit form (it would drop the role it cannot show), no toggle, no reset.
    assert.equal((await admin.get(`/organizzazione/utenti/${sa.cod_utente}/modifica`, { accept: 'text/html' })).status, 403);
    const page = `/organizzazione/utenti/${sa.cod_utente}`;
    const detail = await admin.get(page, { accept: 'text/html' });
    assert.equal(detail.status, 200);
    assert.doesNotMatch(detail.text, /reset-mfa/);
    assert.match(detail.text, /Solo un superamministratore/);
    const token = await admin.csrfToken('/organizzazione/utenti');
    for (const action of ['toggle', 'reset-mfa']) {
      const r = await admin.request('POST', `${page}/${action}`, { form: { _csrf: token }, headers: { accept: 'text/html' } });
      assert.equal(r.status, 403, action);
    }

    const after = await env.ownerDb('utenti').where({ cod_utente: sa.cod_utente }).first();
    assert.equal(after.password_hash, before.password_hash);
    assert.equal(after.totp_secret, before.totp_secret);
    assert.deepEqual(after.ruoli, ['superadmin']);
    assert.equal(after.attivo, true);

    // A superadmin may.
    const bySuper = await superadmin.post(`/api/admin/utenti/${sa.cod_utente}/reset-mfa`);
    assert.equal(bySuper.status, 200, bySuper.text);
    const audit = await env.ownerDb('audit_events').where({ action: 'utente.mfa_reset', entity_id: sa.cod_utente });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].actor, platformAdmin.username);
  });

  it('does not let an administrator lock themselves out', async () => {
    const off = await admin.patch(`/api/admin/utenti/${adminUser.cod_utente}`, { attivo: false });
    assert.equal(off.status, 422);
    assert.equal(off.body.errors[0].path, 'attivo');
    const demote = await admin.patch(`/api/admin/utenti/${adminUser.cod_utente}`, { ruoli: ['viewer'] });
    assert.equal(demote.status, 422);
    assert.equal(demote.body.errors[0].path, 'ruoli');
    assert.equal((await admin.get('/auth/me')).status, 200, 'still signed in');

    const url = `/organizzazione/utenti/${adminUser.cod_utente}/modifica`;
    const form = await admin.submitForm(url, { email: `${adminUser.username}@example.test`, nome: 'Prova', cognome: 'Tipizzato', ruoli: 'viewer', password: '' });
    assert.equal(form.status, 422);
    assert.match(form.text, /Non puoi togliere a te stesso il ruolo di amministratore/);
    assert.match(form.text, /value="Tipizzato"/, 'what was typed is kept');
    const row = await env.ownerDb('utenti').where({ cod_utente: adminUser.cod_utente }).first();
    assert.deepEqual(row.ruoli, ['admin']);
    assert.equal(row.attivo, true);

    // Other fields of one's own account can change.
    const rename = await admin.patch(`/api/admin/utenti/${adminUser.cod_utente}`, { nome: 'Amministratrice', ruoli: ['admin', 'co'] });
    assert.equal(rename.status, 200, rename.text);
  });

  it('ends the sessions of a tenant\'s users when the tenant is deactivated', async () => {
    const t = await env.createTenant();
    const user = await env.login(await env.createUser({ tenant: t, roles: ['analyst'] }));
    assert.equal((await user.get('/auth/me')).status, 200);
    const r = await superadmin.submitForm(`/organizzazione/${t}/toggle`, {}, `/organizzazione/${t}`);
    assert.equal(r.status, 302);
    assert.equal((await user.get('/auth/me')).status, 401);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: t, action: 'azienda.deactivated', entity_id: t });
    assert.equal(audit.length, 1);
  });

  it('lets a superadmin read and change the settings of a named tenant; a tenant admin only their own', async () => {
    assert.equal((await superadmin.get('/api/admin/settings')).status, 403, 'no active tenant and none named');
    const list = await superadmin.get(`/api/admin/settings?cod_azienda=${other}`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.items.length > 3, true);
    for (const s of list.body.items) assert.deepEqual(Object.keys(s).filter((k) => ['chiave', 'valore', 'descrizione', 'default'].includes(k)).sort(), ['chiave', 'default', 'descrizione', 'valore']);

    const put = await superadmin.put(`/api/admin/settings?cod_azienda=${other}`, { chiave: 'screening.four_eyes', valore: false });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.valore, false);
    assert.equal((await superadmin.get('/api/admin/settings?cod_azienda=NOPE404')).status, 404);

    assert.equal((await admin.get(`/api/admin/settings?cod_azienda=${other}`)).status, 404, 'another tenant is a 404');
    assert.equal((await admin.put(`/api/admin/settings?cod_azienda=${other}`, { chiave: 'case.sla_days', valore: 10 })).status, 404);
    const own = await admin.get('/api/admin/settings');
    assert.equal(own.body.items.find((s: { chiave: string }) => s.chiave === 'screening.four_eyes').valore, true, 'unchanged in this tenant');

    // Strict values: '' is not 0, a word is not false, a fraction is not an integer.
    for (const [chiave, valore] of [['screening.match_threshold', ''], ['screening.four_eyes', 'forse'], ['case.sla_days', 2.5], ['screening.review_threshold', 1.5]] as const) {
      const bad = await admin.put('/api/admin/settings', { chiave, valore });
      assert.equal(bad.status, 422, `${chiave}=${String(valore)}`);
      assert.equal(bad.body.errors[0].path, 'valore');
    }
    const unknown = await admin.put('/api/admin/settings', { chiave: 'non.esiste', valore: 1 });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].path, 'chiave');

    // The page for a superadmin: the named tenant's values, and the forms post back to it.
    const page = await superadmin.get(`/organizzazione/configurazione?cod_azienda=${other}`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`action="/organizzazione/configurazione\\?cod_azienda=${other}"`));
    const saved = await superadmin.submitForm(`/organizzazione/configurazione?cod_azienda=${other}`, { chiave: 'cdd.review_years_high', valore: '2' }, `/organizzazione/configurazione?cod_azienda=${other}`);
    assert.equal(saved.status, 302);
    assert.equal(saved.headers.get('location'), `/organizzazione/configurazione?cod_azienda=${other}`);
    assert.equal((await env.ownerDb('settings').where({ cod_azienda: other, chiave: 'cdd.review_years_high' }).first()).valore, 2);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: other, action: 'setting.updated' }).orderBy('id');
    assert.deepEqual(audit.map((a: { entity_id: string }) => a.entity_id), ['screening.four_eyes', 'cdd.review_years_high']);
  });

  it('getSetting reads the tenant of the transaction, or the default', async () => {
    const { withPlatform, withTenant } = await import('../../src/db/tenant');
    const { getSetting } = await import('../../src/domains/admin/admin.settings');
    const t = await env.createTenant();
    const read = () => withTenant(env.deps.db, { codAzienda: t }, (trx) => getSetting(trx, 'case.sla_days'));
    assert.equal(await read(), 30);
    await env.ownerDb('settings').insert({ cod_azienda: t, chiave: 'case.sla_days', valore: JSON.stringify(9) });
    assert.equal(await read(), 9);
    // Another tenant's transaction does not see it, nor does the platform role unless it names the tenant.
    const fresh = await env.createTenant();
    assert.equal(await withTenant(env.deps.db, { codAzienda: fresh }, (trx) => getSetting(trx, 'case.sla_days')), 30);
    assert.equal(await withPlatform(env.deps.platformDb, 'test', (trx) => getSetting(trx, 'case.sla_days')), 30);
    assert.equal(await withPlatform(env.deps.platformDb, 'test', (trx) => getSetting(trx, 'case.sla_days', t)), 9);
  });

  it('list pages use the shared table: sortable headers and cursor pagination keep the filters', async () => {
    const page = await superadmin.get(`/organizzazione/utenti?cod_azienda=${tenant}&limit=1&sort=username`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /aria-sort="ascending"/);
    assert.match(page.text, new RegExp(`href="/organizzazione/utenti\\?cod_azienda=${tenant}&amp;sort=-username&amp;limit=1"`));
    // The next page is linked by its cursor, filters and sort kept; it links back.
    const next = new RegExp(`rel="next" href="/organizzazione/utenti\\?cod_azienda=${tenant}&amp;sort=username&amp;cursor=([\\w-]+)&amp;limit=1"`).exec(page.text);
    assert.ok(next, 'a next link with the cursor');
    const second = await superadmin.get(`/organizzazione/utenti?cod_azienda=${tenant}&sort=username&cursor=${next[1]}&limit=1`, { accept: 'text/html' });
    assert.equal(second.status, 200);
    assert.match(second.text, /rel="prev" href="[^"]*cursor=/);
    const fragment = await superadmin.get(`/organizzazione/utenti?cod_azienda=${tenant}`, { accept: 'text/html', 'hx-request': 'true' });
    assert.doesNotMatch(fragment.text, /<html/);
    assert.match(fragment.text, /^\s*(<[^>]+>\s*)*<div id="utenti-tabella"/);
    assert.doesNotMatch(fragment.text, /limit=/, 'the default page size is not repeated in links');
  });

  it('answers 403 to an analyst on every admin route, API and pages', async () => {
    const analyst = await env.login(await env.createUser({ tenant, roles: ['analyst', 'co'] }));
    const someone = await env.createUser({ tenant, roles: ['viewer'] });
    const api: [string, string][] = [
      ['GET', '/api/admin/aziende'], ['POST', '/api/admin/aziende'], ['GET', `/api/admin/aziende/${tenant}`],
      ['GET', '/api/admin/utenti'], ['POST', '/api/admin/utenti'], ['PATCH', `/api/admin/utenti/${someone.cod_utente}`],
      ['POST', `/api/admin/utenti/${someone.cod_utente}/reset-mfa`], ['GET', '/api/admin/settings'], ['PUT', '/api/admin/settings'],
    ];
    for (const [method, path] of api) {
      const r = await analyst.request(method, path, { json: method === 'GET' ? undefined : {} });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.code, 'FORBIDDEN');
    }
    const pages = ['/admin', '/organizzazione', '/organizzazione/nuovo', `/organizzazione/${tenant}`, `/organizzazione/${tenant}/modifica`,
      '/organizzazione/configurazione', '/organizzazione/utenti', '/organizzazione/utenti/nuovo', `/organizzazione/utenti/${someone.cod_utente}`,
      `/organizzazione/utenti/${someone.cod_utente}/modifica`];
    for (const path of pages) assert.equal((await analyst.get(path, { accept: 'text/html' })).status, 403, path);
    const token = await analyst.csrfToken('/');
    const posts = ['/organizzazione/nuovo', `/organizzazione/${tenant}/toggle`, `/organizzazione/${tenant}/modifica`, '/organizzazione/configurazione',
      '/organizzazione/utenti/nuovo', `/organizzazione/utenti/${someone.cod_utente}/toggle`, `/organizzazione/utenti/${someone.cod_utente}/reset-mfa`];
    for (const path of posts) {
      const r = await analyst.request('POST', path, { form: { _csrf: token }, headers: { accept: 'text/html' } });
      assert.equal(r.status, 403, path);
      assert.doesNotMatch(r.text, /Token di sicurezza/, 'refused for the role, not for CSRF');
    }
    // A tenant admin is not a platform operator.
    assert.equal((await admin.post('/api/admin/aziende', { cod_azienda: 'NOPE', ragione_sociale: 'No', tipo_intermediario: 'banca' })).status, 403);
  });

  it('lets a superadmin create users in any tenant or in none; an unknown tenant is a 422', async () => {
    const base = (name: string) => ({ username: name, email: `${name}@example.test`, nome: 'Piatta', cognome: 'Forma', password: 'una-password-lunga' });
    const name = `plat.${Date.now().toString(36)}`;
    const platformUser = await superadmin.post('/api/admin/utenti', { ...base(name), ruoli: ['superadmin'] });
    assert.equal(platformUser.status, 201, platformUser.text);
    assert.equal(platformUser.body.cod_azienda, null);
    const inOther = await superadmin.post('/api/admin/utenti', { ...base(`${name}b`), ruoli: ['admin'], cod_azienda: other });
    assert.equal(inOther.status, 201);
    assert.equal(inOther.body.cod_azienda, other);
    const audit = await env.ownerDb('audit_events').where({ action: 'utente.created', entity_id: inOther.body.cod_utente }).first();
    assert.equal(audit.cod_azienda, other);
    const unknown = await superadmin.post('/api/admin/utenti', { ...base(`${name}c`), ruoli: ['admin'], cod_azienda: 'NOPE404' });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].path, 'cod_azienda');
    const page = await superadmin.submitForm('/organizzazione/utenti/nuovo', { ...base(`${name}d`), ruoli: 'viewer', cod_azienda: 'NOPE404' });
    assert.equal(page.status, 422);
    assert.match(page.text, /Azienda inesistente/);
    // The superadmin manages users of any tenant (platform scope).
    const patched = await superadmin.patch(`/api/admin/utenti/${inOther.body.cod_utente}`, { attivo: false });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.attivo, false);
    assert.equal((await env.ownerDb('audit_events').where({ action: 'utente.deactivated', entity_id: inOther.body.cod_utente })).length, 1);
    const all = await superadmin.get(`/api/admin/utenti?cod_azienda=${other}&attivo=false`);
    assert.deepEqual(all.body.items.map((u: { cod_utente: string }) => u.cod_utente), [inOther.body.cod_utente]);
    assert.ok(all.body.items.every((u: Record<string, unknown>) => !('password_hash' in u) && !('totp_secret' in u)));
  });

  it('writes an audit event for a tenant edited through its form', async () => {
    const t = await env.createTenant();
    const r = await superadmin.submitForm(`/organizzazione/${t}/modifica`, { ragione_sociale: 'Fiduciaria Nuova S.r.l.', tipo_intermediario: 'fiduciaria', pec: 'fiduciaria@pec.example.test' });
    assert.equal(r.status, 302);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: t, action: 'azienda.updated' }).first();
    assert.ok(audit, 'azienda.updated written');
    assert.equal(audit.actor, platformAdmin.username);
  });
});
