import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { DocumentStore } from '../../src/domains/onboarding';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const html = { accept: 'text/html' };
const htmx = { accept: 'text/html', 'hx-request': 'true' };

/** A small real PDF (the store keeps bytes; the download must give the same back). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/**
 * The KYC and KYB consoles (issue 13 part console) on verifications opened through part kyc's API:
 * the lists (filters, htmx fragment), the detail pages (diagram and buttons from the machine,
 * checks, profile, declared data, documents, timeline), the page forms (field errors, 409 and 403
 * as messages), the audited downloads, another tenant's records as 404, and the customer file.
 */
describe('verifications console', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;
  let analyst: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let kyc: string;
  let kyb: string;
  let docKyc: string;
  let docKyb: string;

  async function seedDocument(cod: string, codAnagrafe: string, tipo: string, nome: string): Promise<string> {
    const sha = await new DocumentStore(env.deps.config.documentDir).put(tenant, PDF);
    await env.ownerDb('documenti').insert({
      id: randomUUID(), cod_azienda: tenant, cod_documento: cod, cod_anagrafe: codAnagrafe, tipo, numero: `N${cod.slice(-6)}`, data_scadenza: '2031-05-31',
      stato: 'valido', sha256: sha, nome_file: nome, mime: 'application/pdf', dimensione: PDF.length, created_by: 'test',
    });
    return cod;
  }

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [co, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    await env.ownerDb('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-CON001', tipo_soggetto: 'persona_fisica', nome: 'Lucia', cognome: 'Mancini', denominazione: 'Lucia Mancini', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-CON002', tipo_soggetto: 'societa', denominazione: 'Officine Meccaniche Brianza S.r.l.', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
    ]);
    // A name chosen to break a header: quotes, a path, a line break and a bidi override.
    docKyc = await seedDocument('DOC-910001', 'ANA-CON001', 'carta_identita', 'carta "identità"/../\r\nX-Evil: 1\u202Efdp.exe');
    docKyb = await seedDocument('DOC-910002', 'ANA-CON002', 'visura_camerale', 'visura.pdf');
    const k = await analyst.post('/api/v1/kyc/verifiche', {
      cod_anagrafe: 'ANA-CON001', documenti: [docKyc],
      dati_dichiarati: { nome: 'Lucia', cognome: 'Mancini', data_nascita: '1984-03-12', nazionalita: 'IT', pep: false },
    });
    assert.equal(k.status, 201, k.text);
    kyc = k.body.cod_verifica;
    const b = await analyst.post('/api/v1/kyb/verifiche', {
      cod_anagrafe: 'ANA-CON002', documenti: [docKyb],
      dati_dichiarati: { denominazione: 'Officine Meccaniche Brianza S.r.l.', titolari: [{ nome: 'Paolo', cognome: 'Brambilla', codice_fiscale: 'BRMPLA70A01F205X', percentuale: 60 }] },
    });
    assert.equal(b.status, 201, b.text);
    kyb = b.body.cod_verifica;
  });

  it('lists each kind with its filters; htmx gets the table alone; a bad filter is a message, not an error', async () => {
    const list = await viewer.get('/admin/kyc', html);
    assert.equal(list.status, 200, list.text.slice(0, 500));
    assert.match(list.text, new RegExp(`href="/admin/kyc/${kyc}"`));
    assert.doesNotMatch(list.text, new RegExp(kyb), 'the KYC console lists no KYB');
    assert.match(list.text, /Lucia Mancini/);
    assert.match(list.text, /<option value="pending" selected>|<option value="pending">/);
    const filtered = await viewer.get('/admin/kyb?stato=approved', html);
    assert.equal(filtered.status, 200);
    assert.doesNotMatch(filtered.text, new RegExp(`href="/admin/kyb/${kyb}"`), 'the open KYB is not approved');
    assert.match(filtered.text, /Nessuna verifica KYB trovata/);
    const search = await viewer.get(`/admin/kyb?q=${kyb}`, htmx);
    assert.equal(search.status, 200);
    assert.doesNotMatch(search.text, /<html/, 'the fragment only');
    assert.match(search.text, /id="verifiche-tabella"/);
    assert.match(search.text, new RegExp(`href="/admin/kyb/${kyb}"`));
    assert.equal(search.headers.get('vary')?.includes('HX-Request'), true);
    const bad = await viewer.get('/admin/kyc?stato=sconosciuto', html);
    assert.equal(bad.status, 200);
    assert.match(bad.text, /data-filter-errors[^>]*>Stato non valido/);
  });

  it('a KYC page shows state, buttons from the machine, declared data, documents with their download, timeline and workflow', async () => {
    const r = await analyst.get(`/admin/kyc/${kyc}`, html);
    assert.equal(r.status, 200, r.text.slice(0, 500));
    assert.match(r.text, /data-current-state="pending"/);
    assert.match(r.text, /data-action="start"/, 'the analyst may take it in hand');
    assert.doesNotMatch(r.text, /data-action="approve"/, 'not approvable while pending');
    assert.match(r.text, /Data di nascita<\/dt><dd class="col-sm-8">12\/03\/1984/);
    assert.match(r.text, new RegExp(`href="/api/v1/admin/kyc/documenti/${docKyc}/download"`));
    assert.match(r.text, /data-timeline/);
    assert.match(r.text, /Verifica KYC\/KYB aperta|data-workflow-id/);
    assert.match(r.text, /data-workflow-id="verification:/);
    const v = await viewer.get(`/admin/kyc/${kyc}`, html);
    assert.doesNotMatch(v.text, /data-action="start"/, 'a viewer gets no buttons');
    assert.doesNotMatch(v.text, /data-download/, 'nor the download');
    assert.equal((await viewer.get(`/admin/kyb/${kyc}`, html)).status, 404, 'a KYC code on the KYB console');
  });

  it('a KYB page shows its checks with their forms, the profile form, the declared owners', async () => {
    const r = await co.get(`/admin/kyb/${kyb}`, html);
    assert.equal(r.status, 200, r.text.slice(0, 500));
    for (const t of ['registro', 'rappresentanti', 'titolari_effettivi', 'pep', 'sanzioni', 'informazioni_negative', 'documenti']) {
      assert.match(r.text, new RegExp(`data-check-tipo="${t}"`), `check ${t}`);
    }
    assert.match(r.text, /data-waive-form/, 'the officer may waive');
    assert.match(r.text, /data-profilo-form/);
    assert.match(r.text, /Titolari effettivi dichiarati[\s\S]*Brambilla[\s\S]*60%/);
    const a = await analyst.get(`/admin/kyb/${kyb}`, html);
    assert.match(a.text, /data-check-form/);
    assert.doesNotMatch(a.text, /data-waive-form/, 'an analyst does not waive');
  });

  it('the forms: errors next to the fields, a refusal as a message, then a KYB approved once its checks pass or are waived', async () => {
    const page = `/admin/kyb/${kyb}`;
    let r: Awaited<ReturnType<TestClient['submitForm']>>;
    // The profile with a bad ATECO code and a future incorporation date: both next to their fields, the typed values kept.
    r = await analyst.submitForm(`${page}/profilo`, {
      forma_giuridica: 'srl', numero_registro: 'MB-1234567', registro: 'Registro delle imprese di Monza e Brianza', codice_ateco: '2562',
      paese_costituzione: 'IT', data_costituzione: '2999-01-01', 'sede_legale.indirizzo': 'Via Lecco 12', 'sede_legale.cap': '20900',
      'sede_legale.comune': 'Monza', 'sede_legale.provincia': 'MB', 'sede_legale.paese': 'IT', capitale_sociale: '50000',
    }, page);
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.match(r.text, /id="f-codice_ateco-err">Codice ATECO non valido/);
    assert.match(r.text, /id="f-data_costituzione-err">La data di costituzione non può essere nel futuro/);
    assert.match(r.text, /value="Via Lecco 12"/);
    r = await analyst.submitForm(`${page}/profilo`, {
      forma_giuridica: 'srl', numero_registro: 'MB-1234567', registro: 'Registro delle imprese di Monza e Brianza', codice_ateco: '25.62.00',
      paese_costituzione: 'IT', data_costituzione: '1998-06-15', 'sede_legale.indirizzo': 'Via Lecco 12', 'sede_legale.cap': '20900',
      'sede_legale.comune': 'Monza', 'sede_legale.provincia': 'MB', 'sede_legale.paese': 'IT', capitale_sociale: '50000',
    }, page);
    assert.equal(r.status, 302, r.text.slice(0, 500));
    // Approve before start: not in this state (409 as a message).
    r = await analyst.submitForm(`${page}/transizione`, { azione: 'approve' }, page);
    assert.equal(r.status, 409, r.text.slice(0, 300));
    assert.match(r.text, /data-refusal/);
    r = await analyst.submitForm(`${page}/transizione`, { azione: 'start' }, page);
    assert.equal(r.status, 302, r.text.slice(0, 500));
    // Reject without a reason: the field says so, its panel open.
    r = await analyst.submitForm(`${page}/transizione`, { azione: 'reject', motivo: '' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /<details class="confirm-action" id="conferma-rifiuto" open/);
    assert.match(r.text, /id="f-motivo-err">Indica il motivo del rifiuto/);
    // Approve with the checks still pending: the message names them.
    r = await analyst.submitForm(`${page}/transizione`, { azione: 'approve' }, page);
    assert.equal(r.status, 409);
    assert.match(r.text, /data-refusal>[^<]*CHK-/);
    const checks = [...(await co.get(page, html)).text.matchAll(/data-check="(CHK-\d+)" data-check-tipo="([a-z_]+)"/g)].map((m) => ({ cod: m[1]!, tipo: m[2]! }));
    assert.equal(checks.length, 7);
    // An analyst may not waive (403 as a message); the officer must give a reason (next to the field).
    const pep = checks.find((c) => c.tipo === 'pep')!;
    r = await analyst.submitForm(`${page}/controlli/${pep.cod}/deroga`, { motivo_deroga: 'Società senza esponenti politici' }, page);
    assert.equal(r.status, 403);
    assert.match(r.text, /data-refusal>Solo il responsabile antiriciclaggio/);
    r = await co.submitForm(`${page}/controlli/${pep.cod}/deroga`, { motivo_deroga: '  ' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, new RegExp(`id="deroga-${pep.cod}-err">Indica il motivo della deroga`));
    r = await co.submitForm(`${page}/controlli/${pep.cod}/deroga`, { motivo_deroga: 'Verificato manualmente: nessun esponente politico' }, page);
    assert.equal(r.status, 302, r.text.slice(0, 300));
    // A check's outcome needs a choice.
    const first = checks.find((c) => c.tipo === 'registro')!;
    r = await analyst.submitForm(`${page}/controlli/${first.cod}`, { esito_nota: 'Visura consultata' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /data-errore="stato">Scegli l(&#39;|')esito del controllo/);
    for (const c of checks.filter((x) => x.tipo !== 'pep')) {
      r = await analyst.submitForm(`${page}/controlli/${c.cod}`, { stato: 'passed', esito_nota: 'Controllo eseguito' }, page);
      assert.equal(r.status, 302, `${c.tipo}: ${r.text.slice(0, 300)}`);
    }
    r = await analyst.submitForm(`${page}/transizione`, { azione: 'approve' }, page);
    assert.equal(r.status, 302, r.text.slice(0, 500));
    const done = await co.get(page, html);
    assert.match(done.text, /data-current-state="approved"/);
    assert.match(done.text, /Verificato manualmente: nessun esponente politico/);
    assert.match(done.text, /Controllo KYB derogato/, 'the waiver is in the timeline');
    assert.doesNotMatch(done.text, /data-check-form|data-profilo-form/, 'a decided verification has no forms');
  });

  it('downloads: the bytes with a safe name, audited; the other kind, another tenant and a viewer are refused', async () => {
    const d = await analyst.getBytes(`/api/v1/admin/kyc/documenti/${docKyc}/download`);
    assert.equal(d.status, 200);
    assert.deepEqual(d.bytes, PDF);
    assert.equal(d.headers.get('content-type'), 'application/pdf');
    assert.equal(d.headers.get('x-content-type-options'), 'nosniff');
    const disposition = d.headers.get('content-disposition')!;
    assert.match(disposition, /^attachment; filename="[^"\\/\r\n]+\.pdf"; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+$/);
    assert.doesNotMatch(disposition, /\r|\n|\u202E|\.\.\//);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'verifica.documento_download' }).orderBy('occurred_at', 'desc').first();
    assert.ok(audit, 'the download is audited');
    assert.equal(audit.data.cod_documento, docKyc);
    assert.deepEqual(audit.data.verifiche, [kyc]);
    assert.equal((await analyst.getBytes(`/api/v1/admin/kyb/documenti/${docKyc}/download`)).status, 404, 'a KYC document on the KYB route');
    assert.equal((await analyst.getBytes(`/api/v1/admin/kyb/documenti/${docKyb}/download`)).status, 200);
    assert.equal((await outsider.getBytes(`/api/v1/admin/kyc/documenti/${docKyc}/download`)).status, 404, 'another tenant');
    assert.equal((await analyst.getBytes('/api/v1/admin/kyc/documenti/DOC-999999/download')).status, 404);
    assert.equal((await analyst.getBytes('/api/v1/admin/kyc/documenti/..%2F..%2Fetc/download')).status, 404);
    assert.equal((await viewer.getBytes(`/api/v1/admin/kyc/documenti/${docKyc}/download`)).status, 403);
    const timeline = await co.get(`/admin/kyc/${kyc}`, html);
    assert.match(timeline.text, /Documento di una verifica KYC\/KYB scaricato/);
  });

  it('another tenant\'s verification is a 404, on the page and on its forms', async () => {
    assert.equal((await outsider.get(`/admin/kyc/${kyc}`, html)).status, 404);
    assert.equal((await outsider.get(`/admin/kyb/${kyb}`, html)).status, 404);
    assert.equal((await outsider.get('/admin/kyc/KYC-99999x', html)).status, 404);
    const r = await outsider.submitForm(`/admin/kyc/${kyc}/transizione`, { azione: 'start' }, '/admin/kyc');
    assert.equal(r.status, 404);
    const list = await outsider.get('/admin/kyc', html);
    assert.doesNotMatch(list.text, new RegExp(kyc));
  });

  it('the customer file lists the verifications and flags a beneficial-owner discrepancy', async () => {
    let r = await viewer.get('/anagrafe/ANA-CON002/dossier', html);
    assert.equal(r.status, 200);
    assert.match(r.text, new RegExp(`id="verifiche-kyc-kyb"[\\s\\S]*href="/admin/kyb/${kyb}"`));
    assert.doesNotMatch(r.text, /data-discrepanza-ubo/);
    await env.ownerDb('verifiche').where({ cod_azienda: tenant, cod_verifica: kyb })
      .update({ discrepanza_ubo: true, discrepanze_ubo: JSON.stringify([{ messaggio: 'Mario Rossi risulta titolare effettivo ma non è stato dichiarato' }]) });
    r = await viewer.get('/anagrafe/ANA-CON002/dossier', html);
    assert.match(r.text, /data-discrepanza-ubo/);
    assert.match(r.text, /Mario Rossi risulta titolare effettivo/);
    const detail = await viewer.get(`/admin/kyb/${kyb}`, html);
    assert.match(detail.text, /data-discrepanza-ubo[\s\S]*Mario Rossi risulta titolare effettivo/);
    const list = await viewer.get('/admin/kyb', html);
    assert.match(list.text, /data-discrepanza/);
  });

  it('the home counts the verifications waiting, linking the filtered list; the navigation has the consoles', async () => {
    const r = await viewer.get('/', html);
    assert.equal(r.status, 200);
    assert.match(r.text, /href="\/admin\/kyc\?stato=pending"/);
    assert.match(r.text, /Verifiche KYC da prendere in lavorazione/);
    assert.match(r.text, /href="\/admin\/kyb"/);
    const n = await viewer.get('/admin/kyb', html);
    assert.doesNotMatch(n.text, /area in preparazione/);
  });
});
