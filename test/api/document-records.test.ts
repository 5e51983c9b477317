import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { minimalJpeg, minimalPdf, smallPng } from '../helpers/document-files';
import { passportMrz } from '../helpers/document-mrz';

const API = '/api/v1/documenti/records';
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
const pdf = { name: 'passaporto rossi.pdf', type: 'application/pdf', bytes: minimalPdf() };

/** Mario Rossi, born 10 December 1985 (RSSMRA85T10A562S), and his passport zone expiring in four years. */
const MARIO = { nome: 'Mario', cognome: 'Rossi', data_nascita: '1985-12-10', codice_fiscale: 'RSSMRA85T10A562S' };
const marioMrz = (numero = 'YA1234567', scadenza = day(4 * 365)) => passportMrz({ stato: 'ITA', cognome: 'Rossi', nome: 'Mario', numero, nazionalita: 'ITA', nascita: '1985-12-10', sesso: 'M', scadenza });

describe('document records API', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let co: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [analyst, co, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  async function person(over: Record<string, unknown> = {}, codAzienda = tenant): Promise<string> {
    const cod = `ANA-D${String(++n).padStart(5, '0')}`;
    await env.ownerDb('anagrafe').insert({
      cod_azienda: codAzienda, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', ...MARIO, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test', ...over,
    });
    return cod;
  }
  const passportFields = (cod: string, over: Record<string, string> = {}) => ({
    cod_anagrafe: cod, tipo: 'passaporto', numero: 'YA1234567', autorita_rilascio: 'Questura di Bologna', paese_rilascio: 'IT',
    data_rilascio: day(-365), data_scadenza: day(4 * 365), mrz: marioMrz(), ...over,
  });
  async function upload(cod: string, over: Record<string, string> = {}, client = analyst, file = pdf) {
    const r = await send(client, API, passportFields(cod, over), file);
    assert.equal(r.status, 201, r.text);
    return r.body;
  }
  /** A multipart call with the session's CSRF token in the X-CSRF-Token header, as an API client sends it. */
  const tokens = new Map<TestClient, string>();
  async function send(client: TestClient, path: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }) {
    if (!tokens.has(client)) tokens.set(client, await client.csrfToken('/'));
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    if (file) fd.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    return client.request('POST', path, { body: fd, headers: { 'x-csrf-token': tokens.get(client)! } });
  }
  const audit = (action: string, entityId: string) => env.ownerDb('audit_events').where({ cod_azienda: tenant, action, entity_id: entityId });

  it('uploads a document: its type read from the bytes, stored by SHA-256, numbered, version 1, audited', async () => {
    const cod = await person();
    const r = await send(analyst, API, passportFields(cod), pdf);
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.cod_documento, /^DOC-\d{6}$/);
    assert.equal(r.headers.get('location'), `${API}/${r.body.cod_documento}`);
    assert.equal(r.body.versione, 1);
    assert.equal(r.body.mime, 'application/pdf');
    assert.equal(r.body.dimensione, pdf.bytes.length);
    assert.equal(r.body.nome_file, 'passaporto rossi.pdf');
    assert.equal(r.body.esito_verifica, 'da_verificare');
    assert.deepEqual(r.body.verifica, []);
    assert.equal(r.body.versioni.length, 1);
    assert.equal(r.body.versioni[0].motivo, null);
    assert.match(r.body.sha256, /^[0-9a-f]{64}$/);
    assert.equal((await audit('documento.create', r.body.id ?? (await env.ownerDb('documenti').where({ cod_azienda: tenant, cod_documento: r.body.cod_documento }).first()).id)).length, 1);
  });

  it('answers bad input with problem+json naming each field; 415 for another format, 422 for a mislabelled file, 413 over the limit', async () => {
    const cod = await person();
    const bad = await send(analyst, API, { cod_anagrafe: cod, tipo: 'passaporto', data_scadenza: '2030-02-30', mrz: 'P<ITA' }, undefined);
    assert.equal(bad.status, 422);
    assert.match(bad.headers.get('content-type') ?? '', /problem\+json/);
    const paths = (bad.body.errors as { path: string }[]).map((e) => e.path).sort();
    assert.deepEqual(paths, ['data_scadenza', 'file', 'mrz', 'numero']);
    assert.match(bad.body.errors.find((e: { path: string }) => e.path === 'mrz').message, /3 righe di 30 caratteri/);

    const text = await send(analyst, API, passportFields(cod), { name: 'x.pdf', type: 'application/pdf', bytes: Buffer.from('solo testo, non un PDF') });
    assert.equal(text.status, 415, text.text);
    assert.equal(text.body.errors[0].path, 'file');
    const mislabelled = await send(analyst, API, passportFields(cod), { name: 'foto.pdf', type: 'application/pdf', bytes: smallPng() });
    assert.equal(mislabelled.status, 422, mislabelled.text);
    assert.match(mislabelled.body.errors[0].message, /dichiarato come application\/pdf è in realtà image\/png/);
    const huge = await send(analyst, API, passportFields(cod), { name: 'grande.pdf', type: 'application/pdf', bytes: Buffer.concat([minimalPdf(), Buffer.alloc(env.deps.config.uploadMaxBytes)]) });
    assert.equal(huge.status, 413, huge.text);
    assert.equal(huge.body.errors[0].path, 'file');
    assert.equal(await env.ownerDb('documenti').where({ cod_azienda: tenant, cod_anagrafe: cod }).count({ n: '*' }).first().then((x) => Number(x!.n)), 0, 'nothing recorded');

    const otherPerson = await person({}, other);
    const foreign = await send(analyst, API, passportFields(otherPerson), pdf);
    assert.equal(foreign.status, 422, 'another tenant\'s subject is not one of ours');
    assert.equal(foreign.body.errors[0].path, 'cod_anagrafe');
  });

  it('refuses writers\' routes to a viewer (403) and another tenant\'s document (404 on read, replace, verify)', async () => {
    const cod = await person();
    const d = await upload(cod);
    assert.equal((await send(viewer, API, passportFields(cod, { numero: 'YA7654321' }), pdf)).status, 403);
    assert.equal((await viewer.post(`${API}/${d.cod_documento}/verifica`, {})).status, 403);
    assert.equal((await viewer.get(`${API}/${d.cod_documento}`)).status, 200, 'a viewer reads the record');
    assert.equal((await outsider.get(`${API}/${d.cod_documento}`)).status, 404);
    assert.equal((await outsider.post(`${API}/${d.cod_documento}/verifica`, {})).status, 404);
    const replace = await send(outsider, `${API}/${d.cod_documento}/sostituisci`, { motivo: 'Rinnovo' }, pdf);
    assert.equal(replace.status, 404, replace.text);
    assert.equal((await outsider.get(`${API}?cod_anagrafe=${cod}`)).body.total, 0);
  });

  it('verifies a valid passport: every check recorded with its outcome and Italian message, audited', async () => {
    const cod = await person();
    const d = await upload(cod);
    const r = await co.post(`${API}/${d.cod_documento}/verifica`, {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.esito_verifica, 'valido', JSON.stringify(r.body.verifica));
    assert.deepEqual(r.body.verifica.map((c: { controllo: string; esito: string }) => `${c.controllo}:${c.esito}`), [
      'tipo_dimensione:ok', 'leggibile:ok', 'scadenza:ok', 'mrz_cifre:ok', 'mrz_dati:ok', 'codice_fiscale:ok',
    ]);
    assert.ok(r.body.verificato_at);
    const row = await env.ownerDb('documenti').where({ cod_azienda: tenant, cod_documento: d.cod_documento }).first();
    assert.equal(row.esito_verifica, 'valido');
    assert.equal(row.verifica.length, 6);
    assert.equal((await audit('documento.verify', row.id)).length, 1);
  });

  it('finds what is wrong: corrupted zone, zone of someone else, expired document, codice fiscale of another person', async () => {
    const cod = await person({ codice_fiscale: 'RSSMRA85T50A562W', data_nascita: '1985-12-11' });
    const corrupted = marioMrz().replace(/(\n.{13})851210/, '$1851211');
    const d = await upload(cod, { mrz: corrupted, data_scadenza: day(4 * 365) });
    const r = await analyst.post(`${API}/${d.cod_documento}/verifica`, {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.esito_verifica, 'non_valido');
    const c = Object.fromEntries(r.body.verifica.map((x: { controllo: string }) => [x.controllo, x]));
    assert.equal(c.mrz_cifre.esito, 'ko');
    assert.match(c.mrz_cifre.messaggio, /data di nascita \(letta \d, attesa \d\)/);
    assert.equal(c.codice_fiscale.esito, 'ko');
    assert.match(c.codice_fiscale.messaggio, /data di nascita/);

    const expired = await upload(cod, { numero: 'YA0000001', mrz: '', data_rilascio: day(-4000), data_scadenza: day(-10) });
    assert.equal(expired.stato, 'scaduto');
    const e = await analyst.post(`${API}/${expired.cod_documento}/verifica`, {});
    assert.equal(e.body.verifica.find((x: { controllo: string }) => x.controllo === 'scadenza').esito, 'ko');
    assert.equal(e.body.verifica.find((x: { controllo: string }) => x.controllo === 'mrz_cifre').esito, 'non_applicabile');
  });

  it('replaces a document: a new version with its reason, the old kept and listed, the outcome back to "da verificare", audited', async () => {
    const cod = await person();
    const d = await upload(cod);
    await co.post(`${API}/${d.cod_documento}/verifica`, {});
    const missing = await send(analyst, `${API}/${d.cod_documento}/sostituisci`, { motivo: '' }, undefined);
    assert.equal(missing.status, 422);
    assert.deepEqual((missing.body.errors as { path: string }[]).map((e) => e.path).sort(), ['file', 'motivo']);

    const scadenza = day(6 * 365);
    const jpeg = { name: 'rinnovo.jpg', type: 'image/jpeg', bytes: minimalJpeg(800, 600) };
    const r = await send(analyst, `${API}/${d.cod_documento}/sostituisci`, { motivo: 'Passaporto rinnovato', numero: 'YB7654321', data_scadenza: scadenza, mrz: marioMrz('YB7654321', scadenza) }, jpeg);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.versione, 2);
    assert.equal(r.body.numero, 'YB7654321');
    assert.equal(r.body.data_scadenza, scadenza);
    assert.equal(r.body.mime, 'image/jpeg');
    assert.equal(r.body.esito_verifica, 'da_verificare');
    assert.deepEqual(r.body.verifica, []);
    assert.deepEqual(r.body.versioni.map((v: { versione: number }) => v.versione), [2, 1]);
    assert.equal(r.body.versioni[0].motivo, 'Passaporto rinnovato');
    assert.equal(r.body.versioni[1].mime, 'application/pdf', 'the old version is kept as it was');
    assert.equal(r.body.versioni[1].dati.numero, 'YA1234567');
    const row = await env.ownerDb('documenti').where({ cod_azienda: tenant, cod_documento: d.cod_documento }).first();
    const [a] = await audit('documento.replace', row.id);
    assert.equal(a.data.versione, 2);
    assert.deepEqual(a.data.data_scadenza, { old: d.data_scadenza, new: scadenza });
    // The new version verifies on its own copy (a JPEG now).
    const v = await co.post(`${API}/${d.cod_documento}/verifica`, {});
    assert.equal(v.body.esito_verifica, 'valido', JSON.stringify(v.body.verifica));
    assert.match(v.body.verifica[1].messaggio, /JPEG 800 × 600/);
  });

  it('lists documents through the list kit with filters, search and cursors', async () => {
    const cod = await person();
    const a = await upload(cod);
    const b = await upload(cod, { tipo: 'carta_identita', numero: 'CA00000AA', mrz: '' });
    await co.post(`${API}/${a.cod_documento}/verifica`, {});
    const all = await analyst.get(`${API}?cod_anagrafe=${cod}`);
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 2);
    assert.deepEqual(all.body.items.map((x: { cod_documento: string }) => x.cod_documento), [b.cod_documento, a.cod_documento]);
    assert.equal((await analyst.get(`${API}?cod_anagrafe=${cod}&tipo=carta_identita`)).body.items[0].cod_documento, b.cod_documento);
    assert.equal((await analyst.get(`${API}?cod_anagrafe=${cod}&esito_verifica=valido`)).body.items[0].cod_documento, a.cod_documento);
    assert.equal((await analyst.get(`${API}?q=${b.cod_documento}`)).body.total, 1);
    const first = await analyst.get(`${API}?cod_anagrafe=${cod}&limit=1`);
    const next = await analyst.get(`${API}?cod_anagrafe=${cod}&limit=1&cursor=${first.body.next_cursor}`);
    assert.equal(next.body.items[0].cod_documento, a.cod_documento);
    const bad = await analyst.get(`${API}?esito_verifica=forse`);
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].path, 'esito_verifica');
  });

  it('a replacement with a new expiry tells the KYC verification relying on the document (its deadline follows)', async () => {
    const cod = await person();
    const d = await upload(cod, { data_scadenza: day(100), mrz: marioMrz('YA1234567', day(100)) });
    const opened = await co.post('/api/v1/kyc/verifiche', { cod_anagrafe: cod, documenti: [d.cod_documento] });
    assert.equal(opened.status, 201, opened.text);
    assert.equal(opened.body.scade_il.slice(0, 10) <= day(100), true, `the document's expiry bounds the verification: ${opened.body.scade_il}`);
    const sooner = day(40);
    const r = await send(analyst, `${API}/${d.cod_documento}/sostituisci`, { motivo: 'Documento corretto: scadenza errata', data_scadenza: sooner, mrz: marioMrz('YA1234567', sooner) }, pdf);
    assert.equal(r.status, 200, r.text);
    const until = Date.now() + 20_000;
    let row: { id: string; scade_il: Date } | undefined;
    for (;;) {
      row = await env.ownerDb('verifiche').where({ cod_azienda: tenant, cod_verifica: opened.body.cod_verifica }).first('id', 'scade_il');
      if (row && new Date(row.scade_il).getTime() < Date.parse(`${day(41)}T00:00:00Z`)) break;
      if (Date.now() > until) assert.fail(`the verification's deadline did not follow the new expiry: ${String(row?.scade_il)}`);
      await new Promise((ok) => setTimeout(ok, 250));
    }
    assert.equal((await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'verifica.scadenza', entity_id: row.id })).length, 1);
  });
});
