import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

describe('admin API: tenants, users, settings', () => {
  let env: TestEnv;
  let tenantA: string;
  let tenantB: string;
  let superadmin: TestClient;
  let adminA: TestClient;
  let analystA: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenantA = await env.createTenant();
    tenantB = await env.createTenant();
    superadmin = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    adminA = await env.login(await env.createUser({ tenant: tenantA, roles: ['admin'] }));
    analystA = await env.login(await env.createUser({ tenant: tenantA, roles: ['analyst'] }));
  });

  const auditCount = async (action: string, entityId: string, codAzienda?: string) =>
    Number((await env.ownerDb('audit_events').where({ action, entity_id: entityId }).modify((q) => { if (codAzienda) q.where({ cod_azienda: codAzienda }); }).count({ n: '*' }))[0]!.n);

  it('lets a superadmin create, list and read tenants, with validation and duplicates refused', async () => {
    const cod = `NEW${Date.now().toString(36).toUpperCase().slice(-5)}`;
    const created = await superadmin.post('/api/admin/aziende', { cod_azienda: cod, ragione_sociale: 'Nuova SIM S.p.A.', tipo_intermediario: 'sim', partita_iva: '12345678901' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.cod_azienda, cod);
    assert.equal(await auditCount('azienda.created', cod), 1);

    const dup = await superadmin.post('/api/admin/aziende', { cod_azienda: cod, ragione_sociale: 'Altra', tipo_intermediario: 'sim' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'AZIENDA_EXISTS');

    const bad = await superadmin.post('/api/admin/aziende', { cod_azienda: 'x', ragione_sociale: '', tipo_intermediario: 'boh', partita_iva: '12' });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.code, 'VALIDATION_ERROR');
    const paths = bad.body.errors.map((e: { path: string }) => e.path).sort();
    assert.deepEqual(paths, ['cod_azienda', 'partita_iva', 'ragione_sociale', 'tipo_intermediario']);

    const list = await superadmin.get(`/api/admin/aziende?q=${cod}`);
    assert.equal(list.status, 200);
    assert.equal(list.body.total, 1);
    assert.equal(list.body.items[0].cod_azienda, cod);
    assert.equal((await superadmin.get(`/api/admin/aziende/${cod}`)).body.ragione_sociale, 'Nuova SIM S.p.A.');
  });

  it('lets a tenant admin read only their own tenant; others are 404, lists are superadmin only', async () => {
    assert.equal((await adminA.get(`/api/admin/aziende/${tenantA}`)).status, 200);
    const other = await adminA.get(`/api/admin/aziende/${tenantB}`);
    assert.equal(other.status, 404);
    assert.equal(other.body.code, 'NOT_FOUND');
    assert.equal((await adminA.get('/api/admin/aziende')).status, 403);
    const forbidden = await analystA.get('/api/admin/utenti');
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.code, 'FORBIDDEN');
    assert.equal((await env.client().get('/api/admin/utenti')).status, 401);
  });

  it('lets a tenant admin manage users of their tenant only', async () => {
    const username = `nuovo.${Date.now().toString(36)}`;
    const created = await adminA.post('/api/admin/utenti', { username, email: `${username}@example.test`, nome: 'Nuovo', cognome: 'Utente', password: 'una-password-lunga', ruoli: ['analyst'] });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.cod_azienda, tenantA);
    assert.equal(created.body.password_hash, undefined);
    assert.equal(created.body.totp_secret, undefined);

    const dup = await adminA.post('/api/admin/utenti', { username, email: `${username}@example.test`, nome: 'N', cognome: 'U', password: 'una-password-lunga', ruoli: ['analyst'] });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'USERNAME_TAKEN');

    const escalate = await adminA.post('/api/admin/utenti', { username: `${username}x`, email: 'x@example.test', nome: 'N', cognome: 'U', password: 'una-password-lunga', ruoli: ['superadmin'] });
    assert.equal(escalate.status, 403);
    const elsewhere = await adminA.post('/api/admin/utenti', { username: `${username}y`, email: 'y@example.test', nome: 'N', cognome: 'U', password: 'una-password-lunga', ruoli: ['analyst'], cod_azienda: tenantB });
    assert.equal(elsewhere.status, 403);
    const shortPw = await adminA.post('/api/admin/utenti', { username: `${username}z`, email: 'z@example.test', nome: 'N', cognome: 'U', password: 'corta', ruoli: [] });
    assert.equal(shortPw.status, 422);

    const patched = await adminA.patch(`/api/admin/utenti/${created.body.cod_utente}`, { ruoli: ['analyst', 'co'], nome: 'Rinominato' });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.ruoli, ['analyst', 'co']);
    assert.equal(await auditCount('utente.updated', created.body.cod_utente), 1);

    const list = await adminA.get(`/api/admin/utenti?q=${username}`);
    assert.equal(list.body.total, 1);
    const listAll = await adminA.get('/api/admin/utenti?limit=200');
    assert.ok(listAll.body.items.every((u: { cod_azienda: string }) => u.cod_azienda === tenantA), 'an admin lists only their tenant');

    const userB = await env.createUser({ tenant: tenantB, roles: ['analyst'] });
    assert.equal((await adminA.patch(`/api/admin/utenti/${userB.cod_utente}`, { nome: 'X' })).status, 404);
    assert.equal((await adminA.post(`/api/admin/utenti/${userB.cod_utente}/reset-mfa`)).status, 404);
    assert.equal((await adminA.patch('/api/admin/utenti/not-a-uuid', { nome: 'X' })).status, 404);
  });

  it('resets a user\'s TOTP enrolment: their sessions end and the next sign-in asks to enrol', async () => {
    const user = await env.createUser({ tenant: tenantA, roles: ['analyst'] });
    const client = await env.login(user);
    assert.equal((await client.get('/auth/me')).status, 200);
    const r = await adminA.post(`/api/admin/utenti/${user.cod_utente}/reset-mfa`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totp_enabled, false);
    assert.equal((await client.get('/auth/me')).status, 401);
    const row = await env.ownerDb('utenti').where({ cod_utente: user.cod_utente }).first();
    assert.equal(row.totp_secret, null);
    assert.equal(await auditCount('utente.mfa_reset', user.cod_utente), 1);
    const again = await env.client().post('/auth/login', { username: user.username, password: user.password, totp: '123456' });
    assert.equal(again.status, 403);
    assert.equal(again.body.code, 'MFA_ENROLMENT_REQUIRED');
  });

  it('deactivating a user ends their sessions', async () => {
    const user = await env.createUser({ tenant: tenantA, roles: ['viewer'] });
    const client = await env.login(user);
    assert.equal((await adminA.patch(`/api/admin/utenti/${user.cod_utente}`, { attivo: false })).status, 200);
    assert.equal((await client.get('/auth/me')).status, 401);
  });

  it('lists and updates settings with per-key validation', async () => {
    const list = await adminA.get('/api/admin/settings');
    assert.equal(list.status, 200);
    const sla = list.body.items.find((s: { chiave: string }) => s.chiave === 'case.sla_days');
    assert.equal(sla.valore, 30);
    assert.equal(sla.personalizzata, false);

    const updated = await adminA.put('/api/admin/settings', { chiave: 'case.sla_days', valore: 15 });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.valore, 15);
    assert.equal((await adminA.put('/api/admin/settings', { chiave: 'case.sla_days', valore: 0 })).status, 422);
    assert.equal((await adminA.put('/api/admin/settings', { chiave: 'non.esiste', valore: 1 })).status, 422);
    assert.equal(await auditCount('setting.updated', 'case.sla_days', tenantA), 1);
    // Settings are per tenant: another tenant still has the default.
    const adminB = await env.login(await env.createUser({ tenant: tenantB, roles: ['admin'] }));
    const b = await adminB.get('/api/admin/settings');
    assert.equal(b.body.items.find((s: { chiave: string }) => s.chiave === 'case.sla_days').valore, 30);
  });
});
