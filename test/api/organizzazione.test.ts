import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

describe('organizzazione pages (without JavaScript)', () => {
  let env: TestEnv;
  let tenantA: string;
  let tenantB: string;
  let superadmin: TestClient;
  let adminA: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenantA = await env.createTenant();
    tenantB = await env.createTenant();
    superadmin = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    adminA = await env.login(await env.createUser({ tenant: tenantA, roles: ['admin'] }));
  });

  it('redirects the old /admin paths', async () => {
    const expect = { '/admin': '/organizzazione/utenti', '/admin/configurazione': '/organizzazione/configurazione', '/admin/nuovo': '/organizzazione/nuovo', '/admin/utenti': '/organizzazione/utenti', '/admin/utenti/nuovo': '/organizzazione/utenti/nuovo' };
    for (const [from, to] of Object.entries(expect)) {
      const r = await adminA.get(from, { accept: 'text/html' });
      assert.equal(r.status, 302, from);
      assert.equal(r.headers.get('location'), to);
    }
    assert.equal((await superadmin.get('/admin', { accept: 'text/html' })).headers.get('location'), '/organizzazione');
  });

  it('creates a tenant through the form, keeps typed values on errors, and toggles it', async () => {
    const bad = await superadmin.submitForm('/organizzazione/nuovo', { cod_azienda: 'NUOVA1', ragione_sociale: 'Banca Nuova S.p.A.', tipo_intermediario: 'banca', partita_iva: '123' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /La partita IVA ha 11 cifre/);
    assert.match(bad.text, /value="Banca Nuova S.p.A."/, 'what was typed is kept');

    const cod = `PG${Date.now().toString(36).toUpperCase().slice(-6)}`;
    const ok = await superadmin.submitForm('/organizzazione/nuovo', { cod_azienda: cod, ragione_sociale: 'Banca Nuova S.p.A.', tipo_intermediario: 'banca', partita_iva: '12345678901' });
    assert.equal(ok.status, 302);
    assert.equal(ok.headers.get('location'), `/organizzazione/${cod}`);
    const detail = await superadmin.get(`/organizzazione/${cod}`, { accept: 'text/html' });
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Azienda creata/);
    assert.match(detail.text, /data-status="attiva"/);

    const list = await superadmin.get(`/organizzazione?q=${cod}`, { accept: 'text/html' });
    assert.match(list.text, new RegExp(`/organizzazione/${cod}`));
    const fragment = await superadmin.get(`/organizzazione?q=${cod}`, { accept: 'text/html', 'hx-request': 'true' });
    assert.doesNotMatch(fragment.text, /<html/, 'htmx gets only the table fragment');
    assert.match(fragment.text, /id="aziende-tabella"/);

    const toggled = await superadmin.submitForm(`/organizzazione/${cod}/toggle`, {}, `/organizzazione/${cod}`);
    assert.equal(toggled.status, 302);
    assert.equal((await env.ownerDb('aziende').where({ cod_azienda: cod }).first()).attiva, false);

    const edit = await superadmin.submitForm(`/organizzazione/${cod}/modifica`, { ragione_sociale: 'Banca Rinominata S.p.A.', tipo_intermediario: 'banca' }, `/organizzazione/${cod}/modifica`);
    assert.equal(edit.status, 302);
    assert.equal((await env.ownerDb('aziende').where({ cod_azienda: cod }).first()).ragione_sociale, 'Banca Rinominata S.p.A.');
  });

  it('keeps a tenant admin to their own tenant and away from platform pages', async () => {
    assert.equal((await adminA.get(`/organizzazione/${tenantA}`, { accept: 'text/html' })).status, 200);
    assert.equal((await adminA.get(`/organizzazione/${tenantB}`, { accept: 'text/html' })).status, 404);
    assert.equal((await adminA.get('/organizzazione', { accept: 'text/html' })).status, 403);
    assert.equal((await adminA.get('/organizzazione/nuovo', { accept: 'text/html' })).status, 403);
  });

  it('creates, edits, disables and resets a user through the forms', async () => {
    const username = `pagina.${Date.now().toString(36)}`;
    const bad = await adminA.submitForm('/organizzazione/utenti/nuovo', { username, email: 'non-valida', nome: 'Paola', cognome: 'Pagina', password: 'una-password-lunga', ruoli: ['analyst'] });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Email non valida/);
    assert.match(bad.text, new RegExp(`value="${username}"`));

    const ok = await adminA.submitForm('/organizzazione/utenti/nuovo', { username, email: `${username}@example.test`, nome: 'Paola', cognome: 'Pagina', password: 'una-password-lunga', ruoli: ['analyst', 'sos'] });
    assert.equal(ok.status, 302, ok.text);
    const url = ok.headers.get('location')!;
    assert.match(url, /^\/organizzazione\/utenti\/[0-9a-f-]{36}$/);
    const row = await env.ownerDb('utenti').whereRaw('lower(username) = ?', [username]).first();
    assert.equal(row.cod_azienda, tenantA);
    assert.deepEqual(row.ruoli, ['analyst', 'sos']);

    const edited = await adminA.submitForm(`${url}/modifica`, { email: `${username}@example.test`, nome: 'Paola', cognome: 'Modificata', ruoli: 'viewer', password: '' }, `${url}/modifica`);
    assert.equal(edited.status, 302);
    const after = await env.ownerDb('utenti').where({ cod_utente: row.cod_utente }).first();
    assert.equal(after.cognome, 'Modificata');
    assert.deepEqual(after.ruoli, ['viewer']);
    assert.equal(after.password_hash, row.password_hash, 'an empty password field keeps the password');

    assert.equal((await adminA.submitForm(`${url}/toggle`, {}, url)).status, 302);
    assert.equal((await env.ownerDb('utenti').where({ cod_utente: row.cod_utente }).first()).attivo, false);
    assert.equal((await adminA.submitForm(`${url}/reset-mfa`, {}, url)).status, 302);

    const listed = await adminA.get(`/organizzazione/utenti?q=${username}`, { accept: 'text/html' });
    assert.match(listed.text, /Modificata Paola/);
  });

  it('changes a setting through the configuration page, with a message for a bad value', async () => {
    const bad = await adminA.submitForm('/organizzazione/configurazione', { chiave: 'case.sla_days', valore: '9999' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /value="9999"/);
    assert.match(bad.text, /invalid-feedback/);
    const ok = await adminA.submitForm('/organizzazione/configurazione', { chiave: 'case.sla_days', valore: '45' });
    assert.equal(ok.status, 302);
    const row = await env.ownerDb('settings').where({ cod_azienda: tenantA, chiave: 'case.sla_days' }).first();
    assert.equal(row.valore, 45);
  });
});
