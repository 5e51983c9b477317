import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RouteDeclaration } from '../../src/kit/routes';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient, TestResponse } from '../helpers/http-client';

/**
 * The routes anyone may call. A new public route must be added here on purpose: everything
 * else needs a declared caller (staff with both factors, the applicant, a signer).
 */
const PUBLIC_ROUTES = new Set([
  'GET /health', 'GET /api/openapi.json',
  'POST /auth/login', 'POST /auth/logout', 'GET /login', 'POST /login', 'GET /logout', 'POST /logout',
  'GET /onboarding', 'GET /onboarding/', 'POST /onboarding/', 'POST /onboarding/riprendi',
  'GET /onboarding/nuovo-link', 'POST /onboarding/nuovo-link', 'GET /api/v1/onboarding/resume', 'POST /api/magic-link',
  'POST /api/v1/esign/ceremony/:id/verify',
  // The tenant's logo, shown on its public pages (404 when it has none).
  'GET /aziende/:cod/logo',
]);
/** Where a refused browser may be sent: to sign in, or to the factor it still owes. */
const REFUSAL_REDIRECT = /^\/(login|totp\/(verify|setup))(\?|$)/;

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

function concretePath(path: string, tenant: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    if (name === 'n') return '1';
    if (name === 'cod') return tenant;
    if (name === 'cod_anagrafe') return 'CLI-0001';
    return randomUUID();
  });
}

async function call(c: TestClient, r: RouteDeclaration, path: string, csrf: string): Promise<TestResponse> {
  if (r.method === 'GET') return c.get(path, { accept: r.kind === 'page' ? 'text/html' : 'application/json' });
  // Pages post forms with a valid CSRF token, so what answers is the access rule, not CSRF.
  if (r.kind === 'page') return c.request(r.method, path, { form: { _csrf: csrf }, headers: { accept: 'text/html' } });
  return c.request(r.method, path, { json: {}, headers: { 'x-csrf-token': csrf } });
}

function assertRefused(r: RouteDeclaration, res: TestResponse, who: string) {
  const where = `${key(r)} (${who}) answered ${res.status}`;
  if (res.status >= 300 && res.status < 400) {
    assert.match(res.headers.get('location') ?? '', REFUSAL_REDIRECT, `${where} → ${res.headers.get('location')}`);
    return;
  }
  assert.ok(res.status >= 400 && res.status < 500, where);
}

describe('access: every route declares its caller, and nothing answers a caller it did not ask for', () => {
  let env: TestEnv;
  let tenant: string;
  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  it('declares every route the router serves', () => {
    const declared = new Set(env.routes.map(key));
    const served = env.registered.flatMap((l) => l.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: l.path })));
    const missing = served.filter((r) => !declared.has(key(r)));
    assert.deepEqual(missing, [], 'routes served without an access declaration');
    assert.ok(env.routes.length > 150, `only ${env.routes.length} routes declared`);
  });

  it('keeps the public routes to the known list', () => {
    const publicNow = [...new Set(env.routes.filter((r) => r.access.callers.includes('public')).map(key))].sort();
    assert.deepEqual(publicNow, [...PUBLIC_ROUTES].sort());
  });

  it('answers no route but the public ones to a visitor without a session', async () => {
    const anon = env.client();
    const csrf = await anon.csrfToken('/login');
    const seen = new Set<string>();
    for (const r of env.routes) {
      if (seen.has(key(r)) || PUBLIC_ROUTES.has(key(r))) continue;
      seen.add(key(r));
      assertRefused(r, await call(anon, r, concretePath(r.path, tenant), csrf), 'no session');
    }
  });

  it('answers only the TOTP pages and the public routes to a session that gave the password but not the code', async () => {
    const user = await env.createUser({ tenant, roles: ['admin', 'co', 'analyst', 'sos', 'auditor'] });
    const half = env.client();
    const csrf = await half.csrfToken('/login');
    const login = await half.request('POST', '/login', { form: { username: user.username, password: user.password, _csrf: csrf }, headers: { accept: 'text/html' } });
    assert.equal(login.status, 302);
    assert.equal(login.headers.get('location'), '/totp/verify');
    const secondFactor = new Set(env.routes.filter((r) => r.access.callers.includes('second-factor')).map(key));
    assert.deepEqual([...secondFactor].sort(), ['GET /totp/setup', 'GET /totp/verify', 'POST /totp/setup', 'POST /totp/verify']);
    const seen = new Set<string>();
    for (const r of env.routes) {
      if (seen.has(key(r)) || PUBLIC_ROUTES.has(key(r)) || secondFactor.has(key(r))) continue;
      seen.add(key(r));
      // Logging out would end the half session: it is public, and skipped above.
      assertRefused(r, await call(half, r, concretePath(r.path, tenant), csrf), 'password only');
    }
    // The session is still the half one: the TOTP page answers.
    const totp = await half.get('/totp/verify', { accept: 'text/html' });
    assert.equal(totp.status, 200);
  });
});
