import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { verifyManifest } from '../../src/domains/dossier';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { pdfText } from '../helpers/pdf-text';

const ALL = ['identita', 'rapporti', 'titolari', 'documenti', 'cdd', 'edd', 'rischio', 'screening', 'movimenti', 'casi'];

describe('dossier API and pages (customer dossiers)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient, co: TestClient, auditor: TestClient, viewer: TestClient, outsider: TestClient;
  let coUser: TestUser;
  let company: string;
  let giulia: string;
  let dossierId: string;

  const ok = (r: { status: number; text: string }, status = 200) => assert.equal(r.status, status, r.text);
  const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    coUser = await env.createUser({ tenant, roles: ['co'] });
    [analyst, co, auditor, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.login(coUser),
      env.createUser({ tenant, roles: ['auditor'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    const c = await analyst.post('/api/anagrafe', {
      tipo_soggetto: 'societa', denominazione: 'Ceramiche Sassolesi S.r.l.', codice_fiscale: '07778889993', partita_iva: '07778889993', paese_residenza: 'IT', nazionalita: 'IT',
    });
    ok(c, 201);
    company = c.body.cod_anagrafe;
    const p = await analyst.post('/api/anagrafe', {
      tipo_soggetto: 'persona_fisica', nome: 'Mario', cognome: 'Rossi', codice_fiscale: 'RSSMRA85T10A562S', data_nascita: '1985-12-10', luogo_nascita: 'Pisa', nazionalita: 'IT', paese_residenza: 'IT',
    });
    ok(p, 201);
    ok(await analyst.post('/api/legami', { cod_anagrafe_da: company, cod_anagrafe_a: p.body.cod_anagrafe, tipo: 'socio', percentuale: 60, dal: '2025-06-01' }), 201);
    // A second level: a holding with 40% of the company, held 90% by Giulia Verdi (36% effective, 40% under art. 20 as she controls it).
    const h = await analyst.post('/api/anagrafe', {
      tipo_soggetto: 'societa', denominazione: 'Holding Emiliana S.p.A.', codice_fiscale: '04555666777', partita_iva: '04555666777', paese_residenza: 'IT', nazionalita: 'IT',
    });
    ok(h, 201);
    const g = await analyst.post('/api/anagrafe', { tipo_soggetto: 'persona_fisica', nome: 'Giulia', cognome: 'Verdi', data_nascita: '1979-04-02', nazionalita: 'IT', paese_residenza: 'IT' });
    ok(g, 201);
    giulia = g.body.cod_anagrafe;
    ok(await analyst.post('/api/legami', { cod_anagrafe_da: company, cod_anagrafe_a: h.body.cod_anagrafe, tipo: 'socio', percentuale: 40, dal: '2025-06-01' }), 201);
    ok(await analyst.post('/api/legami', { cod_anagrafe_da: h.body.cod_anagrafe, cod_anagrafe_a: giulia, tipo: 'socio', percentuale: 90, dal: '2025-06-01' }), 201);
    ok(await analyst.post('/api/rapporti', { cod_anagrafe: company, tipo: 'conto_corrente', data_apertura: '2026-01-15', scopo: 'Conto aziendale' }), 201);
  });

  it('generates a dossier with its signed manifest; refuses bad input, unknown and other tenants\' customers, and roles that may not', async () => {
    let r = await analyst.post('/api/dossier/generate', { sezioni: ['nope'] });
    assert.deepEqual([r.status, paths(r)], [422, ['cod_anagrafe', 'sezioni.0']]);
    r = await analyst.post('/api/dossier/generate', { cod_anagrafe: company, sezioni: [] });
    assert.deepEqual([r.status, paths(r)], [422, ['sezioni']]);
    r = await analyst.post('/api/dossier/generate', { cod_anagrafe: company, sezioni: ALL, extra: 1 });
    assert.equal(r.status, 422);
    r = await analyst.post('/api/dossier/generate', { cod_anagrafe: 'ANA-999999', sezioni: ALL });
    assert.deepEqual([r.status, paths(r)], [422, ['cod_anagrafe']]);
    r = await outsider.post('/api/dossier/generate', { cod_anagrafe: company, sezioni: ALL });
    assert.deepEqual([r.status, paths(r)], [422, ['cod_anagrafe']], 'another tenant\'s customer does not exist for them');
    assert.equal((await viewer.post('/api/dossier/generate', { cod_anagrafe: company, sezioni: ALL })).status, 403);
    assert.equal((await auditor.post('/api/dossier/generate', { cod_anagrafe: company, sezioni: ALL })).status, 403);

    r = await analyst.post('/api/dossier/generate', { cod_anagrafe: company, sezioni: ALL });
    ok(r, 201);
    dossierId = r.body.id;
    assert.equal(r.body.stato, 'generated');
    assert.equal(r.headers.get('location'), `/dossier/${dossierId}`);
    assert.match(r.body.pdf_sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(r.body.sezioni, ALL);
    assert.deepEqual(r.body.allowed_actions, [], 'the analyst neither signs nor archives');

    const pdf = await auditor.getBytes(`/api/dossier/download/${company}`);
    assert.equal(pdf.status, 200);
    assert.match(pdf.headers.get('content-type') ?? '', /application\/pdf/);
    assert.equal(createHash('sha256').update(pdf.bytes).digest('hex'), r.body.pdf_sha256);
    const check = await verifyManifest(r.body.manifest_jws, pdf.bytes);
    assert.ok(check.valid && check.manifest.cod_anagrafe === company && check.manifest.pages === r.body.pagine, JSON.stringify(check));
    const text = pdfText(pdf.bytes);
    for (const s of ['Ceramiche Sassolesi S.r.l.', 'Mario Rossi', 'Socio 60%', 'Conto corrente', `Pagina 1 di ${r.body.pagine}`]) assert.ok(text.includes(s), `PDF lacks ${s}`);
    // The whole chain: the holding and the person above it, the person a beneficial owner with her effective share (the UBO engine's).
    for (const s of ['Holding Emiliana S.p.A.', 'Socio 40%', 'Socio 90%', 'Titolare effettivo 36%', 'Titolare effettivo 60%', 'Titolari effettivi calcolati sulla catena: Proprietà (art. 20, comma 2)']) {
      assert.ok(text.includes(s), `PDF lacks ${s}`);
    }
    assert.match(text, new RegExp(`Giulia Verdi \\(${giulia}\\)\n36%\n40%\nProprietà indiretta\n`), 'her row: effective share, share under art. 20, the reason');
    // The dossier is indexed in the document spine with the same hash, and its bytes read back from there.
    const spine = await auditor.get(`/api/documents/spine?q=${r.body.pdf_sha256}`);
    ok(spine);
    const entry = spine.body.items.find((e: { tipo: string }) => e.tipo === 'dossier');
    assert.ok(entry && entry.cod_anagrafe === company, JSON.stringify(spine.body.items));
    const fromSpine = await auditor.getBytes(`/documenti/spine/${entry.cod_spine}/download`);
    assert.equal(fromSpine.status, 200);
    assert.equal(createHash('sha256').update(fromSpine.bytes).digest('hex'), r.body.pdf_sha256);
    const manifest = await auditor.get(`/api/dossier/download/${company}?formato=manifest&id=${dossierId}`);
    ok(manifest);
    assert.equal(manifest.body.manifest.file.sha256, r.body.pdf_sha256);
    const audited = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'dossier.download', entity_id: dossierId }).select('data');
    assert.deepEqual(audited.map((a) => a.data.formato).sort(), ['manifest', 'pdf'], 'every download is audited');

    assert.equal((await auditor.get(`/api/dossier/download/${company}?formato=docx`)).status, 422);
    assert.equal((await auditor.get(`/api/dossier/download/${company}?id=x`)).status, 422);
    assert.equal((await viewer.get(`/api/dossier/download/${company}`)).status, 403);
    assert.equal((await outsider.get(`/api/dossier/download/${company}`)).status, 404);
    assert.equal((await auditor.get('/api/dossier/download/ANA-999999')).status, 404);

    r = await auditor.get(`/api/dossier?cod_anagrafe=${company}&stato=generated`);
    ok(r);
    assert.deepEqual(r.body.items.map((i: { id: string }) => i.id), [dossierId]);
    assert.equal(r.body.items[0].pdf, undefined, 'the list never carries the bytes');
    assert.equal((await auditor.get('/api/dossier?stato=nope')).status, 422);
    assert.equal((await auditor.get('/api/dossier?cursor=zzz')).status, 422);
    assert.equal((await outsider.get('/api/dossier')).body.items.length, 0);
    assert.equal((await viewer.get('/api/dossier')).status, 403);
  });

  it('signs through the e-signature child, then archives; 409 with the allowed actions on invalid transitions, 404 across tenants', async () => {
    for (const a of ['sign', 'complete-signing', 'archive']) {
      assert.equal((await outsider.post(`/api/dossier/${dossierId}/${a}`, {})).status, 404, a);
      assert.equal((await co.post(`/api/dossier/00000000-0000-4000-8000-000000000000/${a}`, {})).status, 404, a);
    }
    assert.equal((await co.post('/api/dossier/not-a-uuid/sign', {})).status, 404);
    assert.equal((await co.post(`/api/dossier/${dossierId}/sign`, { motivazione: 1 })).status, 422);
    assert.equal((await analyst.post(`/api/dossier/${dossierId}/sign`, {})).status, 403);
    let r = await co.post(`/api/dossier/${dossierId}/complete-signing`, {});
    assert.equal(r.status, 409);
    assert.deepEqual([...r.body.allowed_actions].sort(), ['archive', 'sign']);

    r = await co.post(`/api/dossier/${dossierId}/sign`, {});
    ok(r);
    assert.equal(r.body.stato, 'signing');
    assert.match(r.body.signing_url, /^\/esign\/ceremony\/[0-9a-f-]+\?token=/);
    const signingUrl = r.body.signing_url as string;
    r = await co.post(`/api/dossier/${dossierId}/complete-signing`, {});
    assert.deepEqual([r.status, r.body.code], [409, 'SIGNATURE_PENDING']);
    assert.equal((await co.post(`/api/dossier/${dossierId}/sign`, {})).body.code, 'SIGNATURE_PENDING', 'one ceremony at a time');
    const ceremony = await env.ownerDb('esign_ceremonies').where({ cod_azienda: tenant }).orderBy('created_at', 'desc').first('parent_workflow_id');
    assert.equal(ceremony.parent_workflow_id, `dossier:${tenant}:${dossierId}`);

    const u = new URL(signingUrl, 'http://x');
    const signing = u.pathname.split('/').pop()!;
    const token = u.searchParams.get('token')!;
    const page = await co.get(`/dossier/${dossierId}`);
    assert.ok(page.text.includes(`/esign/ceremony/${signing}?token=`), 'the detail page links the ceremony');
    const anon = env.client();
    ok(await anon.post(`/api/v1/esign/ceremony/${signing}/terms`, { token }));
    const after = await env.mailbox.cursor();
    ok(await anon.post(`/api/v1/esign/ceremony/${signing}/present`, { token }));
    const otp = await env.mailbox.otp(`${coUser.username}@example.test`, after);
    ok(await anon.post(`/api/v1/esign/ceremony/${signing}/sign`, { token, otp }));
    for (let i = 0; ; i++) {
      r = await co.post(`/api/dossier/${dossierId}/complete-signing`, {});
      if (r.status === 200) break;
      assert.equal(r.body.code, 'SIGNATURE_PENDING', r.text);
      assert.ok(i < 50, 'the ceremony never reached the dossier');
      await new Promise((res) => setTimeout(res, 200));
    }
    assert.equal(r.body.stato, 'signed');
    assert.equal(r.body.signed_by, coUser.username);

    r = await co.post(`/api/dossier/${dossierId}/archive`, {});
    ok(r);
    assert.equal(r.body.stato, 'archived');
    r = await co.post(`/api/dossier/${dossierId}/archive`, {});
    assert.equal(r.status, 409);
    assert.deepEqual(r.body.allowed_actions, []);
    assert.equal((await co.post(`/api/dossier/${dossierId}/sign`, {})).status, 409);
    const actions = (await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_id: dossierId }).orderBy('id').select('action')).map((a) => a.action);
    for (const a of ['dossier.generate', 'dossier.sign', 'dossier.complete-signing', 'dossier.archive']) assert.ok(actions.includes(a), a);
  });

  it('serves the pages: list, detail, builder with a message next to the sections, and the audited download', async () => {
    ok(await auditor.get('/dossier'));
    ok(await auditor.get('/dossier?stato=nope'));
    const d = await auditor.get(`/dossier/${dossierId}`);
    ok(d);
    assert.match(d.text, /Archiviato/);
    assert.equal((await outsider.get(`/dossier/${dossierId}`)).status, 404);
    assert.equal((await viewer.get('/dossier')).status, 403);

    const b = await analyst.get(`/dossier/builder/${company}`);
    ok(b);
    assert.match(b.text, /name="sezioni" value="movimenti"/);
    assert.equal((await analyst.get('/dossier/builder/ANA-999999')).status, 404);
    assert.equal((await outsider.get(`/dossier/builder/${company}`)).status, 404);
    assert.equal((await auditor.get(`/dossier/builder/${company}`)).status, 403);
    const detail = await analyst.get(`/anagrafe/${company}`);
    assert.match(detail.text, new RegExp(`href="/dossier/builder/${company}"[^>]*>Genera fascicolo`));

    let r = await analyst.submitForm('/dossier/generate', { cod_anagrafe: company, sezioni: 'nope' }, `/dossier/builder/${company}`);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-sezioni-err"/);
    r = await analyst.submitForm('/dossier/generate', { cod_anagrafe: company, sezioni: ['identita', 'titolari'] }, `/dossier/builder/${company}`);
    assert.equal(r.status, 302, r.text.slice(0, 500));
    const id = r.headers.get('location')!.split('/').pop()!;
    const pdf = await co.getBytes(`/dossier/download/${company}?id=${id}`);
    assert.equal(pdf.status, 200);
    const text = pdfText(pdf.bytes);
    assert.ok(text.includes('Titolari effettivi e struttura proprietaria') && !text.includes('Sintesi dei movimenti'));
    assert.equal((await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'dossier.download', entity_id: id })).length, 1);
    assert.equal((await outsider.getBytes(`/dossier/download/${company}`)).status, 404);
  });
});
