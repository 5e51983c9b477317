import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { nextTotpCode } from '../helpers/totp';

const html = { accept: 'text/html' };

describe('auth pages: sign-in without JavaScript', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  afterEach(() => env.resetLoopbackThrottle());

  it('signs in a user without TOTP: login form, enrolment with QR and secret, then on to `next`', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'], totp: false });
    const c = env.client();
    const page = await c.get('/login?next=%2Fcasi%3Fstato%3Dopen', html);
    assert.equal(page.status, 200);
    assert.match(page.text, /<label[^>]*for="f-username"[^>]*>Nome utente/);
    assert.match(page.text, /name="next" value="\/casi\?stato=open"/);

    const login = await c.submitForm('/login', { username: user.username, password: user.password, next: '/casi?stato=open' });
    assert.equal(login.status, 302);
    assert.equal(login.headers.get('location'), '/totp/setup');
    const halfSid = c.cookie('cp_sid')!;
    assert.ok(halfSid);
    // Password alone is not a sign-in.
    assert.equal((await c.get('/auth/me')).status, 401);
    assert.equal((await c.get('/', html)).headers.get('location'), '/totp/setup');

    const setup = await c.get('/totp/setup', html);
    assert.equal(setup.status, 200);
    const secret = setup.text.match(/data-totp-secret="([A-Z2-7]+)"/)?.[1];
    assert.ok(secret, 'the page shows the secret');
    assert.match(setup.text, /<img src="data:image\/png;base64,/);
    assert.match(setup.text, /Compliance AML/);
    assert.ok(setup.text.includes(user.username));
    // Reloading keeps the same pending secret; it is not on the user until confirmed.
    assert.ok((await c.get('/totp/setup', html)).text.includes(`data-totp-secret="${secret}"`));
    const pending = await env.ownerDb('utenti').where({ cod_utente: user.cod_utente }).first('totp_secret', 'totp_enabled');
    assert.equal(pending.totp_secret, null);
    assert.equal(pending.totp_enabled, false);

    const wrong = await c.submitForm('/totp/setup', { code: '12' });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /Inserisci il codice di 6 cifre/);

    const done = await c.submitForm('/totp/setup', { code: nextTotpCode(secret) });
    assert.equal(done.status, 302);
    assert.equal(done.headers.get('location'), '/casi?stato=open');
    assert.notEqual(c.cookie('cp_sid'), halfSid, 'a new session id once MFA completes');
    const me = await c.get('/auth/me');
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.mfa, { enrolled: true, verified: true });

    const saved = await env.ownerDb('utenti').where({ cod_utente: user.cod_utente }).first('totp_secret', 'totp_enabled', 'last_login_at');
    // Stored sealed (AES-GCM), never as the base32 seed itself.
    assert.notEqual(saved.totp_secret, secret);
    assert.ok(!String(saved.totp_secret).includes(secret));
    assert.equal(env.deps.secrets.open(saved.totp_secret), secret);
    assert.equal(saved.totp_enabled, true);
    assert.ok(saved.last_login_at);
    const events = await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_id: user.cod_utente }).pluck('action');
    assert.ok(events.includes('utente.totp_enrolled'));
    assert.ok(events.includes('auth.login'));
  });

  it('verifies the TOTP of an enrolled user, rejects a wrong code in Italian, and shows the home page', async () => {
    const user = await env.createUser({ tenant, roles: ['co', 'analyst'] });
    const c = env.client();
    const login = await c.submitForm('/login', { username: user.username, password: user.password });
    assert.equal(login.headers.get('location'), '/totp/verify');

    const verify = await c.get('/totp/verify', html);
    assert.equal(verify.status, 200);
    assert.match(verify.text, /<label[^>]*for="f-code"/);
    const good = nextTotpCode(user.totpSecret);
    const bad = await c.submitForm('/totp/verify', { code: good === '000000' ? '111111' : '000000' });
    assert.equal(bad.status, 401);
    assert.match(bad.text, /Codice non valido/);

    const ok = await c.submitForm('/totp/verify', { code: good });
    assert.equal(ok.status, 302);
    assert.equal(ok.headers.get('location'), '/');
    const home = await c.get('/', html);
    assert.equal(home.status, 200);
    assert.match(home.text, /Benvenuto/);
    assert.match(home.text, /Responsabile antiriciclaggio/);
    assert.match(home.text, /href="\/casi"/);
  });

  it('keeps the username and shows an Italian error after a wrong password', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    const r = await c.submitForm('/login', { username: user.username, password: 'wrong-password-here' });
    assert.equal(r.status, 401);
    assert.match(r.text, /Nome utente o password non validi/);
    assert.ok(r.text.includes(`value="${user.username}"`));
    assert.equal(c.cookie('cp_sid'), undefined);
    const empty = await c.submitForm('/login', { username: '', password: '' });
    assert.equal(empty.status, 422);
    assert.match(empty.text, /Inserisci il nome utente/);
  });

  it('shows the block in Italian after too many failures', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    let last;
    for (let i = 0; i < 5; i++) last = await c.submitForm('/login', { username: user.username, password: `nope-${i}-password` });
    assert.equal(last!.status, 429);
    assert.match(last!.text, /Troppi tentativi/);
    assert.ok(Number(last!.headers.get('retry-after')) > 0);
  });

  it('refuses a form without the CSRF token (403)', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    await c.get('/login', html);
    const r = await c.request('POST', '/login', { form: { username: user.username, password: user.password }, headers: html });
    assert.equal(r.status, 403);
    assert.equal(c.cookie('cp_sid'), undefined);
  });

  it('treats a urlencoded POST /auth/login like the sign-in form', async () => {
    const user = await env.createUser({ tenant, roles: ['analyst'] });
    const c = env.client();
    const _csrf = await c.csrfToken('/login');
    const r = await c.request('POST', '/auth/login', { form: { username: user.username, password: user.password, _csrf }, headers: html });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/totp/verify');
  });

  it('drops a `next` that leaves the site', async () => {
    const c = env.client();
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const page = await c.get(`/login?next=${encodeURIComponent(next)}`, html);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /name="next"/, next);
    }
  });

  it('sends anonymous page requests to /login with `next`, and the TOTP pages without a pending sign-in to /login', async () => {
    const c = env.client();
    const home = await c.get('/', html);
    assert.equal(home.status, 302);
    assert.equal(home.headers.get('location'), '/login?next=%2F');
    assert.equal((await c.get('/totp/setup', html)).headers.get('location'), '/login');
    assert.equal((await c.get('/totp/verify', html)).headers.get('location'), '/login');
  });

  it('GET /logout ends the session on the server and goes back to /login', async () => {
    const user = await env.createUser({ tenant, roles: ['viewer'] });
    const c = await env.login(user);
    const sid = c.cookie('cp_sid')!;
    const out = await c.get('/logout', html);
    assert.equal(out.status, 302);
    assert.equal(out.headers.get('location'), '/login');
    const replay = await fetch(`${env.baseUrl}/auth/me`, { headers: { cookie: `cp_sid=${sid}` } });
    assert.equal(replay.status, 401);
  });

  it('lets a superadmin switch tenant with the home page form', async () => {
    const admin = await env.createUser({ tenant: null, roles: ['superadmin'] });
    const c = await env.login(admin);
    const home = await c.get('/', html);
    assert.match(home.text, /action="\/auth\/tenant"/);
    assert.ok(home.text.includes(`value="${tenant}"`));
    const r = await c.submitForm('/auth/tenant', { cod_azienda: tenant }, '/');
    assert.equal(r.status, 302);
    assert.equal((await c.get('/auth/me')).body.tenant, tenant);
  });

  it('the enrolment page works with an app using the otpauth defaults', async () => {
    // Guards the parameters (SHA1, 6 digits, 30 s) the QR code promises to authenticator apps.
    const user = await env.createUser({ tenant, roles: ['analyst'], totp: false });
    const c = env.client();
    await c.submitForm('/login', { username: user.username, password: user.password });
    const setup = await c.get('/totp/setup', html);
    const secret = setup.text.match(/data-totp-secret="([A-Z2-7]+)"/)![1]!;
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const done = await c.submitForm('/totp/setup', { code });
    assert.equal(done.status, 302);
    assert.equal(done.headers.get('location'), '/');
  });
});
