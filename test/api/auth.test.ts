import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import { nextTotpCode } from '../helpers/totp';

/** A request carrying only the given session cookie, as a stolen or kept-back cookie would be replayed. */
async function meWithCookie(env: TestEnv, sid: string) {
  const res = await fetch(`${env.baseUrl}/auth/me`, { headers: { cookie: `cp_sid=${sid}`, accept: 'application/json' } });
  return res.status;
}

describe('auth API: sign-in, TOTP, sessions', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  // Every test signs in from 127.0.0.1: its failure counter must not spill into other suites.
  afterEach(() => env.resetLoopbackThrottle());

  it('signs in with password and TOTP: user, roles, tenant, MFA state; last login and audit recorded', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst', 'viewer'] });
    const c = env.client();
    const r = await c.post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.user.username, user.username);
    assert.deepEqual(r.body.user.ruoli, ['analyst', 'viewer']);
    assert.ok(c.cookie('cp_sid'));
    const setCookie = r.headers.getSetCookie().find((h) => h.startsWith('cp_sid='))!;
    assert.match(setCookie, /httponly/i);
    assert.match(setCookie, /samesite=lax/i);

    const me = await c.get('/auth/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.user.cod_utente, user.cod_utente);
    assert.equal(me.body.tenant, tenant);
    assert.deepEqual(me.body.mfa, { enrolled: true, verified: true });

    const row = await env.ownerDb('utenti').where({ cod_utente: user.cod_utente }).first('last_login_at', 'totp_last_step');
    assert.ok(row.last_login_at);
    assert.ok(Number(row.totp_last_step) > 0);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'auth.login', entity_id: user.cod_utente });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].actor, user.username);
  });

  it('answers a wrong password and an unknown user with the same error, and sets no session', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    const wrong = await c.post('/auth/login', { username: user.username, password: 'not-the-password', totp: '123456' });
    const unknown = await c.post('/auth/login', { username: `nobody_${Date.now()}`, password: 'whatever-password', totp: '123456' });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.body.code, 'INVALID_CREDENTIALS');
    assert.equal(unknown.body.code, wrong.body.code);
    assert.equal(unknown.body.detail, wrong.body.detail);
    assert.match(wrong.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(c.cookie('cp_sid'), undefined);
  });

  it('asks for the TOTP code when it is missing (401 MFA_REQUIRED) and rejects a wrong one (INVALID_TOTP)', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    const missing = await c.post('/auth/login', { username: user.username, password: user.password });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.code, 'MFA_REQUIRED');
    assert.equal(c.cookie('cp_sid'), undefined);
    const good = nextTotpCode(user.totpSecret);
    const wrongCode = good === '000000' ? '111111' : '000000';
    const wrong = await c.post('/auth/login', { username: user.username, password: user.password, totp: wrongCode });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'INVALID_TOTP');
    assert.equal((await c.get('/auth/me')).status, 401);
  });

  it('sends a user without TOTP to enrol in the UI (403 MFA_ENROLMENT_REQUIRED)', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'], totp: false });
    const r = await env.client().post('/auth/login', { username: user.username, password: user.password, totp: '123456' });
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'MFA_ENROLMENT_REQUIRED');
  });

  it('accepts a TOTP code only once', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const code = nextTotpCode(user.totpSecret);
    const first = await env.client().post('/auth/login', { username: user.username, password: user.password, totp: code });
    assert.equal(first.status, 200, first.text);
    const replay = await env.client().post('/auth/login', { username: user.username, password: user.password, totp: code });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 'INVALID_TOTP');
  });

  it('blocks an account after 5 failures with 429 and Retry-After, even with the right password', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    for (let i = 1; i <= 4; i++) {
      const r = await c.post('/auth/login', { username: user.username, password: `wrong-${i}-password` });
      assert.equal(r.status, 401, `attempt ${i}`);
    }
    const fifth = await c.post('/auth/login', { username: user.username, password: 'wrong-5-password' });
    assert.equal(fifth.status, 429);
    assert.equal(fifth.body.code, 'TOO_MANY_ATTEMPTS');
    const right = await c.post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) > 0);
    // The account is blocked, not the address: another user still signs in.
    const other = await env.createUser({ tenant, roles: ['analyst'] });
    await env.login(other);
  });

  it('counts wrong TOTP codes towards the block', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await c.post('/auth/login', { username: user.username, password: user.password, totp: 'abcdef' })).status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
  });

  it('logout invalidates the session on the server: the old cookie no longer works', async () => {
    const user = await env.createUser({ tenant, roles: ['viewer'] });
    const c = await env.login(user);
    const sid = c.cookie('cp_sid')!;
    assert.equal(await meWithCookie(env, sid), 200);
    const out = await c.post('/auth/logout');
    assert.equal(out.status, 204);
    assert.equal(c.cookie('cp_sid'), undefined);
    assert.equal(await meWithCookie(env, sid), 401);
    const rows = await env.ownerDb('sessions').where({ cod_utente: user.cod_utente });
    assert.equal(rows.length, 0);
    assert.equal((await env.ownerDb('audit_events').where({ action: 'auth.logout', entity_id: user.cod_utente })).length, 1);
  });

  it('issues a new session id at sign-in and ends the previous one', async () => {
    const user = await env.createUser({ tenant, roles: ['viewer'] });
    const c = await env.login(user);
    const before = c.cookie('cp_sid')!;
    const again = await c.post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
    assert.equal(again.status, 200, again.text);
    const after = c.cookie('cp_sid')!;
    assert.notEqual(after, before);
    assert.equal(await meWithCookie(env, before), 401);
    assert.equal(await meWithCookie(env, after), 200);
  });

  it('answers /auth/me with 401 problem details when anonymous', async () => {
    const r = await env.client().get('/auth/me');
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'UNAUTHENTICATED');
  });

  it('refuses a disabled user and a user of a disabled tenant with the generic error', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    await env.ownerDb('utenti').where({ cod_utente: user.cod_utente }).update({ attivo: false });
    const r = await env.client().post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'INVALID_CREDENTIALS');

    const closed = await env.createTenant();
    const member = await env.createUser({ tenant: closed, roles: ['analyst'] });
    await env.ownerDb('aziende').where({ cod_azienda: closed }).update({ attiva: false });
    const r2 = await env.client().post('/auth/login', { username: member.username, password: member.password, totp: nextTotpCode(member.totpSecret) });
    assert.equal(r2.status, 401);
    assert.equal(r2.body.code, 'INVALID_CREDENTIALS');
  });

  it('lets a user without a tenant sign in; tenant pages then need a tenant', async () => {
    const user = await env.createUser({ tenant: null, roles: ['analyst'] });
    const c = await env.login(user);
    const me = await c.get('/auth/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.tenant, null);
  });

  describe('superadmin tenant switch', () => {
    let admin: TestUser;
    before(async () => { admin = await env.createUser({ tenant: null, roles: ['superadmin'] }); });

    it('sets the active tenant, audits it, and 404s an unknown tenant', async () => {
      const c = await env.login(admin);
      const r = await c.post('/auth/tenant', { cod_azienda: tenant });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.tenant, tenant);
      assert.equal((await c.get('/auth/me')).body.tenant, tenant);
      const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'auth.tenant_switched', entity_id: admin.cod_utente });
      assert.equal(audit.length, 1);
      const unknown = await c.post('/auth/tenant', { cod_azienda: 'NOPE_NOT_A_TENANT' });
      assert.equal(unknown.status, 404);
      const cleared = await c.post('/auth/tenant', { cod_azienda: null });
      assert.equal(cleared.body.tenant, null);
    });

    it('is forbidden to other roles', async () => {
      const user = await env.createUser({ tenant, roles: ['admin'] });
      const c = await env.login(user);
      const other = await env.createTenant();
      const r = await c.post('/auth/tenant', { cod_azienda: other });
      assert.equal(r.status, 403);
      assert.equal((await c.get('/auth/me')).body.tenant, tenant);
    });
  });
});
