import assert from 'node:assert/strict';
import { createApp } from '../../src/app';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { fillPath, operations, stringFieldPaths, valueAt, type OpenApiDoc } from '../helpers/openapi-walk';
import { openCase, PNG } from './onboarding-fixtures';

/**
 * Text PostgreSQL cannot store (NUL, lone UTF-16 surrogates) is a 422 naming the field on every
 * route that takes text: driven by the published OpenAPI document (new routes are covered by
 * themselves) and by the forms the pages render. Never a 5xx, never a hang: each request has a
 * client timeout.
 */
const NUL = 'a\u0000b';
const SURROGATES = ['x\uD800y', '\uDC00'];
const TIMEOUT_MS = 15_000;
const SOME_UUID = '00000000-0000-4000-8000-000000000000';
/** Plain values a multipart form accepts, where 'x' would not be one (the wizard's document kind and reference). */
const PLAIN_MULTIPART: Record<string, string> = { tipo: 'documento_identita', riferimento: 'soggetto' };

describe('unstorable text is refused with 422 naming the field, everywhere', function () {
  this.timeout(600_000);
  let env: TestEnv;
  let staff: TestClient;
  let tenant: string;
  let cookie: string;
  let doc: OpenApiDoc;
  let caseId: string;

  const call = async (method: string, path: string, init: { body?: RequestInit['body']; headers?: Record<string, string> } = {}) => {
    const res = await fetch(env.baseUrl + path, {
      method, body: init.body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json', cookie, ...init.headers },
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined };
  };
  const paramValue = (p: string) => (p === 'id' ? caseId : SOME_UUID);
  const namesField = (r: { json?: { errors?: { path: string }[] } }, field: string) => (r.json?.errors ?? []).some((e) => e.path === field);

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const user = await env.createUser({ tenant, roles: ['superadmin', 'admin', 'co', 'sos', 'analyst', 'auditor', 'viewer'] });
    staff = await env.login(user);
    const applicant = await openCase(env, tenant);
    caseId = applicant.caseId;
    await staff.csrfToken('/casi/nuovo');
    cookie = [`cp_sid=${staff.cookie('cp_sid')}`, `cp_csrf=${staff.cookie('cp_csrf')}`, `cp_onb=${applicant.client.cookie('cp_onb')}`].join('; ');
    doc = (await staff.get('/api/openapi.json')).body as OpenApiDoc;
  });

  const jsonOps = () => operations(doc).filter((o) => o.body?.mediaType === 'application/json');

  it('JSON bodies: every string field, at any depth, with NUL or a lone surrogate', async () => {
    let checked = 0;
    for (const op of jsonOps()) {
      const fields = stringFieldPaths(op.body!.schema);
      for (const field of fields) {
        for (const bad of [NUL, ...SURROGATES]) {
          const r = await call(op.method, fillPath(op.path, paramValue), { body: JSON.stringify(valueAt(field, bad)), headers: { 'content-type': 'application/json' } });
          const where = `${op.method} ${op.path} ${field.join('.')} ${JSON.stringify(bad)}`;
          assert.equal(r.status, 422, `${where}: ${r.status} ${r.text.slice(0, 300)}`);
          assert.ok(namesField(r, field.join('.')), `${where}: the 422 names the field (${r.text.slice(0, 300)})`);
          checked += 1;
        }
      }
      // A key of a free-form section is stored too (jsonb).
      if (fields.some((f) => f.at(-1) === 'campo')) {
        const field = fields.find((f) => f.at(-1) === 'campo')!;
        const r = await call(op.method, fillPath(op.path, paramValue), { body: JSON.stringify(valueAt([...field.slice(0, -1), 'ca\u0000mpo'], 'x')), headers: { 'content-type': 'application/json' } });
        assert.equal(r.status, 422, `${op.method} ${op.path}: a NUL in a key (${r.text.slice(0, 200)})`);
      }
    }
    assert.ok(checked > 100, `only ${checked} fields were found in the document`);
  });

  it('query strings and path parameters: every declared one, with NUL', async () => {
    let checked = 0;
    for (const op of operations(doc)) {
      for (const q of op.query) {
        const r = await call(op.method, `${fillPath(op.path, paramValue)}?${q.name}=${encodeURIComponent(NUL)}`, op.body?.mediaType === 'application/json' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {});
        assert.equal(r.status, 422, `${op.method} ${op.path} ?${q.name}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.ok(namesField(r, q.name), `${op.method} ${op.path} ?${q.name} is named`);
        checked += 1;
      }
      for (const p of op.pathParams) {
        const path = fillPath(op.path, (name) => (name === p ? encodeURIComponent(NUL) : paramValue(name)));
        const r = await call(op.method, path, op.body?.mediaType === 'application/json' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {});
        assert.equal(r.status, 422, `${op.method} ${op.path} {${p}}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.ok(namesField(r, p), `${op.method} ${op.path} {${p}} is named`);
        checked += 1;
      }
    }
    assert.ok(checked > 40, `only ${checked} parameters were found`);
  });

  it('multipart fields and file names (the document upload, API and wizard)', async () => {
    const multipart = operations(doc).filter((o) => o.body?.mediaType === 'multipart/form-data');
    assert.ok(multipart.length >= 1);
    const token = await staff.csrfToken('/casi/nuovo');
    // Written by hand: FormData would clean the name. The name travels as RFC 5987 `filename*`
    // (percent-encoded UTF-8), the way a NUL can reach the parser at all.
    const upload = (path: string, fields: Record<string, string>, filename: string) => {
      const boundary = 'cpfuzzboundary';
      const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
      const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(filename)}\r\nContent-Type: image/png\r\n\r\n`;
      const body = Buffer.concat([...parts, Buffer.from(fileHead), PNG, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      return call('POST', path, { body, headers: { 'x-csrf-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    };
    for (const op of multipart) {
      const path = fillPath(op.path, paramValue);
      // Each form's own text fields, as published (the file travels apart), each with NUL in turn;
      // then the file's name, next to plain values (the wizard's own where it has those fields).
      const textFields = stringFieldPaths(op.body!.schema).filter((f) => f.length === 1 && f[0] !== 'file').map((f) => f[0]!);
      assert.ok(textFields.length, `${op.path}: publishes its text fields`);
      const plain = Object.fromEntries(textFields.map((f) => [f, PLAIN_MULTIPART[f] ?? 'x']));
      const cases: [Record<string, string>, string, string][] = [
        ...textFields.map((f): [Record<string, string>, string, string] => [{ ...plain, [f]: NUL }, 'doc.png', f]),
        [plain, `do${NUL}c.png`, 'file'],
      ];
      for (const [fields, filename, field] of cases) {
        const r = await upload(path, fields, filename);
        assert.equal(r.status, 422, `${op.path} ${field}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.ok(namesField(r, field), `${op.path}: ${field} is named (${r.text.slice(0, 200)})`);
      }
    }
  });

  it('the forms of every page: each text field with NUL is a 422 page that names it, never a 5xx', async () => {
    const { router } = createApp(env.deps);
    // The wizard shows its steps once the subject type is known (a company has every step).
    const typed = await call('PATCH', `/api/v1/onboarding/case/${caseId}/draft`, { body: JSON.stringify({ subject_type: 'societa' }), headers: { 'content-type': 'application/json' } });
    assert.equal(typed.status, 200, typed.text);
    const pages = new Set<string>([`/onboarding/?azienda=${tenant}`, '/onboarding/stato', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `/onboarding/step/${n}`)]);
    for (const layer of router.stack) {
      const path = String(layer.path);
      if (layer.methods.includes('GET') && !path.includes(':') && !/^\/(api|auth|static|health|logout|partials)/.test(path)) pages.add(path);
    }
    const created = await staff.post('/api/cases', { titolo: 'Caso per i moduli', tipo: 'indagine', priorita: 'media' });
    pages.add(`/casi/${created.body.id}`);
    const forms = new Map<string, { action: string; multipart: boolean; fields: string[]; from: string }>();
    for (const page of pages) {
      const r = await call('GET', page, { headers: { accept: 'text/html' } });
      assert.ok(r.status < 500, `${page}: ${r.status}`);
      for (const m of r.text.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
        const attrs = m[1]!;
        if (!/method="post"/i.test(attrs)) continue;
        // The token is added below, once (a second _csrf in the query would make it a list).
        const action = (/action="([^"]*)"/.exec(attrs)?.[1] ?? page).replace(/&amp;/g, '&').replace(/[?&]_csrf=[^&]*/, '');
        if (/\/(logout|elimina|cancella|toggle)\b/.test(action)) continue; // no text fields to speak of; and they end things
        const fields = new Set<string>();
        for (const f of m[2]!.matchAll(/<(input|textarea|select)\b([^>]*)>/g)) {
          const name = /name="([^"]+)"/.exec(f[2]!)?.[1];
          const type = /type="([^"]+)"/.exec(f[2]!)?.[1] ?? 'text';
          if (name && name !== '_csrf' && !['file', 'submit', 'button', 'checkbox', 'radio'].includes(type)) fields.add(name.replace(/&quot;/g, '"'));
        }
        if (fields.size && !forms.has(action)) forms.set(action, { action, multipart: /multipart\/form-data/.test(attrs), fields: [...fields], from: page });
      }
    }
    assert.ok(forms.size >= 14, `only ${forms.size} forms found: ${[...forms.keys()].join(', ')}`);
    const token = await staff.csrfToken('/casi/nuovo');
    for (const form of forms.values()) {
      for (const field of form.fields) {
        let r;
        if (form.multipart) {
          const fd = new FormData();
          for (const f of form.fields) fd.append(f, f === field ? NUL : '');
          fd.append('file', new Blob([PNG], { type: 'image/png' }), 'doc.png');
          r = await call('POST', `${form.action}${form.action.includes('?') ? '&' : '?'}_csrf=${encodeURIComponent(token)}`, { body: fd, headers: { accept: 'text/html' } });
        } else {
          const p = new URLSearchParams({ _csrf: token });
          for (const f of form.fields) p.append(f, f === field ? NUL : '');
          r = await call('POST', form.action, { body: p.toString(), headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' } });
        }
        const where = `form ${form.action} (from ${form.from}) field ${field}`;
        assert.equal(r.status, 422, `${where}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.match(r.type, /text\/html/, where);
        assert.ok(r.text.includes(field) || r.text.includes('caratteri non ammessi'), `${where}: the page says what is wrong`);
      }
    }
  });

  it('a workflow-backed write with bad text answers at once and leaves no workflow retrying', async () => {
    const started = Date.now();
    const r = await call('POST', '/api/cases', { body: JSON.stringify({ titolo: NUL, tipo: 'indagine', priorita: 'media' }), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 422);
    const d = await call('PATCH', `/api/v1/onboarding/case/${caseId}/draft`, { body: JSON.stringify({ anagrafe: { nome: NUL } }), headers: { 'content-type': 'application/json' } });
    assert.equal(d.status, 422);
    assert.ok(namesField(d, 'anagrafe.nome'));
    assert.ok(Date.now() - started < TIMEOUT_MS);
    // The draft is unchanged and still editable.
    const ok = await call('PATCH', `/api/v1/onboarding/case/${caseId}/draft`, { body: JSON.stringify({ anagrafe: { nome: 'Mario' } }), headers: { 'content-type': 'application/json' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.anagrafe.nome, 'Mario');
  });
});
