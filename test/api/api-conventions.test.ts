import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { fillPath, isUnsafe, operations, type OpenApiDoc, type Operation } from '../helpers/openapi-walk';
import { openCase } from './onboarding-fixtures';

/**
 * The API's conventions, checked over the published document: body-less calls work as
 * documented (the CSRF rule), cross-site browser writes are refused, unknown methods are 405,
 * errors are problem details whatever was sent, references inside bodies stay in the tenant,
 * settings keep their type, and every GET answers what its schema declares.
 */
const ALL_ROLES = ['superadmin', 'admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'] as const;
const SOME_UUID = '00000000-0000-4000-8000-000000000000';

describe('API conventions over the OpenAPI document', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let user: TestUser;
  let staff: TestClient;
  let outsider: TestUser;
  let doc: OpenApiDoc;

  /** Any method (fetch refuses TRACE and friends), any body, with a client timeout. */
  const raw = async (method: string, path: string, cookie: string, init: { body?: string | FormData; headers?: Record<string, string> } = {}) => {
    let body: Buffer | undefined;
    const headers: Record<string, string> = { cookie, ...init.headers };
    if (init.body instanceof FormData) {
      const req = new Request('http://x/', { method: 'POST', body: init.body });
      body = Buffer.from(await req.arrayBuffer());
      headers['content-type'] = req.headers.get('content-type')!;
    } else if (init.body !== undefined) body = Buffer.from(init.body);
    if (body) headers['content-length'] = String(body.length);
    return new Promise<{ status: number; type: string; headers: { get: (n: string) => string | undefined }; text: string; json: any }>((resolve, reject) => {
      const req = request(env.baseUrl + path, { method, headers, timeout: 20_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const type = String(res.headers['content-type'] ?? '');
          const get = (n: string) => { const v = res.headers[n.toLowerCase()]; return Array.isArray(v) ? v.join(', ') : v; };
          resolve({ status: res.statusCode ?? 0, type, headers: { get }, text, json: type.includes('json') && text ? JSON.parse(text) : undefined });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 20 s`)));
      req.on('error', reject);
      req.end(body);
    });
  };
  const sid = (c: TestClient) => `cp_sid=${c.cookie('cp_sid')}`;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    user = await env.createUser({ tenant, roles: [...ALL_ROLES] });
    staff = await env.login(user);
    outsider = await env.createUser({ tenant: other, roles: ['co', 'analyst'] });
    doc = (await staff.get('/api/openapi.json')).body as OpenApiDoc;
  });

  describe('body-less operations (the CSRF rule)', () => {
    it('every documented write without a request body works as documented: no body, no Content-Type, no token', async () => {
      const applicant = await openCase(env, tenant);
      const toErase = await openCase(env, tenant);
      // Platform work (sanctions list imports) is called by a reader: refused for the role, never for CSRF, and nothing is imported.
      const reader = await env.login(await env.createUser({ tenant, roles: ['viewer'] }));
      const [note] = await env.ownerDb('notifications').insert({ id: SOME_UUID.replace(/^0{8}/, 'aaaaaaaa'), cod_azienda: tenant, cod_utente: user.cod_utente, tipo: 'test', titolo: 'Da leggere' }).returning('id');
      const bodyless = operations(doc).filter((o) => isUnsafe(o.method) && !o.body && o.path !== '/auth/logout');
      assert.ok(bodyless.length >= 8, bodyless.map((o) => `${o.method} ${o.path}`).join(', '));
      const seen: string[] = [];
      for (const op of bodyless) {
        const erase = op.path.endsWith('/erase');
        const platformWork = /\/import/.test(op.path);
        const cookie = `${sid(platformWork ? reader : staff)}; cp_onb=${(erase ? toErase : applicant).client.cookie('cp_onb')}`;
        const path = fillPath(op.path, (p) => (p === 'id' && op.path.includes('/notifications/') ? note.id : p === 'id' && op.path.includes('/onboarding/case/') ? (erase ? toErase : applicant).caseId : p === 'id' ? SOME_UUID : p === 'cod_anagrafe' ? 'ANA-NESSUNO' : SOME_UUID));
        const r = await raw(op.method, path, cookie);
        const where = `${op.method} ${op.path}: ${r.status} ${r.text.slice(0, 200)}`;
        assert.notEqual(r.json?.code, 'CSRF_FAILED', where);
        assert.ok(r.status < 500, where);
        if (platformWork) assert.equal(r.json?.code, 'FORBIDDEN', where);
        seen.push(`${op.method} ${op.path} ${r.status}`);
      }
      // A few answers that show the call really ran.
      assert.ok(seen.includes(`PUT /api/notifications/{id}/read ${200}`) || seen.includes('PUT /api/notifications/{id}/read 204'), seen.join('\n'));
      assert.ok(seen.includes('POST /api/v1/onboarding/case/{id}/submit 422'), 'submit of an incomplete case names what is missing');
      assert.ok(seen.includes('DELETE /api/v1/onboarding/case/{id}/erase 204'), 'the erase ran');
      assert.ok((await env.ownerDb('notifications').where({ id: note.id }).first()).read_at, 'the notification is read');
    });

    it('the same calls from another site are refused, and a form still needs its token', async () => {
      const path = `/api/notifications/${SOME_UUID}/read`;
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://attacker.example' }, { origin: 'null' }] as Record<string, string>[]) {
        const r = await raw('PUT', path, sid(staff), { headers });
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.equal(r.json.code, 'CSRF_FAILED');
      }
      const sameOrigin = await raw('PUT', path, sid(staff), { headers: { 'sec-fetch-site': 'same-origin', origin: env.baseUrl } });
      assert.equal(sameOrigin.status, 404, 'a same-origin call passes the rule (and finds no such notification)');
      // JSON from another site is refused too; JSON from anywhere else needs no token.
      const json = { 'content-type': 'application/json' };
      assert.equal((await raw('POST', '/api/cases', sid(staff), { body: '{}', headers: { ...json, origin: 'https://attacker.example' } })).json.code, 'CSRF_FAILED');
      assert.equal((await raw('POST', '/api/cases', sid(staff), { body: '{}', headers: json })).status, 422);
      // Data a form could carry (urlencoded, text/plain, an untyped body) needs the token.
      for (const [type, body] of [['application/x-www-form-urlencoded', 'titolo=x'], ['text/plain', '{"titolo":"x"}'], ['', 'titolo=x']] as const) {
        const r = await raw('POST', '/api/cases', sid(staff), { body, headers: type ? { 'content-type': type } : {} });
        assert.equal(r.status, 403, `${type || 'no content type'} with a body`);
        assert.equal(r.json.code, 'CSRF_FAILED');
      }
    });

    it('the OpenAPI document states the rule', () => {
      const info = doc.info as { description: string };
      assert.match(info.description, /senza corpo/);
      assert.match(info.description, /Sec-Fetch-Site/);
      assert.match(JSON.stringify(doc.components), /X-CSRF-Token/);
    });
  });

  describe('errors', () => {
    it('a method a path does not have is 405 with Allow (problem details), for every path; an unknown path stays 404', async () => {
      const byPath = new Map<string, Operation[]>();
      for (const op of operations(doc)) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
      for (const [path, ops] of byPath) {
        const declared = ops.map((o) => o.method);
        const url = fillPath(path, () => SOME_UUID);
        for (const method of ['TRACE', 'PROPFIND', ['PUT', 'PATCH', 'DELETE', 'POST'].find((m) => !declared.includes(m))!]) {
          const r = await raw(method, url, sid(staff));
          assert.equal(r.status, 405, `${method} ${path}: ${r.status}`);
          assert.match(r.type, /application\/problem\+json/);
          assert.equal(r.json.code, 'METHOD_NOT_ALLOWED');
          const allow = (r.headers.get('allow') ?? '').split(', ');
          for (const m of declared) assert.ok(allow.includes(m), `${path}: Allow lists ${m} (${allow.join(', ')})`);
        }
      }
      const options = await raw('OPTIONS', '/api/cases', sid(staff));
      assert.equal(options.status, 204);
      assert.match(options.headers.get('allow') ?? '', /GET.*POST|POST.*GET/);
      assert.equal((await raw('TRACE', '/api/nessuna-risorsa', sid(staff))).status, 404);
    });

    it('/api errors are problem details whatever the request carried', async () => {
      const token = await staff.csrfToken('/casi/nuovo');
      const fd = new FormData();
      fd.append('titolo', 'x');
      for (const [what, init] of [
        ['form without token', { body: 'titolo=x', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } }],
        ['form with token, invalid', { body: `titolo=&_csrf=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } }],
        ['multipart', { body: fd, headers: { accept: 'text/html' } }],
        ['malformed JSON', { body: '{"titolo":', headers: { 'content-type': 'application/json', accept: 'text/html' } }],
      ] as const) {
        const r = await raw('POST', '/api/cases', `${sid(staff)}; cp_csrf=${staff.cookie('cp_csrf')}`, init);
        assert.ok(r.status >= 400 && r.status < 500, `${what}: ${r.status}`);
        assert.match(r.type, /application\/problem\+json/, what);
        assert.ok(r.json.code, what);
      }
      // An over-long address is refused before the application: still problem details.
      const long = await raw('GET', `/api/cases?q=${'x'.repeat(40_000)}`, sid(staff));
      assert.equal(long.status, 431);
      assert.match(long.type, /application\/problem\+json/);
    });
  });

  describe('references inside bodies stay in the tenant', () => {
    it('a case assigned to another tenant\'s user, or naming its customer, is refused as if they did not exist', async () => {
      await env.ownerDb('anagrafe').insert([
        { cod_azienda: other, cod_anagrafe: 'ANA-ALTRO', tipo_soggetto: 'persona_fisica', denominazione: 'Altrui', created_by: 'test' },
        { cod_azienda: tenant, cod_anagrafe: 'ANA-NOSTRO', tipo_soggetto: 'persona_fisica', denominazione: 'Nostro', created_by: 'test' },
      ]);
      const base = { titolo: 'Riferimenti', tipo: 'indagine', priorita: 'media' };
      const foreign = await staff.post('/api/cases', { ...base, assegnatario: outsider.cod_utente });
      const missing = await staff.post('/api/cases', { ...base, assegnatario: SOME_UUID });
      assert.equal(foreign.status, 422);
      assert.deepEqual(foreign.body.errors, missing.body.errors, 'another tenant\'s user and no user at all get the same answer');
      assert.equal(foreign.body.errors[0].path, 'assegnatario');
      const foreignSubject = await staff.post('/api/cases', { ...base, cod_anagrafe: 'ANA-ALTRO' });
      assert.equal(foreignSubject.status, 422);
      assert.equal(foreignSubject.body.errors[0].path, 'cod_anagrafe');
      const ok = await staff.post('/api/cases', { ...base, assegnatario: user.cod_utente, cod_anagrafe: 'ANA-NOSTRO' });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.assegnatario, user.cod_utente);
      assert.equal(await env.ownerDb('cases').where({ cod_azienda: tenant, titolo: 'Riferimenti' }).count({ n: '*' }).then(([r]) => Number(r!.n)), 1, 'nothing stored for the refused ones');
    });

    it('the case form says so next to the field', async () => {
      const r = await staff.submitForm('/casi/nuovo', { titolo: 'Dal modulo', descrizione: '', tipo: 'indagine', priorita: 'media', cod_anagrafe: '', assegnatario: outsider.cod_utente });
      assert.equal(r.status, 422);
      assert.match(r.text, /Utente non trovato in questa azienda/);
    });

    it('a ceremony with another tenant\'s parent workflow is refused; with one of the tenant\'s own it starts', async () => {
      const outsiderClient = await env.login(outsider);
      const theirs = await outsiderClient.post('/api/cases', { titolo: 'Altrui', tipo: 'indagine', priorita: 'media' });
      const ours = await staff.post('/api/cases', { titolo: 'Nostro', tipo: 'indagine', priorita: 'media' });
      const start = (parent: string) => staff.post('/api/v1/esign/ceremony/start', {
        signer: { nome: 'Mario Rossi', email: 'mario@example.test' }, document: { nome: 'doc.pdf', contenuto_base64: Buffer.from('%PDF-1.4 prova').toString('base64') }, parent_workflow_id: parent,
      });
      const refused = await start(theirs.body.workflow_id);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.errors[0].path, 'parent_workflow_id');
      assert.deepEqual((await start(`case:${tenant}:${SOME_UUID}`)).body.errors, refused.body.errors);
      const started = await start(ours.body.workflow_id);
      assert.equal(started.status, 201, started.text);
    });

    it('a match assigned to another tenant\'s user is refused by the same rule', async () => {
      await env.ownerDb('screening_subjects').insert({ id: SOME_UUID, cod_azienda: tenant, tipo: 'person', nome: 'Soggetto di prova', subject_key: `test-${Date.now()}`, wallets: [] });
      const [m] = await env.ownerDb('screening_matches').insert({
        id: SOME_UUID.replace(/^0{8}/, 'bbbbbbbb'), cod_azienda: tenant, subject_id: SOME_UUID, list_name: 'un_sc_sanctions', entry_id: 'X1', entry_hash: 'h', score: 0.9, breakdown: JSON.stringify({}), stato: 'open',
      }).returning('id');
      const r = await staff.put(`/api/v1/screening/matches/${m.id}/assegna`, { assegnatario: outsider.cod_utente });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.errors[0].path, 'assegnatario');
    });
  });

  describe('settings keep their declared type', () => {
    it('the API takes each setting in its own JSON type only; the list says the type', async () => {
      for (const [chiave, valore] of [['case.sla_days', '15'], ['case.sla_days', true], ['case.sla_days', [15]], ['case.sla_days', null], ['screening.four_eyes', 1], ['screening.four_eyes', 'si'], ['screening.match_threshold', '0.9']] as const) {
        const r = await staff.put('/api/admin/settings', { chiave, valore });
        assert.equal(r.status, 422, `${chiave}=${JSON.stringify(valore)}: ${r.text}`);
        assert.equal(r.body.errors[0].path, 'valore');
      }
      const ok = await staff.put('/api/admin/settings', { chiave: 'screening.four_eyes', valore: false });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.valore, false);
      assert.equal(ok.body.tipo, 'boolean');
      const stored = await env.ownerDb('settings').where({ cod_azienda: tenant, chiave: 'screening.four_eyes' }).first();
      assert.equal(stored.valore, false, 'stored as a JSON boolean');
      const list = await staff.get('/api/admin/settings');
      const sla = list.body.items.find((s: { chiave: string }) => s.chiave === 'case.sla_days');
      assert.equal(sla.tipo, 'integer');
      assert.equal(typeof sla.valore, 'number');
    });
  });

  describe('responses match the published schemas', () => {
    it('every GET of the API, answered to a signed-in user, validates against its declared schema', async () => {
      const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
      ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
      const applicant = await openCase(env, tenant);
      const cases = await staff.get('/api/cases');
      const ids: Record<string, string> = {
        '/api/cases/{id}': cases.body.items[0]?.id ?? SOME_UUID,
        '/api/admin/aziende/{cod_azienda}': tenant,
      };
      const cookie = `${sid(staff)}; cp_onb=${applicant.client.cookie('cp_onb')}`;
      let validated = 0;
      const undeclared: string[] = [];
      for (const op of operations(doc).filter((o) => o.method === 'GET')) {
        const path = fillPath(op.path, (p) => ids[op.path] ?? (op.path.startsWith('/api/v1/onboarding/case/') && p === 'id' ? applicant.caseId : SOME_UUID));
        const r = await raw('GET', path, cookie, { headers: { accept: 'application/json' } });
        assert.ok(r.status < 500, `${op.path}: ${r.status} ${r.text.slice(0, 300)}`);
        if (r.status >= 400) {
          assert.match(r.type, /application\/problem\+json/, `${op.path}: ${r.status}`);
          continue;
        }
        const declared = op.responses[String(r.status)]?.content?.['application/json']?.schema;
        if (!declared) { undeclared.push(`${op.path} ${r.status} ${r.type}`); continue; }
        const validate = ajv.compile(JSON.parse(JSON.stringify(declared).replace(/"#\/components/g, '"doc#/components')));
        assert.ok(validate(r.json), `${op.path}: ${ajv.errorsText(validate.errors)}\n${r.text.slice(0, 500)}`);
        validated += 1;
      }
      assert.ok(validated >= 20, `only ${validated} GETs validated`);
      // The only JSON GETs without a schema are the document itself and files (receipt, download).
      assert.deepEqual(undeclared.filter((u) => !/openapi\.json|receipt|download|\/api\/docs/.test(u)), []);
    });
  });
});
