import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient, TestResponse } from '../helpers/http-client';
import { PDF } from './onboarding-fixtures';
import { seedCddPages } from '../helpers/page-catalogue';
import { insertApprovedEdd } from '../helpers/edd-fixture';
import * as cddLabels from '../../src/domains/cdd/cdd.labels';

const html = { accept: 'text/html' };

/** A complete set of answers to the default KYC questionnaire for a person (form field names). */
const PERSON_ANSWERS = {
  q_scopo_rapporto: 'investimento', q_natura_rapporto: 'continuativo', q_origine_fondi: 'reddito_lavoro',
  q_origine_fondi_dettaglio: 'Stipendio da impiegato presso una società di servizi', q_origine_patrimonio: 'lavoro',
  q_volume_annuo: '10k_50k', q_operazioni_mensili: '4', q_contanti: 'false', q_paesi_operativita: 'IT, fr', q_pep: 'false',
  q_professione: 'Impiegato amministrativo',
};

describe('CDD pages', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co1: TestClient;
  let co2: TestClient;
  let analyst: TestClient;
  let viewer: TestClient;
  let auditor: TestClient;
  let otherCo: TestClient;

  async function customer(cod: string, over: Record<string, unknown> = {}, azienda = tenant) {
    const row = {
      cod_azienda: azienda, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', nome: 'Mario', cognome: 'Rossi',
      codice_fiscale: null, nazionalita: 'IT', paese_residenza: 'IT', classe_rischio: 'medio', pep: false, created_by: 'test', ...over,
    };
    // A person's denominazione is "Nome Cognome", as onboarding writes it.
    await env.ownerDb('anagrafe').insert({ denominazione: `${row.nome} ${row.cognome}`, ...row });
  }

  /** Follows a post/redirect/get and returns the page the user lands on. */
  async function follow(client: TestClient, r: TestResponse) {
    assert.equal(r.status, 302, r.text.slice(0, 500));
    return client.get(r.headers.get('location')!, html);
  }

  /** Starts a task from /cdd/nuovo and returns its id and code. */
  async function initiate(client: TestClient, cod: string): Promise<{ id: string; code: string }> {
    const r = await client.submitForm('/cdd/nuovo', { cod_anagrafe: cod, motivo: 'manuale', nota: '' });
    assert.equal(r.status, 302, r.text.slice(0, 500));
    const id = /\/cdd\/([0-9a-f-]{36})$/.exec(r.headers.get('location')!)![1]!;
    const row = await env.ownerDb('cdd_pratiche').where({ id }).first('cod_pratica');
    return { id, code: row.cod_pratica as string };
  }

  before(async () => {
    env = await getTestEnv();
    [tenant, other] = await Promise.all([env.createTenant(), env.createTenant()]);
    [co1, co2, analyst, viewer, auditor, otherCo] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['auditor'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    await customer('ANA-100001', { nome: 'Giovanna', cognome: 'Esposito', codice_fiscale: 'SPSGNN80A41F839X' });
    await customer('ANA-100002', { tipo_soggetto: 'societa', nome: null, cognome: null, denominazione: 'Officine Padane S.r.l.', partita_iva: '01234567890' });
    await customer('ANA-100003', { nome: 'Luca', cognome: 'Bianchi' });
    await customer('ANA-100004', { nome: 'Carla', cognome: 'Neri' });
    await customer('ANA-900001', { nome: 'Paolo', cognome: 'Altrove' }, other);
  });

  it('starts a task from /cdd/nuovo: picker by name, messages next to the fields, the customer\'s open task named', async () => {
    const search = await co1.get('/cdd/nuovo?q=esposito', html);
    assert.equal(search.status, 200);
    assert.match(search.text, /data-choose="ANA-100001"/);
    assert.doesNotMatch(search.text, /ANA-900001/, 'another tenant\'s customer is never offered');
    const byVat = await co1.get('/cdd/nuovo?q=01234567890', html);
    assert.match(byVat.text, /Officine Padane S\.r\.l\./);
    const chosen = await co1.get('/cdd/nuovo?cod_anagrafe=ANA-100001', html);
    assert.match(chosen.text, /data-chosen>Cliente: <strong>Giovanna Esposito<\/strong>/);

    let r = await co1.submitForm('/cdd/nuovo', { cod_anagrafe: '', motivo: 'manuale', nota: 'Controllo straordinario' });
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-cod_anagrafe-err">Indica il cliente</);
    assert.match(r.text, />Controllo straordinario<\/textarea>/, 'what was typed comes back');
    r = await co1.submitForm('/cdd/nuovo', { cod_anagrafe: 'ANA-900001', motivo: 'manuale' });
    assert.equal(r.status, 422, 'another tenant\'s customer is not found');
    assert.match(r.text, /id="f-cod_anagrafe-err">Nessun cliente con questo codice anagrafe</);
    r = await co1.submitForm('/cdd/nuovo', { cod_anagrafe: 'ANA-100001', motivo: 'inventato' });
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-motivo-err">Scegli il motivo</);

    const { id, code } = await initiate(co1, 'ana-100001');
    assert.match(code, /^CDD-\d{6}$/);
    const again = await follow(co1, await co1.submitForm('/cdd/nuovo', { cod_anagrafe: 'ANA-100001', motivo: 'manuale' }));
    assert.match(again.text, new RegExp(`Il cliente ha già una verifica in corso: ${code}`));
    assert.match(again.text, new RegExp(`<h2 class="page-title">Verifica ${code}</h2>`));
    assert.ok(id);
  });

  it('lists tasks with filters, sortable headers, charts and the htmx table; another tenant\'s are not there', async () => {
    const mine = await initiate(co1, 'ANA-100003');
    const theirs = await otherCo.submitForm('/cdd/nuovo', { cod_anagrafe: 'ANA-900001', motivo: 'manuale' });
    assert.equal(theirs.status, 302);
    const page = await viewer.get('/cdd', html);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2 class="page-title">Adeguata verifica<\/h2>/);
    assert.match(page.text, new RegExp(`href="/cdd/${mine.id}">${mine.code}</a>`));
    assert.match(page.text, /Luca Bianchi/);
    assert.doesNotMatch(page.text, /Paolo Altrove|ANA-900001/);
    assert.match(page.text, /<a class="nav-link active fw-bold" href="\/cdd" aria-current="page">Adeguata verifica<\/a>/);
    assert.match(page.text, /id="grafico-cdd-stato"/);
    assert.match(page.text, /class="sort-link[^"]*" href="\/cdd\?[^"]*sort=-?due_at/);
    assert.doesNotMatch(page.text, /href="\/cdd\/nuovo"/, 'a viewer is not offered a new task');
    assert.match((await analyst.get('/cdd', html)).text, /<a href="\/cdd\/nuovo" class="btn btn-primary">Nuova verifica<\/a>/);

    const filtered = await viewer.get('/cdd?stato=completed&livello=rafforzata', html);
    assert.match(filtered.text, /Nessuna verifica trovata/);
    assert.match(filtered.text, /<option value="completed" selected>Completata<\/option>/);
    assert.match(filtered.text, /<option value="rafforzata" selected>Rafforzata<\/option>/);
    const bad = await viewer.get('/cdd?stato=chiusa', html);
    assert.equal(bad.status, 200);
    assert.match(bad.text, /data-filter-errors>Stato non valido/);
    const fragment = await viewer.get('/cdd?motivo=manuale', { ...html, 'HX-Request': 'true' });
    assert.doesNotMatch(fragment.text, /<html/);
    assert.match(fragment.text, /id="cdd-tabella"/);
    assert.match(fragment.headers.get('vary') ?? '', /HX-Request/);
    const late = await viewer.get('/cdd?scadute=true', html);
    assert.doesNotMatch(late.text, new RegExp(mine.code), 'a task just opened is not overdue');
  });

  it('shows the task to every staff role, the buttons only to those the machine allows, and 404 across tenants', async () => {
    const t = await initiate(co1, 'ANA-100002');
    const asViewer = await viewer.get(`/cdd/${t.id}`, html);
    assert.equal(asViewer.status, 200);
    for (const heading of ['Azioni', 'Questionario', 'Evidenze', 'Cronologia', 'Livello di adeguata verifica', 'Stato del processo']) {
      assert.match(asViewer.text, new RegExp(`<h3 class="card-title"[^>]*>${heading}`), heading);
    }
    assert.match(asViewer.text, /data-no-actions/);
    assert.match(asViewer.text, /<svg/);
    assert.match(asViewer.text, /data-current-state="open"/);
    assert.match(asViewer.text, /data-workflow-id="cdd-task:/);
    assert.match(asViewer.text, /href="\/anagrafe\/ANA-100002" data-customer-link>Officine Padane S\.r\.l\.<\/a>/);
    assert.match(asViewer.text, /data-level-reasons/);
    assert.doesNotMatch(asViewer.text, /action="\/cdd\/[^"]+\/(avvia|elimina|astensione|nota)"/);

    const asCo = await co1.get(`/cdd/${t.id}`, html);
    assert.match(asCo.text, new RegExp(`action="/cdd/${t.id}/avvia"`));
    assert.match(asCo.text, /id="conferma-elimina"/);
    assert.match(asCo.text, /id="conferma-astensione"/);
    const byCode = await viewer.get(`/cdd/${t.code}`, html);
    assert.equal(byCode.status, 200, 'the code opens the task too');

    for (const path of [`/cdd/${t.id}`, `/cdd/${t.id}/esegui`, `/cdd/evidence/${t.code}`, `/cdd/history/${t.code}`, `/cdd/review/${t.code}`]) {
      assert.equal((await otherCo.get(path, html)).status, 404, path);
    }
    assert.equal((await viewer.get('/cdd/CDD-999999', html)).status, 404);
    assert.equal((await viewer.get('/cdd/non-esiste', html)).status, 404);
    const stolen = await otherCo.submitForm(`/cdd/${t.id}/elimina`, { motivazione: 'Per errore' }, '/cdd');
    assert.equal(stolen.status, 404, 'another tenant cannot act on it');
  });

  it('answers each page for the right roles', async () => {
    const t = await env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant }).first('id', 'cod_pratica');
    for (const path of ['/cdd', '/cdd/overview', '/cdd/refresh-queue', `/cdd/${t.id}`, `/cdd/evidence/${t.cod_pratica}`, `/cdd/history/${t.cod_pratica}`]) {
      assert.equal((await auditor.get(path, html)).status, 200, `auditor ${path}`);
      assert.equal((await viewer.get(path, html)).status, 200, `viewer ${path}`);
    }
    for (const path of ['/cdd/nuovo', `/cdd/${t.id}/esegui`, `/cdd/review/${t.cod_pratica}`]) {
      assert.equal((await viewer.get(path, html)).status, 403, `viewer ${path}`);
    }
    assert.equal((await analyst.get('/cdd/nuovo', html)).status, 200);
    assert.equal((await analyst.get(`/cdd/review/${t.cod_pratica}`, html)).status, 200);
    const anonymous = await env.client().get('/cdd', html);
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get('location') ?? '', /^\/login/);
  });

  it('runs the questionnaire: messages next to the questions, input kept, draft saved, sent to review, four eyes at the review', async () => {
    const t = await initiate(analyst, 'ANA-100004');
    const started = await analyst.submitForm(`/cdd/${t.id}/avvia`, {}, `/cdd/${t.id}`);
    assert.equal(started.status, 302);
    assert.equal(started.headers.get('location'), `/cdd/${t.id}/esegui`);
    const form = await analyst.get(`/cdd/${t.id}/esegui`, html);
    assert.equal(form.status, 200);
    assert.match(form.text, /<legend class="form-label fs-5 required">Il cliente \(o un suo titolare effettivo\) è una persona politicamente esposta\?<\/legend>/);
    assert.match(form.text, /name="q_professione"/, 'a person is asked the profession');
    assert.doesNotMatch(form.text, /name="q_struttura_proprietaria"/, 'a company-only question is not asked of a person');

    // A number that is not one, and a submit with required answers missing.
    let r = await analyst.submitForm(`/cdd/${t.id}/esegui`, { ...PERSON_ANSWERS, q_operazioni_mensili: 'molte', q_professione: '', azione: 'invia' }, `/cdd/${t.id}/esegui`);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-q_operazioni_mensili-err">[^<]+</);
    assert.match(r.text, /value="molte"/, 'what was typed comes back');
    assert.match(r.text, /id="riepilogo-errori"/);
    assert.match(r.text, /<option value="investimento" selected>/);

    const draft = await follow(analyst, await analyst.submitForm(`/cdd/${t.id}/esegui`, { q_scopo_rapporto: 'pagamenti', azione: 'salva' }, `/cdd/${t.id}/esegui`));
    assert.match(draft.text, /Bozza del questionario salvata/);
    assert.match(draft.text, /<option value="pagamenti" selected>/);

    r = await analyst.submitForm(`/cdd/${t.id}/esegui`, { ...PERSON_ANSWERS, q_professione: '', azione: 'invia' }, `/cdd/${t.id}/esegui`);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-q_professione-err">[^<]+</);

    const sent = await follow(analyst, await analyst.submitForm(`/cdd/${t.id}/esegui`, { ...PERSON_ANSWERS, azione: 'invia' }, `/cdd/${t.id}/esegui`));
    assert.match(sent.text, /Questionario completato e verifica inviata in revisione/);
    assert.match(sent.text, /data-status="pending_review"/);

    // The workbench: the answers in words, the four-eyes refusal for the one who sent it.
    const bench = await analyst.get(`/cdd/review/${t.code}`, html);
    assert.equal(bench.status, 200);
    assert.match(bench.text, /data-answer="paesi_operativita">IT, FR</);
    assert.match(bench.text, /data-answer="contanti">No</);
    assert.match(bench.text, /data-answer="scopo_rapporto">Investimento</);
    assert.match(bench.text, /data-four-eyes>Hai inviato tu questa verifica in revisione/);
    assert.doesNotMatch(bench.text, /value="completa"/);
    const refused = await analyst.submitForm(`/cdd/review/${t.code}`, { decisione: 'completa' }, `/cdd/review/${t.code}`);
    assert.equal(refused.status, 403);
    assert.match(refused.text, /data-refusal="(FOUR_EYES_REQUIRED|FORBIDDEN)"/);

    // Another officer: sending back needs a note; then the task comes back and is completed.
    const noNote = await co2.submitForm(`/cdd/review/${t.code}`, { decisione: 'rimanda', nota: '' }, `/cdd/review/${t.code}`);
    assert.equal(noNote.status, 422);
    assert.match(noNote.text, /id="f-nota-err">Scrivi che cosa manca/);
    assert.match(noNote.text, /value="rimanda" checked/);
    const back = await follow(co2, await co2.submitForm(`/cdd/review/${t.code}`, { decisione: 'rimanda', nota: 'Manca il documento di identità' }, `/cdd/review/${t.code}`));
    assert.match(back.text, /data-status="in_progress"/);
    assert.match(back.text, /Manca il documento di identità/);
    await follow(analyst, await analyst.submitForm(`/cdd/${t.id}/esegui`, { ...PERSON_ANSWERS, azione: 'invia' }, `/cdd/${t.id}/esegui`));
    const done = await follow(co2, await co2.submitForm(`/cdd/review/${t.code}`, { decisione: 'completa', nota: '' }, `/cdd/review/${t.code}`));
    assert.match(done.text, /Verifica completata/);
    assert.match(done.text, /data-status="completed"/);
    assert.match(done.text, /data-next-review/);

    const history = await viewer.get(`/cdd/history/${t.code}`, html);
    assert.match(history.text, new RegExp(`<tr class="table-active" aria-current="true">\\s*<td><a href="/cdd/${t.id}">${t.code}</a>`));
  });

  it('refuses the completion to the officer who sent the task to review (four eyes), with the message on the workbench', async () => {
    await customer('ANA-100005', { nome: 'Irene', cognome: 'Sala' });
    const t = await initiate(co1, 'ANA-100005');
    await co1.submitForm(`/cdd/${t.id}/avvia`, {}, `/cdd/${t.id}`);
    const sent = await follow(co1, await co1.submitForm(`/cdd/${t.id}/esegui`, { ...PERSON_ANSWERS, azione: 'invia' }, `/cdd/${t.id}/esegui`));
    assert.match(sent.text, /data-status="pending_review"/);
    assert.match(sent.text, /data-waiting-review/, 'the page says someone else must review it');
    const bench = await co1.get(`/cdd/review/${t.code}`, html);
    assert.match(bench.text, /data-four-eyes>Hai inviato tu questa verifica in revisione: deve completarla un altro utente \(principio dei quattro occhi\)\./);
    assert.match(bench.text, /value="rimanda"/, 'sending back stays possible');
    const refused = await co1.submitForm(`/cdd/review/${t.code}`, { decisione: 'completa', nota: 'Tutto in ordine' }, `/cdd/review/${t.code}`);
    assert.equal(refused.status, 403);
    assert.match(refused.text, /data-refusal="FOUR_EYES_REQUIRED">La verifica deve essere completata da un utente diverso da chi l&#39;ha inviata in revisione/);
    assert.match(refused.text, />Tutto in ordine<\/textarea>/, 'the note typed comes back');
    assert.equal((await env.ownerDb('cdd_pratiche').where({ id: t.id }).first('stato')).stato, 'pending_review');
  });

  it('adds evidence with a file from the execute page, refuses a file of another type, and lets only readers download it', async () => {
    await customer('ANA-100006', { nome: 'Bruno', cognome: 'Villa' });
    const t = await initiate(analyst, 'ANA-100006');
    await analyst.submitForm(`/cdd/${t.id}/avvia`, {}, `/cdd/${t.id}`);
    const form = await analyst.get(`/cdd/${t.id}/esegui`, html);
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1]!;
    const url = `/cdd/evidence/${t.code}?_csrf=${encodeURIComponent(token)}`;
    const bad = await analyst.upload(url, { tipo: 'documento', descrizione: 'Carta d\'identità', riferimento: 'CA12345' }, { name: 'ci.pdf', type: 'application/pdf', bytes: Buffer.from('non un pdf') }, 'none');
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-file-err">[^<]+</);
    assert.match(bad.text, /value="CA12345"/, 'the fields typed come back');
    const noText = await analyst.upload(url, { tipo: '', descrizione: '' }, undefined, 'none');
    assert.equal(noText.status, 422);
    assert.match(noText.text, /id="f-tipo-err">Scegli il tipo di evidenza</);
    assert.match(noText.text, /id="f-descrizione-err">Descrivi l&#39;evidenza</);
    const ok = await analyst.upload(url, { tipo: 'documento', descrizione: 'Carta d\'identità del cliente', riferimento: 'CA12345' }, { name: 'carta identità.pdf', type: 'application/pdf', bytes: PDF }, 'none');
    assert.equal(ok.status, 302, ok.text.slice(0, 300));
    const list = await auditor.get(`/cdd/evidence/${t.code}`, html);
    const link = /href="(\/cdd\/evidence\/CDD-\d+\/[0-9a-f-]{36})" data-download>carta identità\.pdf</.exec(list.text);
    assert.ok(link, 'the auditor gets the download link');
    const file = await auditor.get(link[1]!);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type') ?? '', /application\/pdf/);
    assert.equal((await viewer.get(link[1]!)).status, 403, 'a viewer does not download evidence');
    assert.doesNotMatch((await viewer.get(`/cdd/evidence/${t.code}`, html)).text, /data-download/);
    assert.equal((await otherCo.get(link[1]!)).status, 404);
  });

  it('deletes a task opened by mistake with a reason, and records an abstention', async () => {
    // ANA-100003 has the list test's open task: the form leads to it.
    const t = await initiate(co1, 'ANA-100003');
    const noReason = await follow(co1, await co1.submitForm(`/cdd/${t.id}/elimina`, { motivazione: ' ' }, `/cdd/${t.id}`));
    assert.match(noReason.text, /Indica il motivo dell&#39;eliminazione|Indica il motivo dell'eliminazione/);
    assert.equal(await analyst.submitForm(`/cdd/${t.id}/elimina`, { motivazione: 'Errore' }, `/cdd/${t.id}`).then((x) => x.status), 403, 'an analyst may not delete');
    const deleted = await follow(co1, await co1.submitForm(`/cdd/${t.id}/elimina`, { motivazione: 'Aperta sul cliente sbagliato' }, `/cdd/${t.id}`));
    assert.match(deleted.text, /Verifica eliminata/);
    assert.match(deleted.text, /data-status="deleted"/);
    assert.match(deleted.text, /Aperta sul cliente sbagliato/);

    const a = await initiate(co1, 'ANA-100003');
    const abstained = await follow(co1, await co1.submitForm(`/cdd/${a.id}/astensione`, { nota: 'Il cliente rifiuta di indicare l\'origine dei fondi' }, `/cdd/${a.id}`));
    assert.match(abstained.text, /data-status="abstained"/);
    assert.match(abstained.text, /Il cliente rifiuta di indicare/);
  });

  it('shows the overview with its counts and the refresh queue with the action to start the task', async () => {
    const reviewId = randomUUID();
    await env.ownerDb('cdd_reviews').insert({
      id: reviewId, cod_azienda: tenant, cod_anagrafe: 'ANA-100002', motivo: 'onboarding', classe_rischio: 'medio',
      due_at: new Date(Date.now() - 86_400_000), stato: 'scaduta', workflow_id: `cdd-review:${tenant}:${reviewId}`,
    });
    const overview = await viewer.get('/cdd/overview', html);
    assert.equal(overview.status, 200);
    assert.match(overview.text, /data-kpi="revisioni-scadute">[\s\S]*?<div class="h1 mb-0 text-red">1<\/div>/);
    assert.match(overview.text, /id="grafico-cdd-settimane"/);
    assert.match(overview.text, /id="grafico-cdd-livello"/);

    const queue = await co1.get('/cdd/refresh-queue?finestra=scadute', html);
    assert.equal(queue.status, 200);
    assert.match(queue.text, /<span data-range>1<\/span> di 1 revisioni/);
    // The home's tile counts what its link lists.
    const home = await co1.get('/', html);
    assert.match(home.text, /href="\/cdd\/refresh-queue\?finestra=scadute"/);
    assert.match(queue.text, /Officine Padane S\.r\.l\./);
    // ANA-100002 has an open task (the detail test's): the queue links it rather than starting a second one.
    assert.match(queue.text, /data-open-task/);
    const asViewer = await viewer.get('/cdd/refresh-queue', html);
    assert.doesNotMatch(asViewer.text, /data-start-review/);
  });

  it('seeds the page catalogue\'s CDD pages, and each shows Italian dates and labels, never raw values', async () => {
    const seeded = await env.createTenant();
    const [co, analystUser] = await Promise.all([env.createUser({ tenant: seeded, roles: ['co'] }), env.createUser({ tenant: seeded, roles: ['analyst'] })]);
    const [coApi, analystApi] = await Promise.all([env.login(co), env.login(analystUser)]);
    const cdd = await seedCddPages(env, seeded, analystApi);
    const raw = new Set<string>();
    for (const dict of [cddLabels.STATO_LABELS, cddLabels.LIVELLO_LABELS, cddLabels.MOTIVO_LABELS, cddLabels.REVISIONE_STATO_LABELS, cddLabels.QUESTIONARIO_STATO_LABELS]) {
      for (const [k, v] of Object.entries(dict)) if (!v.toLowerCase().includes(k.toLowerCase())) raw.add(k);
    }
    const pages: [TestClient, string][] = [
      [coApi, '/cdd'], [analystApi, '/cdd/nuovo?q=Esposito'], [coApi, '/cdd/overview'], [coApi, '/cdd/refresh-queue'], [coApi, `/cdd/${cdd.open.id}`],
      [analystApi, `/cdd/${cdd.review.id}`], [analystApi, `/cdd/${cdd.working.id}/esegui`], [coApi, `/cdd/evidence/${cdd.review.code}`],
      [coApi, `/cdd/history/${cdd.review.code}`], [coApi, `/cdd/review/${cdd.review.code}`],
    ];
    for (const [client, path] of pages) {
      const r = await client.get(path, html);
      assert.equal(r.status, 200, path);
      const visible = r.text.replace(/<(script|style|textarea|svg)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
      assert.doesNotMatch(visible, /\d{4}-\d{2}-\d{2}/, `${path}: an ISO date`);
      for (const k of raw) assert.doesNotMatch(visible, new RegExp(`(?<![\\w.-])${k}(?![\\w-])`), `${path}: the raw value ${k}`);
    }
    const queue = await coApi.get('/cdd/refresh-queue', html);
    assert.match(queue.text, /Sergio Conti/);
    assert.match(queue.text, /data-start-review/, 'the overdue review of a customer without a task can be started');
    const review = await env.ownerDb('cdd_reviews').where({ cod_azienda: seeded, cod_anagrafe: 'ANA-700004' }).first('id');
    const wrong = await coApi.submitForm('/cdd/nuovo', { cod_anagrafe: 'ANA-700001', motivo: 'revisione_periodica', review_id: review.id }, '/cdd/refresh-queue');
    assert.equal(wrong.status, 422, 'a review is started only for its own customer');
    const started = await follow(coApi, await coApi.submitForm('/cdd/nuovo', { cod_anagrafe: 'ANA-700004', motivo: 'revisione_periodica', review_id: review.id }, '/cdd/refresh-queue'));
    assert.match(started.text, /Revisione periodica/);
    assert.equal((await env.ownerDb('cdd_pratiche').where({ cod_azienda: seeded, cod_anagrafe: 'ANA-700004' }).first('review_id')).review_id, review.id);
    assert.match((await coApi.get('/cdd/refresh-queue', html)).text, /data-open-task/);
  });

  it('shows an enhanced task\'s EDD cases and opens one linked to the task until one is approved', async () => {
    await customer('ANA-EDDPAGE1', { pep: true, cognome: 'Pellegrini' });
    const t = await initiate(analyst, 'ANA-EDDPAGE1');
    const before = await analyst.get(`/cdd/${t.id}`, html);
    assert.match(before.text, /data-edd-cases/);
    assert.match(before.text, /Nessun caso EDD per questo cliente/);
    assert.ok(before.text.includes(`/edd/nuovo?cod_anagrafe=ANA-EDDPAGE1&amp;cdd_pratica_id=${t.id}`), 'link to open an EDD case for the task');
    await insertApprovedEdd(env.ownerDb, tenant, 'ANA-EDDPAGE1', t.id);
    const after = await analyst.get(`/cdd/${t.id}`, html);
    assert.match(after.text, /Approvat/);
    assert.ok(!after.text.includes('Apri un caso EDD'), 'no new case once one is approved');
  });
});
