import assert from 'node:assert/strict';
import { AREAS } from '../../src/areas';
import { Navigation } from '../../src/http/navigation';
import { getTestEnv, type TestEnv } from '../helpers/env';

describe('layout: navigation, areas not built yet, users without a tenant', () => {
  let env: TestEnv;
  before(async () => { env = await getTestEnv(); });

  it('reaches every area of the navigation with a real page, never an error', async () => {
    const tenant = await env.createTenant();
    const all = await env.login(await env.createUser({ tenant, roles: ['admin', 'co', 'auditor'] }));
    const home = await all.get('/', { accept: 'text/html' });
    assert.equal(home.status, 200);
    for (const item of new Navigation(AREAS.flatMap((a) => a.navigation ?? [])).sections.flatMap((s) => s.items)) {
      if (!item.roles.some((r) => ['admin', 'co', 'auditor'].includes(r))) continue;
      assert.ok(home.text.includes(`href="${item.href}"`), `navigation links to ${item.href}`);
      const page = await all.get(item.href, { accept: 'text/html' });
      assert.ok(page.status === 200, `${item.href} answers ${page.status}`);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    }
  });

  it('shows a page that says an area is not built yet, and sends anonymous visitors to sign in', async () => {
    const tenant = await env.createTenant();
    const c = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    const r = await c.get('/indicatori', { accept: 'text/html' });
    assert.equal(r.status, 200);
    // Named as the navigation names it (label and section), not by its path.
    assert.match(r.text, /Indicatori di anomalia: area in preparazione/);
    assert.match(r.text, /sezione Rischio/);
    assert.doesNotMatch(r.text, /\(\/indicatori\)/);
    const anon = await env.client().get('/indicatori', { accept: 'text/html' });
    assert.equal(anon.status, 302);
    assert.match(anon.headers.get('location') ?? '', /^\/login\?next=%2Findicatori/);
  });

  it('gives a signed-in user with no tenant the dedicated page, and a 403 NO_TENANT to the API', async () => {
    const orphan = await env.login(await env.createUser({ tenant: null, roles: ['analyst'] }));
    const page = await orphan.get('/casi', { accept: 'text/html' });
    assert.equal(page.status, 403);
    assert.match(page.text, /Nessuna azienda assegnata/);
    const api = await orphan.get('/api/cases');
    assert.equal(api.status, 403);
    assert.equal(api.body.code, 'NO_TENANT');
  });

  it('sets security headers and keeps the session cookie httpOnly and SameSite', async () => {
    const tenant = await env.createTenant();
    const user = await env.createUser({ tenant, roles: ['viewer'] });
    const c = env.client();
    const { nextTotpCode } = await import('../helpers/totp');
    const r = await c.request('POST', '/auth/login', { json: { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) } });
    assert.equal(r.status, 200);
    const cookie = r.headers.getSetCookie().find((h) => h.startsWith('cp_sid='))!;
    assert.match(cookie, /httponly/i);
    assert.match(cookie, /samesite=lax/i);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    assert.match(r.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });
});
