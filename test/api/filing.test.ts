import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadJurisdiction } from '../../src/domains/filing/goaml/jurisdiction-loader';
import { parseReportXml, type GoamlNode } from '../../src/domains/filing/goaml/report-xml';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const GOAML = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'goaml');
const returnXml = (ref: string, status: string, errors = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<report_return><entity_reference>${ref}</entity_reference><fiu_ref_number>FIU-2026-77</fiu_ref_number><status>${status}</status>${errors}</report_return>`;

describe('filing API (regulatory report packages, goAML)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let co1: TestClient;
  let co2: TestClient;
  let co2User: TestUser;
  let viewer: TestClient;
  let outsider: TestClient;
  let str: GoamlNode;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    co2User = await env.createUser({ tenant, roles: ['co'] });
    [analyst, co1, co2, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.login(co2User),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    const j = await loadJurisdiction(GOAML, 'ae-goaml-5.0.2');
    str = parseReportXml(j.model, readFileSync(join(GOAML, 'vyttah-uae-5.0.2', 'golden', 'STR.xml'), 'utf8'));
    delete str.entity_reference;
  });

  /** A multipart upload with the CSRF token a staff page carries (the API client's way). */
  async function uploadReturn(c: TestClient, id: string, file: { name: string; type: string; bytes: Uint8Array }) {
    const fd = new FormData();
    fd.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    return c.request('POST', `/api/filing/${id}/import-return`, { body: fd, headers: { 'x-csrf-token': await c.csrfToken('/dashboard') } });
  }
  const ok = (r: { status: number; text: string }, status = 200) => assert.equal(r.status, status, r.text);
  async function create(content: GoamlNode = str) {
    const r = await analyst.post('/api/filing/create', { titolo: 'Bonifici dopo versamenti in contanti', tipo: 'str', content });
    ok(r, 201);
    return r.body as { id: string; stato: string; due_at: string; created_at: string };
  }
  const post = (c: TestClient, id: string, action: string, body: unknown = {}) => c.post(`/api/filing/${id}/${action}`, body);
  const classify = (id: string) => post(analyst, id, 'classify', { tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', report_code: 'STR' });

  /** Draft to approved: the analyst prepares, co1 approves. */
  async function approved() {
    const f = await create();
    ok(await classify(f.id));
    ok(await post(analyst, f.id, 'validate'));
    ok(await post(analyst, f.id, 'mark-ready'));
    ok(await post(analyst, f.id, 'submit-for-approval'));
    ok(await post(co1, f.id, 'approve'));
    return f.id;
  }

  /** The e-signature ceremony, as the compliance officer who signs goes through it. */
  async function signCeremony(signingUrl: string) {
    const url = new URL(signingUrl, 'http://x');
    const id = url.pathname.split('/').pop()!;
    const token = url.searchParams.get('token')!;
    const anon = env.client();
    ok(await anon.post(`/api/v1/esign/ceremony/${id}/terms`, { token }));
    const after = await env.mailbox.cursor();
    ok(await anon.post(`/api/v1/esign/ceremony/${id}/present`, { token }));
    const otp = await env.mailbox.otp(`${co2User.username}@example.test`, after);
    ok(await anon.post(`/api/v1/esign/ceremony/${id}/sign`, { token, otp }));
  }

  /** approved -> signed (the ceremony's signal reaches the filing shortly after the signature). */
  async function signed(id: string) {
    const s = await post(co2, id, 'sign');
    ok(s);
    assert.equal(s.body.stato, 'signing');
    await signCeremony(s.body.signing_url);
    for (let i = 0; i < 50; i++) {
      const r = await post(co2, id, 'complete-signing');
      if (r.status === 200) { assert.equal(r.body.stato, 'signed'); return; }
      assert.equal(r.body.code, 'SIGNATURE_PENDING', r.text);
      await new Promise((res) => setTimeout(res, 200));
    }
    assert.fail('the ceremony never reached the filing');
  }

  it('creates a draft with its STR deadline, reads and lists it; refuses bad input, other tenants and readers without the role', async () => {
    let r = await analyst.post('/api/filing/create', { titolo: '', tipo: 'ctr', periodo_riferimento: '2026-13' });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), ['periodo_riferimento', 'tipo', 'titolo']);
    r = await analyst.post('/api/filing/create', { titolo: 'CO', tipo: 'comunicazione_oggettiva' });
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), ['periodo_riferimento']);
    r = await analyst.post('/api/filing/create', { titolo: 'X', tipo: 'str', content: { 'Bad-Name': 'x' } });
    assert.equal(r.status, 422);

    const f = await create();
    assert.equal(f.stato, 'draft');
    assert.equal(Math.round((Date.parse(f.due_at) - Date.parse(f.created_at)) / 86_400_000), 30);
    const co = await analyst.post('/api/filing/create', { titolo: 'Contante marzo', tipo: 'comunicazione_oggettiva', periodo_riferimento: '2026-03' });
    ok(co, 201);
    assert.equal(new Date(co.body.due_at).toISOString().slice(0, 10), '2026-05-15', 'CO: by the 15th of the second month after');

    r = await co1.get(`/api/filing/${f.id}`);
    ok(r);
    assert.deepEqual(r.body.events.map((e: { tipo: string }) => e.tipo), ['create']);
    assert.ok(r.body.allowed_actions.includes('classify'));
    r = await co1.get('/api/filing?stato=draft&tipo=str');
    ok(r);
    assert.ok(r.body.items.some((i: { id: string }) => i.id === f.id));
    assert.equal((await co1.get('/api/filing?stato=nope')).status, 422);

    for (const path of [`/api/filing/${f.id}`, `/api/filing/${f.id}/preview?jurisdiction=ae-goaml-5.0.2`, `/api/filing/${f.id}/csv`]) {
      assert.equal((await outsider.get(path)).status, 404, path);
    }
    assert.equal((await outsider.put(`/api/filing/${f.id}`, { titolo: 'mine' })).status, 404);
    assert.equal((await post(outsider, f.id, 'classify', { tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', report_code: 'STR' })).status, 404);
    assert.equal((await outsider.get('/api/filing')).body.items.length, 0);
    assert.equal((await viewer.get('/api/filing')).status, 403);
    assert.equal((await analyst.get('/api/filing/not-a-uuid')).status, 404);
  });

  it('edits only in draft, validates with stable codes and field paths kept on the filing, previews and gives the CSV', async () => {
    const bad = structuredClone(str);
    ((bad.transaction as GoamlNode[])[0]!).amount_local = '-5';
    delete bad.report_indicators;
    const f = await create(bad);
    ok(await analyst.put(`/api/filing/${f.id}`, { titolo: 'Bonifici (rivisto)' }));
    assert.equal((await post(analyst, f.id, 'validate')).status, 409);
    assert.equal((await post(analyst, f.id, 'classify', { tipo: 'str', jurisdiction: 'xx', report_code: 'str' })).status, 422);
    ok(await classify(f.id));
    let r = await analyst.put(`/api/filing/${f.id}`, { titolo: 'late' });
    assert.equal(r.status, 409);
    assert.deepEqual([...r.body.allowed_actions].sort(), ['classify', 'validate']);

    r = await post(analyst, f.id, 'validate');
    assert.equal(r.status, 422, r.text);
    const codes = r.body.findings.map((x: { code: string; path: string }) => `${x.code}@${x.path}`);
    assert.ok(codes.includes('GOAML_AMOUNT_NOT_POSITIVE@transaction[0].amount_local'), codes.join(' '));
    assert.ok(codes.includes('GOAML_NO_INDICATORS@report_indicators'), codes.join(' '));
    assert.ok(codes.some((c: string) => c.startsWith('GOAML_SCHEMA_INVALID@')), 'the XSD refuses what the schema requires too');
    const kept = (await analyst.get(`/api/filing/${f.id}`)).body;
    assert.equal(kept.stato, 'classified');
    assert.equal(kept.findings.length, r.body.findings.length);

    const preview = await analyst.get(`/api/filing/${f.id}/preview`);
    ok(preview);
    assert.equal(preview.body.valid, false);
    assert.match(preview.body.xml, /<report>/);
    assert.equal((await analyst.get(`/api/filing/${f.id}/preview?jurisdiction=nope`)).status, 422);

    const csv = await analyst.get(`/api/filing/${f.id}/csv`);
    ok(csv);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    assert.match(csv.text, /transazione,TXN-987654,2026-05-24T14:30:00,-5,AED,ELCFT,Layla Hassan,AE,John Smith,GB/);
  });

  it('needs a second compliance officer to approve (four-eyes), keeps the reason of a rejection, and refuses other roles', async () => {
    const f = await create();
    ok(await classify(f.id));
    ok(await post(analyst, f.id, 'validate'));
    ok(await post(analyst, f.id, 'mark-ready'));
    ok(await post(co1, f.id, 'submit-for-approval'));
    let r = await post(co1, f.id, 'approve');
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'FOUR_EYES_REQUIRED');
    r = await post(analyst, f.id, 'approve');
    assert.equal(r.status, 403);
    assert.equal((await post(co2, f.id, 'reject', {})).status, 422);
    r = await post(co2, f.id, 'reject', { motivazione: 'Manca la descrizione dell\'operatività' });
    ok(r);
    assert.equal(r.body.stato, 'draft');
    assert.equal(r.body.reject_reason, 'Manca la descrizione dell\'operatività');
    assert.equal((await post(co2, f.id, 'sign')).status, 409);
  });

  it('signs through the e-signature child, renders the package valid against the XSD, and imports an acknowledgement', async () => {
    const id = await approved();
    let r = await post(co2, id, 'complete-signing');
    assert.equal(r.status, 409);
    await signed(id);
    r = await post(co2, id, 'render-package');
    ok(r);
    assert.equal(r.body.stato, 'packaged');
    assert.match(r.body.package_sha256, /^[0-9a-f]{64}$/);
    const row = await env.ownerDb('filings').where({ id }).first('package_xml', 'cod_azienda');
    assert.match(row.package_xml, /<report_code>STR<\/report_code>/);
    assert.equal((await post(co2, id, 'record-submission', {})).status, 422);
    ok(await post(co2, id, 'record-submission', { submission_ref: 'PORTAL-123' }));

    const ref = `FIL-${id.slice(0, 8).toUpperCase()}`;
    const upload = (body: string | Uint8Array, name = 'esito.xml', type = 'application/xml') =>
      uploadReturn(co2, id, { name, type, bytes: typeof body === 'string' ? Buffer.from(body) : body });
    assert.equal((await upload(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'x.png', 'image/png')).status, 415);
    assert.equal((await upload('x'.repeat(1024 * 1024 + 10))).status, 413);
    assert.equal((await upload(returnXml('OTHER-1', 'ACCEPTED'))).status, 422);
    assert.equal((await upload('<report_return><status>ACCEPTED</status>')).status, 422);
    r = await upload(returnXml(ref, 'ACCEPTED'));
    ok(r);
    assert.equal(r.body.stato, 'acknowledged');
    assert.equal(r.body.fiu_ref_number, 'FIU-2026-77');
    ok(await post(co1, id, 'archive'));
    r = await post(co1, id, 'archive');
    assert.equal(r.status, 409, 'an archived filing is final');
    const audit = await env.ownerDb('audit_events').where({ entity_id: id }).orderBy('id').pluck('action');
    assert.deepEqual(audit, ['filing.create', 'filing.classify', 'filing.validate', 'filing.mark-ready', 'filing.submit-for-approval', 'filing.approve',
      'filing.sign', 'filing.complete-signing', 'filing.render-package', 'filing.record-submission', 'filing.import-return', 'filing.archive']);
  });

  it('attaches the errors of a rejection and follows up with a new linked draft', async () => {
    const id = await approved();
    await signed(id);
    ok(await post(co2, id, 'render-package'));
    ok(await post(co2, id, 'record-submission', { submission_ref: 'PORTAL-124' }));
    const ref = `FIL-${id.slice(0, 8).toUpperCase()}`;
    let r = await uploadReturn(co2, id, {
      name: 'esito.xml', type: 'text/xml',
      bytes: Buffer.from(returnXml(ref, 'REJECTED', '<errors><error><code>E12</code><field>transaction[0].amount_local</field><message>Importo non coerente</message></error></errors>')),
    });
    ok(r);
    assert.equal(r.body.stato, 'returned');
    assert.deepEqual(r.body.return_errors, [{ code: 'E12', path: 'transaction[0].amount_local', message: 'Importo non coerente', source: 'return' }]);
    r = await post(analyst, id, 'follow-up');
    ok(r, 201);
    const next = (await analyst.get(`/api/filing/${r.body.follow_up.id}`)).body;
    assert.equal(next.stato, 'draft');
    assert.equal(next.parent_id, id);
    assert.deepEqual(next.content, (await analyst.get(`/api/filing/${id}`)).body.content);
    assert.equal((await analyst.get(`/api/filing/${id}`)).body.follow_up_id, next.id);
  });

  it('serves the pages: list, composer with errors next to the fields, detail with the findings by their field, workbench', async () => {
    let r = await analyst.submitForm('/filing/compose', { titolo: '', tipo: 'str', periodo_riferimento: '', content: '{ not json' });
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-titolo-err"/);
    assert.match(r.text, /id="f-content-err"[^>]*>JSON non valido/);
    const bad = structuredClone(str);
    ((bad.transaction as GoamlNode[])[0]!).amount_local = '0';
    r = await analyst.submitForm('/filing/compose', { titolo: 'Dalla pagina', tipo: 'str', periodo_riferimento: '', content: JSON.stringify(bad) });
    assert.equal(r.status, 302, r.text);
    const id = /\/filing\/([0-9a-f-]{36})$/.exec(r.headers.get('location') ?? '')?.[1];
    assert.ok(id, r.headers.get('location') ?? 'no redirect');
    r = await analyst.submitForm(`/filing/${id}/classifica`, { tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', report_code: 'STR', periodo_riferimento: '' }, `/filing/${id}`);
    assert.equal(r.status, 302);
    r = await analyst.submitForm(`/filing/${id}/azione/validate`, {}, `/filing/${id}`);
    assert.equal(r.status, 302);
    const page = await analyst.get(`/filing/${id}`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /<tr data-field="transaction\[0\]\.amount_local" data-has-errors>[\s\S]*?data-finding="GOAML_AMOUNT_NOT_POSITIVE"/);
    assert.match(page.text, /<svg/, 'the state diagram');
    assert.match(page.text, /Classificata/);
    for (const path of ['/filing', '/filing/workbench']) {
      const p = await co1.get(path, { accept: 'text/html' });
      assert.equal(p.status, 200, path);
      assert.ok(p.text.includes(id!), path);
    }
    assert.match((await co1.get('/filing/workbench', { accept: 'text/html' })).text, /Chi prepara: validazione/);
    assert.equal((await outsider.get(`/filing/${id}`, { accept: 'text/html' })).status, 404);
  });
});
