import assert from 'node:assert/strict';
import { request } from 'node:http';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { fillPath, isUnsafe, operations, type OpenApiDoc } from '../helpers/openapi-walk';
import { openCase } from './onboarding-fixtures';

/**
 * The CSRF rule for API clients that declare JSON on every call, a body or not (issue 22): a
 * body-less write with `Content-Type: application/json` is an API call like the same call
 * without the header. A browser sending it from another site is still refused, and a body-less
 * request that declares a form type (an empty form) still needs the token.
 */
const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const JSON_TYPE = { 'content-type': 'application/json' };

describe('CSRF: body-less writes declared as JSON', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;

  /** Exactly these headers and no body (fetch would add its own): the session cookie and what the case asks. */
  const bare = (method: string, path: string, cookie: string, headers: Record<string, string>) =>
    new Promise<{ status: number; json: any; text: string }>((resolve, reject) => {
      const req = request(env.baseUrl + path, { method, headers: { cookie, accept: 'application/json', ...headers }, timeout: 20_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, text, json: String(res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : undefined });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 20 s`)));
      req.on('error', reject);
      req.end();
    });
  const sid = (c: TestClient) => `cp_sid=${c.cookie('cp_sid')}`;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    co = await env.login(await env.createUser({ tenant, roles: ['co', 'admin', 'analyst'] }));
  });

  it('the risk model\'s DELETEs work with Content-Type: application/json and no body; from another site they are refused', async () => {
    const factor = await co.post('/api/risk/factors', { codice: 'csrf_json', nome: 'Fattore di prova', famiglia: 'cliente' });
    assert.equal(factor.status, 201, factor.text);
    const rule = await co.post('/api/risk/rules', {
      fattore_id: factor.body.id, codice: 'csrf_json', nome: 'Regola di prova', punti: 1, condizione: { campo: 'cliente.eta_anni', op: 'lt', valore: 18 },
    });
    assert.equal(rule.status, 201, rule.text);
    const targets = [`/api/risk/rules/${rule.body.id}`, `/api/risk/factors/${factor.body.id}`, `/api/risk/rule-sets/${rule.body.versione_id}`];

    for (const path of targets) {
      for (const site of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://attacker.example' }] as Record<string, string>[]) {
        const r = await bare('DELETE', path, sid(co), { ...JSON_TYPE, ...site });
        assert.equal(r.status, 403, `${path} ${JSON.stringify(site)}: ${r.text}`);
        assert.equal(r.json.code, 'CSRF_FAILED');
      }
    }
    assert.equal((await co.get(`/api/risk/rules/${rule.body.id}`)).body.attiva, true, 'the refused calls changed nothing');

    for (const path of targets) {
      const r = await bare('DELETE', path, sid(co), { ...JSON_TYPE, 'sec-fetch-site': 'same-origin' });
      assert.equal(r.status, 200, `${path}: ${r.text}`);
    }
    assert.equal((await co.get('/api/risk/factors')).body.items.find((f: { id: string }) => f.id === factor.body.id).attivo, false);
    assert.equal((await co.get(`/api/risk/rule-sets/${rule.body.versione_id}`)).status, 404, 'the draft is discarded');
  });

  it('every documented body-less write declared as JSON passes the rule as it does without the header', async () => {
    const doc = (await co.get('/api/openapi.json')).body as OpenApiDoc;
    const applicant = await openCase(env, tenant);
    const toErase = await openCase(env, tenant);
    const reader = await env.login(await env.createUser({ tenant, roles: ['viewer'] }));
    const bodyless = operations(doc).filter((o) => isUnsafe(o.method) && !o.body && o.path !== '/auth/logout');
    assert.ok(bodyless.length >= 8, bodyless.map((o) => `${o.method} ${o.path}`).join(', '));
    const seen: string[] = [];
    for (const op of bodyless) {
      const erase = op.path.endsWith('/erase');
      // Platform work (sanctions list imports) is asked by a reader: refused for the role, never for CSRF, and nothing is imported.
      const platformWork = /\/import/.test(op.path);
      const cookie = `${sid(platformWork ? reader : co)}; cp_onb=${(erase ? toErase : applicant).client.cookie('cp_onb')}`;
      const path = fillPath(op.path, (p) => (p === 'id' && op.path.includes('/onboarding/case/') ? (erase ? toErase : applicant).caseId : p === 'cod_anagrafe' ? 'ANA-NESSUNO' : SOME_UUID));
      const r = await bare(op.method, path, cookie, JSON_TYPE);
      const where = `${op.method} ${op.path}: ${r.status} ${r.text.slice(0, 200)}`;
      assert.notEqual(r.json?.code, 'CSRF_FAILED', where);
      assert.ok(r.status < 500, where);
      if (platformWork) assert.equal(r.json?.code, 'FORBIDDEN', where);
      seen.push(`${op.method} ${op.path} ${r.status}`);
    }
    assert.ok(seen.includes('POST /api/v1/onboarding/case/{id}/submit 422'), `the submit ran and named what is missing:\n${seen.join('\n')}`);
    assert.ok(seen.includes('DELETE /api/v1/onboarding/case/{id}/erase 204'), `the erase ran:\n${seen.join('\n')}`);
  });

  it('a write whose body is optional may be sent declared as JSON with no body at all', async () => {
    const draft = await co.post('/api/risk/rule-sets', {});
    assert.equal(draft.status, 201, draft.text);
    const r = await bare('POST', `/api/risk/rule-sets/${draft.body.id}/activate`, sid(co), JSON_TYPE);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.stato, 'active');
  });

  it('a body-less request that declares a form type is a form: it still needs the token', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const r = await bare('DELETE', `/api/risk/factors/${SOME_UUID}`, sid(co), { 'content-type': type });
      assert.equal(r.status, 403, `${type}: ${r.text}`);
      assert.equal(r.json.code, 'CSRF_FAILED');
    }
  });
});
