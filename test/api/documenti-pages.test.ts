import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { minimalJpeg, minimalPdf } from '../helpers/document-files';
import { passportMrz } from '../helpers/document-mrz';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
const html = { accept: 'text/html' };

/** The /documenti pages without JavaScript: forms post (multipart with ?_csrf=), the server redirects or answers 422 with the form. */
describe('documenti pages', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let co: TestClient;
  let viewer: TestClient;
  let auditor: TestClient;
  let outsider: TestClient;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [analyst, co, viewer, auditor, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['auditor'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
  });

  async function person(): Promise<string> {
    const cod = `ANA-P${String(++n).padStart(5, '0')}`;
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Bianchi', nome: 'Giulia', cognome: 'Bianchi',
      data_nascita: '1990-03-25', codice_fiscale: 'BNCGLI90C65H501X', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });
    return cod;
  }
  const mrz = (numero: string, scadenza: string) => passportMrz({ stato: 'ITA', cognome: 'Bianchi', nome: 'Giulia', numero, nazionalita: 'ITA', nascita: '1990-03-25', sesso: 'F', scadenza });
  /** Posts a multipart page form the way the browser does: the token of the page in the query string. */
  async function postForm(client: TestClient, page: string, action: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }) {
    const token = await client.csrfToken(page);
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    if (file) fd.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    return client.request('POST', `${action}?_csrf=${encodeURIComponent(token)}`, { body: fd, headers: html });
  }
  const fields = (cod: string, over: Record<string, string> = {}) => {
    const scadenza = day(3 * 365);
    return { cod_anagrafe: cod, tipo: 'passaporto', numero: 'YA1112223', autorita_rilascio: 'Questura di Roma', paese_rilascio: 'IT', data_rilascio: day(-200), data_scadenza: scadenza, mrz: mrz('YA1112223', scadenza), ...over };
  };
  const pdf = { name: 'passaporto "Giulia" è.pdf', type: 'application/pdf', bytes: minimalPdf() };

  it('uploads through the form: errors next to the fields, what was typed and the file kept; then the detail', async () => {
    const cod = await person();
    const form = await analyst.get(`/documenti/carica?cod_anagrafe=${cod}`, html);
    assert.equal(form.status, 200);
    assert.match(form.text, new RegExp(`name="cod_anagrafe" value="${cod}"`));

    // A wrong date and a wrong zone: refused with the messages by the fields; the file, already checked, is kept.
    const bad = await postForm(analyst, '/documenti/carica', '/documenti/carica', fields(cod, { data_scadenza: '2030-13-01', mrz: 'P<ITABIANCHI' }), pdf);
    assert.equal(bad.status, 422, bad.text.slice(0, 500));
    assert.match(bad.text, /id="f-data_scadenza-err"[^>]*>Data non valida/);
    assert.match(bad.text, /id="f-mrz-err"[^>]*>La zona a lettura ottica deve avere/);
    assert.match(bad.text, /value="Questura di Roma"/, 'what was typed comes back');
    assert.match(bad.text, /id="riepilogo-errori"/);
    assert.match(bad.text, /data-kept-file/, 'the file need not be chosen again');
    const token = /name="file_token" value="([^"]+)"/.exec(bad.text)![1]!;
    assert.equal(await env.ownerDb('documenti').where({ cod_azienda: tenant, cod_anagrafe: cod }).count({ n: '*' }).first().then((r) => Number(r!.n)), 0);

    // A forged token is not a file.
    const forged = await postForm(analyst, '/documenti/carica', '/documenti/carica', { ...fields(cod), file_token: token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) });
    assert.equal(forged.status, 422);
    assert.match(forged.text, /id="f-file-err"[^>]*>Scegli il file del documento/);

    // Corrected, without choosing the file again.
    const ok = await postForm(analyst, '/documenti/carica', '/documenti/carica', { ...fields(cod), file_token: token });
    assert.equal(ok.status, 302, ok.text.slice(0, 800));
    const location = ok.headers.get('location')!;
    assert.match(location, /^\/documenti\/DOC-\d{6}$/);
    const detail = await analyst.get(location, html);
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Giulia Bianchi/);
    assert.match(detail.text, /data-non-verificato/);
    assert.match(detail.text, /data-versione="1"/);
    assert.match(detail.text, /passaporto &quot;Giulia&quot; è\.pdf/);
  });

  it('refuses an unknown subject and a file that is not a document, next to their fields', async () => {
    const bad = await postForm(analyst, '/documenti/carica', '/documenti/carica', fields('ANA-NONCE'), { name: 'nota.pdf', type: 'application/pdf', bytes: Buffer.from('testo') });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-file-err"[^>]*>Formato non ammesso/);
    const unknown = await postForm(analyst, '/documenti/carica', '/documenti/carica', fields('ANA-NONCE'), pdf);
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /id="f-cod_anagrafe-err"[^>]*>Nessun soggetto in anagrafe/);
  });

  it('verifies from the detail page, replaces with a new version, downloads any version (audited, safe file name)', async () => {
    const cod = await person();
    const up = await postForm(analyst, '/documenti/carica', '/documenti/carica', fields(cod, { numero: 'YA5556667', mrz: mrz('YA5556667', day(3 * 365)) }), pdf);
    assert.equal(up.status, 302, up.text.slice(0, 800));
    const path = up.headers.get('location')!;
    const code = path.split('/').pop()!;

    const verified = await co.submitForm(`${path}/verifica`, {}, path);
    assert.equal(verified.status, 302);
    const page = await co.get(path, html);
    assert.match(page.text, /data-controllo="mrz_cifre" data-esito="ok"/);
    assert.match(page.text, /data-controllo="codice_fiscale" data-esito="ok"/);
    assert.match(page.text, /data-status="valido"/);

    // Replacement: the reason is required (message next to it, the form open), then a new version.
    const noReason = await postForm(analyst, path, `${path}/sostituisci`, { motivo: '' }, { name: 'nuovo.jpg', type: 'image/jpeg', bytes: minimalJpeg() });
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="f-motivo-err"/);
    assert.match(noReason.text, /<details[^>]*id="sostituisci" open/);
    assert.match(noReason.text, /data-kept-file/);
    const replaced = await postForm(analyst, path, `${path}/sostituisci`, { motivo: 'Scansione illeggibile', file_token: /name="file_token" value="([^"]+)"/.exec(noReason.text)![1]! });
    assert.equal(replaced.status, 302, replaced.text.slice(0, 800));
    const after = await analyst.get(path, html);
    assert.match(after.text, /data-versione="2"/);
    assert.match(after.text, /data-versione="1"/);
    assert.match(after.text, /Scansione illeggibile/);
    assert.match(after.text, /data-non-verificato/, 'the new version is to verify again');

    // Downloads: the current version by default, any version by ?versione=; each audited.
    const current = await auditor.getBytes(`${path}/download`);
    assert.equal(current.status, 200);
    assert.equal(current.headers.get('content-type'), 'image/jpeg');
    const v1 = await auditor.getBytes(`${path}/download?versione=1`);
    assert.equal(v1.status, 200);
    assert.equal(v1.headers.get('content-type'), 'application/pdf');
    assert.deepEqual(v1.bytes, pdf.bytes);
    const cd = v1.headers.get('content-disposition')!;
    assert.match(cd, /^attachment; filename="passaporto_Giulia_.pdf"; filename\*=UTF-8''passaporto%20%22Giulia%22%20%C3%A8\.pdf$/);
    assert.equal(v1.headers.get('x-content-type-options'), 'nosniff');
    assert.equal((await auditor.getBytes(`${path}/download?versione=9`)).status, 404);
    assert.equal((await auditor.getBytes(`${path}/download?versione=due`)).status, 404);
    const doc = await env.ownerDb('documenti').where({ cod_azienda: tenant, cod_documento: code }).first();
    const downloads = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'documento.download', entity_id: doc.id }).orderBy('occurred_at');
    assert.deepEqual(downloads.map((a) => a.data.versione), [2, 1]);

    // A viewer sees the record, not the copy; another tenant sees nothing.
    assert.equal((await viewer.get(path, html)).status, 200);
    assert.equal((await viewer.getBytes(`${path}/download`)).status, 403);
    assert.equal((await viewer.submitForm(`${path}/verifica`, {}, path)).status, 403);
    assert.equal((await outsider.get(path, html)).status, 404);
    assert.equal((await outsider.getBytes(`${path}/download`)).status, 404);
  });

  it('lists documents with filters, and the navigation has Documenti under Clienti', async () => {
    const list = await viewer.get('/documenti', html);
    assert.equal(list.status, 200);
    assert.match(list.text, /data-cod-documento="DOC-\d{6}"/);
    assert.doesNotMatch(list.text, /Carica un documento/, 'a viewer does not upload');
    assert.match(list.text, /href="\/documenti"[^>]*>[^<]*Documenti/);
    const filtered = await analyst.get('/documenti?esito_verifica=valido', html);
    assert.equal(filtered.status, 200);
    const rows = filtered.text.match(/data-cod-documento=/g) ?? [];
    assert.equal(rows.length, 0, 'the one verified document was replaced since: to verify again');
    assert.match((await analyst.get('/documenti', html)).text, /Carica un documento/);
    assert.equal((await viewer.get('/documenti/carica', html)).status, 403);
  });
});
