import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const html = { accept: 'text/html' };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('risk self-assessment: exercises, four-eyes approval, freezing and exports', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co1: TestClient;
  let co2: TestClient;
  let admin: TestClient;
  let auditor: TestClient;
  let viewer: TestClient;
  let analyst: TestClient;
  let outsider: TestClient;
  const anno = 2026;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [co1, co2, admin, auditor, viewer, analyst, outsider] = await Promise.all([
      ['co'], ['co'], ['admin'], ['auditor'], ['viewer'], ['analyst'],
    ].map((roles) => env.createUser({ tenant, roles: roles as never }).then((u) => env.login(u)))
      .concat(env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u))));
    const person = { tipo_soggetto: 'persona_fisica', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' };
    const o = env.ownerDb;
    await o('anagrafe').insert([
      { ...person, cod_azienda: tenant, cod_anagrafe: 'ANA-000001', denominazione: 'Mario Rossi', classe_rischio: 'alto', pep: true },
      { ...person, cod_azienda: tenant, cod_anagrafe: 'ANA-000002', denominazione: 'Anna Bianchi', classe_rischio: 'basso' },
      { ...person, cod_azienda: tenant, cod_anagrafe: 'ANA-000003', denominazione: 'Crypto Srl', tipo_soggetto: 'societa', paese_residenza: 'IR', classe_rischio: 'medio_alto' },
      { ...person, cod_azienda: other, cod_anagrafe: 'ANA-000001', denominazione: 'Altro Cliente', classe_rischio: 'alto' },
    ]);
    const rapporto = { stato: 'attivo', data_apertura: '2024-01-10', created_by: 'test' };
    await o('rapporti').insert([
      { ...rapporto, cod_azienda: tenant, cod_rapporto: 'RAP-1', cod_anagrafe: 'ANA-000001', tipo: 'conto_corrente' },
      { ...rapporto, cod_azienda: tenant, cod_rapporto: 'RAP-2', cod_anagrafe: 'ANA-000002', tipo: 'conto_corrente' },
      { ...rapporto, cod_azienda: tenant, cod_rapporto: 'RAP-3', cod_anagrafe: 'ANA-000003', tipo: 'custodia_cripto' },
      { ...rapporto, cod_azienda: other, cod_rapporto: 'RAP-1', cod_anagrafe: 'ANA-000001', tipo: 'conto_corrente' },
    ]);
    const mov = (cod_azienda: string, cod_rapporto: string, cod_anagrafe: string, importo: number, contanti: boolean) => ({
      id: randomUUID(), cod_azienda, cod_rapporto, cod_anagrafe, data_operazione: '2026-03-15', importo, importo_eur: importo, segno: 'entrata', contanti,
      chiave_esterna: randomUUID(), created_by: 'test',
    });
    await o('movimenti').insert([
      mov(tenant, 'RAP-1', 'ANA-000001', 6000, true), mov(tenant, 'RAP-1', 'ANA-000001', 4000, false), mov(tenant, 'RAP-2', 'ANA-000002', 10000, false),
      mov(tenant, 'RAP-3', 'ANA-000003', 50000, false), mov(other, 'RAP-1', 'ANA-000001', 999999, true),
    ]);
  });

  const lineIds = async (t: string, a: number) => env.ownerDb('rischio_autovalutazioni_linee as v').join('rischio_autovalutazioni as e', 'e.id', 'v.autovalutazione_id')
    .join('rischio_linee as l', 'l.id', 'v.linea_id').where({ 'e.cod_azienda': t, 'e.anno': a }).select('v.id', 'l.codice', 'v.inerente_suggerito');
  const exercise = (t: string, a: number) => env.ownerDb('rischio_autovalutazioni').where({ cod_azienda: t, anno: a }).first();

  it('seeds the defaults on first use, once, and shows the lines with the portfolio\'s figures', async () => {
    const empty = await viewer.get('/rischio/autovalutazione', html);
    assert.equal(empty.status, 200);
    assert.match(empty.text, /Nessuna autovalutazione da mostrare/);
    assert.doesNotMatch(empty.text, /id="form-nuova"/, 'a viewer cannot create one');
    await co1.get('/rischio/autovalutazione', html);
    const lines = await env.ownerDb('rischio_linee').where({ cod_azienda: tenant });
    assert.deepEqual(lines.map((l) => l.codice).sort(), ['conti_pagamenti', 'credito_altro', 'cripto_attivita']);
    assert.equal((await env.ownerDb('rischio_raf_metriche').where({ cod_azienda: tenant })).length, 4);

    const created = await co1.submitForm('/rischio/autovalutazione/nuova', { anno: String(anno) }, '/rischio/autovalutazione');
    assert.equal(created.status, 302, created.text.slice(0, 300));
    const page = await co1.get(`/rischio/autovalutazione?anno=${anno}`, html);
    assert.equal(page.status, 200);
    // conti e pagamenti: 2 customers, 1 high (Mario Rossi, PEP), cash 6000 of 20000 = 30%.
    const conti = /<tr data-linea="conti_pagamenti">([\s\S]*?)<\/tr>/.exec(page.text)![1]!;
    assert.match(conti, /<td class="text-end">2<\/td>\s*<td class="text-end">1<\/td>\s*<td class="text-end">1<\/td>\s*<td class="text-end">0<\/td>/);
    assert.match(conti, /30,0%/);
    assert.match(conti, /data-suggerito="3"/, 'base 2, high share 50% → 4, cash 30% → 3, PEP 50% → 4: (2+4+3+4)/4 = 3.25 → 3');
    const cripto = /<tr data-linea="cripto_attivita">([\s\S]*?)<\/tr>/.exec(page.text)![1]!;
    assert.match(cripto, /data-suggerito="3"/, 'base 3, medium-high 100% → 4, no cash → 1, Iran 100% → 4: (3+4+1+4)/4 = 3');
    const again = await co1.submitForm('/rischio/autovalutazione/nuova', { anno: String(anno) }, '/rischio/autovalutazione');
    assert.equal(again.status, 409);
    assert.match(again.text, /id="f-anno-err"[^>]*>L&#39;autovalutazione 2026 esiste già/);
    const badYear = await co1.submitForm('/rischio/autovalutazione/nuova', { anno: 'duemila' }, '/rischio/autovalutazione');
    assert.equal(badYear.status, 422);
    assert.match(badYear.text, /Indica un anno valido/);
    assert.match(badYear.text, /value="duemila"/, 'what was typed is kept');
  });

  const fill = (client: TestClient, id: string, form: Record<string, string>) =>
    client.submitForm(`/rischio/autovalutazione/${anno}/linee/${id}`, form, `/rischio/autovalutazione?anno=${anno}`);

  it('refuses bad line input next to the field, keeping what was typed', async () => {
    const [l] = await lineIds(tenant, anno);
    const out = await fill(co1, l!.id, { inerente: '5', vulnerabilita: '2', peso: '60', motivazione_inerente: 'testo scritto', motivazione_vulnerabilita: '' });
    assert.equal(out.status, 422);
    assert.match(out.text, /id="f-inerente-err"[^>]*>Scegli il rischio inerente \(da 1 a 4\)/);
    assert.match(out.text, /testo scritto/);
    const suggested = (await co1.get(`/rischio/autovalutazione?anno=${anno}`, html)).text;
    const sugg = new RegExp(`<tr data-linea="${l!.codice}">[\\s\\S]*?data-suggerito="(\\d)"`).exec(suggested)![1]!;
    const different = sugg === '1' ? '2' : '1';
    const noReason = await fill(co1, l!.id, { inerente: different, vulnerabilita: '2', peso: '60', motivazione_inerente: '', motivazione_vulnerabilita: '' });
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="f-motivazione_inerente-err"[^>]*>Spiega perché scegli un rischio inerente diverso/);
    const badWeight = await fill(co1, l!.id, { inerente: sugg, vulnerabilita: '2', peso: '120', motivazione_inerente: '', motivazione_vulnerabilita: '' });
    assert.equal(badWeight.status, 422);
    assert.match(badWeight.text, /Il peso non può superare 100/);
    const viewerPost = await fill(viewer, l!.id, { inerente: sugg, vulnerabilita: '2', peso: '60' });
    assert.equal(viewerPost.status, 403);
    const unknown = await fill(co1, randomUUID(), { inerente: sugg, vulnerabilita: '2', peso: '60' });
    assert.equal(unknown.status, 404);
    const incomplete = await co1.submitForm(`/rischio/autovalutazione/${anno}/invia`, { note: '' }, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(incomplete.status, 409);
    assert.match(incomplete.text, /Completa rischio inerente e vulnerabilità di ogni linea/);
  });

  async function fillAll(client: TestClient, year: number, t = tenant) {
    for (const l of await lineIds(t, year)) {
      const r = await client.submitForm(`/rischio/autovalutazione/${year}/linee/${l.id}`,
        { inerente: '4', motivazione_inerente: 'Prudenza: nuovi prodotti in avvio', vulnerabilita: '2', motivazione_vulnerabilita: '', peso: l.codice === 'conti_pagamenti' ? '50' : '25' },
        `/rischio/autovalutazione?anno=${year}`);
      assert.equal(r.status, 302, r.text.slice(0, 500));
    }
  }

  it('is submitted by one compliance officer and approved by another; the approved exercise is frozen', async () => {
    await fillAll(co1, anno);
    const page = await co1.get(`/rischio/autovalutazione?anno=${anno}`, html);
    assert.match(page.text, /data-complessivo="medio_alto"/, 'every line 4 × 2 → medio-alto');
    const byAnalyst = await analyst.submitForm(`/rischio/autovalutazione/${anno}/invia`, {}, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(byAnalyst.status, 403);
    const sent = await co1.submitForm(`/rischio/autovalutazione/${anno}/invia`, { note: 'Per il CdA di dicembre' }, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(sent.status, 302);
    assert.equal((await exercise(tenant, anno)).stato, 'in_approvazione');

    const mine = await co1.get(`/rischio/autovalutazione?anno=${anno}`, html);
    assert.match(mine.text, /data-four-eyes/, 'the author reads why they cannot approve');
    assert.doesNotMatch(mine.text, /data-action="approva"/);
    const selfApproval = await co1.submitForm(`/rischio/autovalutazione/${anno}/approva`, {}, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(selfApproval.status, 403);
    assert.match(selfApproval.text, /Principio dei quattro occhi/);
    const byAdmin = await admin.submitForm(`/rischio/autovalutazione/${anno}/approva`, {}, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(byAdmin.status, 403, 'approval is the compliance officer\'s');

    const approved = await co2.submitForm(`/rischio/autovalutazione/${anno}/approva`, {}, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(approved.status, 302);
    const row = await exercise(tenant, anno);
    assert.equal(row.stato, 'approvata');
    assert.equal(row.rischio_complessivo, 'medio_alto');
    assert.equal(row.snapshot.linee.length, 3);
    assert.ok(row.approved_by && row.approved_by !== row.submitted_by);

    const [l] = await lineIds(tenant, anno);
    const edit = await fill(co2, l!.id, { inerente: '1', vulnerabilita: '1', peso: '10', motivazione_inerente: 'x' });
    assert.equal(edit.status, 409);
    assert.match(edit.text, /i suoi dati sono congelati/);
    const resend = await co2.submitForm(`/rischio/autovalutazione/${anno}/invia`, {}, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(resend.status, 409);
    const sendBack = await co2.submitForm(`/rischio/autovalutazione/${anno}/respingi`, { motivazione: 'ripensamento' }, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(sendBack.status, 409);

    // New movements after the approval do not change the approved figures.
    await env.ownerDb('movimenti').insert({ id: randomUUID(), cod_azienda: tenant, cod_rapporto: 'RAP-2', cod_anagrafe: 'ANA-000002', data_operazione: '2026-04-01',
      importo: 80000, importo_eur: 80000, segno: 'entrata', contanti: true, chiave_esterna: randomUUID(), created_by: 'test' });
    const frozen = await viewer.get(`/rischio/autovalutazione?anno=${anno}`, html);
    assert.match(/<tr data-linea="conti_pagamenti">([\s\S]*?)<\/tr>/.exec(frozen.text)![1]!, /30,0%/);
    assert.match(frozen.text, /congelati all'approvazione/);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant }).whereLike('action', 'rischio_autovalutazione.%').pluck('action');
    assert.ok(audit.includes('rischio_autovalutazione.approva') && audit.includes('rischio_autovalutazione.invia'));
  });

  it('a new year copies the lines and the last choices; the author may not approve it even if someone else submitted it', async () => {
    const created = await co2.submitForm('/rischio/autovalutazione/nuova', { anno: '2027' }, '/rischio/autovalutazione');
    assert.equal(created.status, 302);
    const lines = await env.ownerDb('rischio_autovalutazioni_linee as v').join('rischio_autovalutazioni as e', 'e.id', 'v.autovalutazione_id').where({ 'e.cod_azienda': tenant, 'e.anno': 2027 }).select('v.*');
    assert.equal(lines.length, 3);
    assert.ok(lines.every((l) => l.inerente === 4 && l.vulnerabilita === 2 && l.residuo === 'medio_alto'), 'last choices carried over');
    const sent = await co1.submitForm('/rischio/autovalutazione/2027/invia', {}, '/rischio/autovalutazione?anno=2027');
    assert.equal(sent.status, 302);
    const byAuthor = await co2.submitForm('/rischio/autovalutazione/2027/approva', {}, '/rischio/autovalutazione?anno=2027');
    assert.equal(byAuthor.status, 403);
    const back = await co2.submitForm('/rischio/autovalutazione/2027/respingi', { motivazione: '' }, '/rischio/autovalutazione?anno=2027');
    assert.equal(back.status, 422);
    assert.match(back.text, /Spiega perché l&#39;autovalutazione torna in bozza/);
    const ok = await co2.submitForm('/rischio/autovalutazione/2027/respingi', { motivazione: 'Aggiornare i pesi' }, '/rischio/autovalutazione?anno=2027');
    assert.equal(ok.status, 302);
    assert.equal((await exercise(tenant, 2027)).stato, 'bozza');
  });

  it('another tenant\'s exercise, lines and records are not found', async () => {
    assert.equal((await outsider.get(`/rischio/autovalutazione?anno=${anno}`, html)).status, 404);
    assert.equal((await outsider.get(`/rischio/residuo?anno=${anno}`, html)).status, 404);
    assert.equal((await outsider.getBytes(`/rischio/autovalutazione/${anno}/export.pdf`)).status, 404);
    assert.equal((await outsider.submitForm('/rischio/autovalutazione/nuova', { anno: String(anno) }, '/rischio/autovalutazione')).status, 302);
    const [l] = await lineIds(tenant, 2027);
    const foreign = await outsider.submitForm(`/rischio/autovalutazione/${anno}/linee/${l!.id}`, { inerente: '2', vulnerabilita: '2', peso: '10' }, `/rischio/autovalutazione?anno=${anno}`);
    assert.equal(foreign.status, 404);
    const ownLines = await lineIds(other, anno);
    assert.equal(ownLines.length, 3, 'the other tenant got its own defaults');
    const page = await outsider.get(`/rischio/autovalutazione?anno=${anno}`, html);
    assert.match(/<tr data-linea="conti_pagamenti">([\s\S]*?)<\/tr>/.exec(page.text)![1]!, /<td class="text-end">1<\/td>/, 'counts only its own customer');
    assert.equal((await outsider.get('/rischio/autovalutazione?anno=1200', html)).status, 404);
  });

  it('exports the exercise as PDF and XLSX, for the auditor too, and audits it', async () => {
    assert.equal((await viewer.getBytes(`/rischio/autovalutazione/${anno}/export.pdf`)).status, 403);
    const pdf = await auditor.getBytes(`/rischio/autovalutazione/${anno}/export.pdf`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(pdf.bytes.subarray(0, 4).toString('latin1'), '%PDF');
    const xlsx = await auditor.getBytes(`/rischio/autovalutazione/${anno}/export.xlsx`);
    assert.equal(xlsx.status, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Linee')!;
    const names = sheet.getColumn(1).values.slice(2);
    assert.deepEqual([...names].sort(), ['Conti e servizi di pagamento', 'Credito e altri servizi', 'Cripto-attività']);
    const conti = sheet.getRows(2, 3)!.find((r) => r.getCell(1).value === 'Conti e servizi di pagamento')!;
    assert.equal(conti.getCell(3).value, 2, 'its customers');
    assert.equal(conti.getCell(14).value, 'Medio-alto');
    assert.equal(book.getWorksheet('Esercizio')!.getCell('B3').value, 'Approvata');
    assert.equal((await co1.getBytes('/rischio/autovalutazione/2031/export.xlsx')).status, 404);
    const exports = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'rischio_autovalutazione.export' });
    assert.equal(exports.length, 2);
  });

  it('the residual matrix places the lines in their cells', async () => {
    const page = await viewer.get(`/rischio/residuo?anno=${anno}`, html);
    assert.equal(page.status, 200);
    const cell = /<td[^>]*data-cella="4-2"[^>]*>([\s\S]*?)<\/td>/.exec(page.text)![1]!;
    assert.match(cell, /Medio-alto/);
    assert.equal((cell.match(/data-linea=/g) ?? []).length, 3);
    assert.match(page.text, /data-cella="1-1" data-residuo="basso"/);
    assert.match(page.text, /data-cella="4-4" data-residuo="alto"/);
  });

  it('controls and their tests suggest the vulnerability; RAF, KRI and decisions read and write', async () => {
    const bad = await co1.submitForm('/rischio/controlli/nuovo', { nome: 'x', area: '', responsabile: 'Ufficio AML', frequenza: 'mai', disegno: 'adeguato', efficacia: 'adeguato' }, '/rischio/controlli');
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-nome-err"[^>]*>Scrivi almeno 3 caratteri/);
    assert.match(bad.text, /id="f-area-err"[^>]*>Indica l&#39;area del controllo/);
    assert.match(bad.text, /id="f-frequenza-err"/);
    assert.match(bad.text, /value="Ufficio AML"/);
    const linea = await env.ownerDb('rischio_linee').where({ cod_azienda: tenant, codice: 'cripto_attivita' }).first();
    const created = await co1.submitForm('/rischio/controlli/nuovo', {
      nome: 'Verifica wallet con analisi on-chain', area: 'Monitoraggio', linea_id: linea.id, responsabile: 'Ufficio AML', frequenza: 'mensile', disegno: 'adeguato', efficacia: 'adeguato', descrizione: '',
    }, '/rischio/controlli');
    assert.equal(created.status, 302);
    const ctrl = await env.ownerDb('rischio_controlli').where({ cod_azienda: tenant }).first();
    const noNote = await co1.submitForm(`/rischio/controlli/${ctrl.id}/test`, { data: '2026-06-30', esito: 'ko', note: '' }, '/rischio/controlli');
    assert.equal(noNote.status, 422);
    assert.match(noNote.text, /Descrivi cosa non ha funzionato/);
    assert.equal((await co1.submitForm(`/rischio/controlli/${ctrl.id}/test`, { data: '2026-06-30', esito: 'ok', note: '' }, '/rischio/controlli')).status, 302);
    const page = await viewer.get('/rischio/controlli', html);
    assert.match(page.text, new RegExp(`data-linea-id="${linea.id}">[\\s\\S]*?data-vulnerabilita="1"`), 'one tested, adequate control');
    assert.match(page.text, /data-vulnerabilita="4"/, 'the other lines have no control');
    assert.equal((await outsider.submitForm(`/rischio/controlli/${ctrl.id}/test`, { data: '2026-06-30', esito: 'ok', note: '' }, '/rischio/controlli')).status, 404);
    assert.equal((await viewer.submitForm(`/rischio/controlli/${ctrl.id}/test`, { data: '2026-06-30', esito: 'ok' }, '/rischio/controlli')).status, 403);

    const raf = await viewer.get('/rischio/raf', html);
    assert.match(raf.text, /<tr data-metrica="clienti_alto_rischio">[\s\S]*?data-valore="66.67"[\s\S]*?data-stato="oltre_capacita"/, '2 of 3 customers high or medium-high');
    const metric = await env.ownerDb('rischio_raf_metriche').where({ cod_azienda: tenant, codice: 'clienti_alto_rischio' }).first();
    const badRaf = await co1.submitForm(`/rischio/raf/${metric.id}`, { appetito: '20', tolleranza: '10', capacita: '70', descrizione: '' }, '/rischio/raf');
    assert.equal(badRaf.status, 422);
    assert.match(badRaf.text, /La tolleranza non può essere inferiore alla propensione/);
    assert.equal((await co1.submitForm(`/rischio/raf/${metric.id}`, { appetito: '50', tolleranza: '60,5', capacita: '70', descrizione: '' }, '/rischio/raf')).status, 302);
    assert.equal(Number((await env.ownerDb('rischio_raf_metriche').where({ id: metric.id }).first()).tolleranza), 60.5);
    assert.match((await viewer.get('/rischio/raf', html)).text, /<tr data-metrica="clienti_alto_rischio">[\s\S]*?data-stato="oltre_tolleranza"/);
    assert.equal((await outsider.submitForm(`/rischio/raf/${metric.id}`, { appetito: '1', tolleranza: '2', capacita: '3' }, '/rischio/raf')).status, 404);

    assert.equal((await co1.submitForm('/rischio/kri/rileva', {}, '/rischio/kri')).status, 302);
    const values = await env.ownerDb('rischio_kri_valori').where({ cod_azienda: tenant });
    assert.equal(values.length, 5);
    const kri = await viewer.get('/rischio/kri', html);
    assert.match(kri.text, /id="kri-kri_alto_rischio"/, 'the trend chart of a measured indicator');
    assert.match(kri.text, /<tr data-indicatore="kri_paesi">[\s\S]*?data-stato="rosso"/, 'Iran: 33% of customers');

    const badDecision = await co1.submitForm('/rischio/decisioni/nuova', { data: '2026-13-01', oggetto: 'Limiti', decisione: '', decisa_da: 'CdA' }, '/rischio/decisioni');
    assert.equal(badDecision.status, 422);
    assert.match(badDecision.text, /Data non valida/);
    assert.match(badDecision.text, /Scrivi la decisione presa/);
    const ex = await exercise(tenant, anno);
    assert.equal((await co1.submitForm('/rischio/decisioni/nuova', {
      data: '2026-11-20', oggetto: 'Approvazione autovalutazione', decisione: 'Il CdA prende atto del rischio residuo medio-alto', decisa_da: 'Consiglio di amministrazione', motivazione: '', autovalutazione_id: ex.id, metrica_id: '',
    }, '/rischio/decisioni')).status, 302);
    const log = await viewer.get('/rischio/decisioni', html);
    assert.match(log.text, /Il CdA prende atto del rischio residuo medio-alto/);
    assert.match(log.text, /Autovalutazione 2026/);
    const foreign = await outsider.submitForm('/rischio/decisioni/nuova', { data: '2026-11-20', oggetto: 'Prova', decisione: 'x', decisa_da: 'y', autovalutazione_id: ex.id }, '/rischio/decisioni');
    assert.equal(foreign.status, 422, 'another tenant\'s exercise cannot be linked');
    assert.equal(UUID.test(ex.id), true);
  });
});
