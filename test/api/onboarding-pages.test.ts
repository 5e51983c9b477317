import assert from 'node:assert/strict';
import { settleLinkDeliveries } from '../../src/domains/onboarding/onboarding.links';
import { linkIn } from '../helpers/mailbox';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { eventually, PDF, PNG, signCeremony, uniqueEmail } from './onboarding-fixtures';

const html = { accept: 'text/html' };
const future = `${new Date().getUTCFullYear() + 3}-05-31`;

/** The applicant's data as the step 1 form posts it (dotted field names). */
const personForm = (over: Record<string, string> = {}) => ({
  nome: 'Giulia', cognome: 'Verdi', codice_fiscale: '', data_nascita: '1985-03-12', luogo_nascita: 'Torino', nazionalita: 'IT', paese_residenza: 'IT',
  telefono: '', professione: 'Architetta', 'residenza.via': 'Corso Francia 10', 'residenza.cap': '10138', 'residenza.citta': 'Torino', 'residenza.provincia': 'TO',
  'residenza.paese': 'IT', 'documento.tipo': 'carta_identita', 'documento.numero': 'CA98765BB', 'documento.rilasciato_da': 'Comune di Torino',
  'documento.scadenza': future, pep: 'false', pep_dettaglio: '', ...over,
});

/** Every CDD question answered as the step 5 form posts it (the options are read from the page). */
function cddForm(page: string): Record<string, string> {
  const form: Record<string, string> = { versione: page.match(/name="versione" value="([^"]+)"/)![1]! };
  for (const m of page.matchAll(/<select[^>]*name="(risposte\.[a-z_]+)"[^>]*>\s*<option value="">[^<]*<\/option>\s*<option value="([^"]+)"/g)) form[m[1]!] = m[2]!;
  for (const m of page.matchAll(/name="(risposte\.[a-z_]+)" value="false"/g)) form[m[1]!] = 'false';
  for (const m of page.matchAll(/<textarea[^>]*name="(risposte\.[a-z_]+)"/g)) form[m[1]!] = 'Stipendio da lavoro dipendente';
  for (const m of page.matchAll(/<input[^>]*name="(risposte\.[a-z_]+)"[^>]*inputmode="decimal"/g)) form[m[1]!] = '12';
  return form;
}

describe('onboarding wizard pages (no JavaScript: forms, post/redirect/get)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  /** Opens a case through the landing page's form, as a visitor would. */
  async function start(email = uniqueEmail()): Promise<{ c: TestClient; email: string }> {
    const c = env.client();
    const r = await c.submitForm('/onboarding/', { email, privacy: 'true', azienda: tenant }, `/onboarding/?azienda=${tenant}`);
    assert.equal(r.status, 302, r.text);
    assert.equal(r.headers.get('location'), '/onboarding/step/0');
    assert.ok(c.cookie('cp_onb'), 'the applicant session starts with the case');
    return { c, email };
  }
  const post = (c: TestClient, n: number | string, form: Record<string, string | string[]>) => c.submitForm(`/onboarding/step/${n}`, form, `/onboarding/step/${n}`);

  it('landing page: explains the process, refuses a bad form with the input kept, opens a case', async () => {
    const c = env.client();
    let r = await c.get(`/onboarding/?azienda=${tenant}`, html);
    assert.equal(r.status, 200);
    assert.match(r.text, /Richiesta di apertura rapporto/);
    assert.match(r.text, /Visura camerale/);
    assert.match(r.text, /id="privacy"/);
    assert.match(r.text, /action="\/onboarding\/riprendi"/);
    assert.doesNotMatch(r.text, /navbar-vertical/, 'no staff navigation on public pages');
    // The tenant's name, not the vendor's; a name that ends with a full stop does not get a second one.
    const name = `Azienda di prova ${tenant} S.r.l.`;
    assert.ok(r.text.includes(`data-brand="${tenant}"`) && r.text.includes(name), 'the header names the tenant');
    assert.doesNotMatch(r.text, /Compliance AML/);
    assert.doesNotMatch(r.text, /S\.r\.l\.\./, 'no doubled full stop');
    // The start form comes before the explanations (its button is near the top of the page).
    assert.ok(r.text.indexOf('Inizia la richiesta') < r.text.indexOf('id="come-funziona"'), 'start form first, details below');
    assert.match(r.text, /id="f-email"[^>]*>\s*<small class="form-hint[^"]*" id="f-email-hint">/, 'the hint is under the field');

    r = await c.submitForm('/onboarding/', { email: 'non-una-mail', azienda: tenant }, `/onboarding/?azienda=${tenant}`);
    assert.equal(r.status, 422);
    assert.match(r.text, /value="non-una-mail"/, 'what was typed is kept');
    assert.match(r.text, /id="f-email-err"[^>]*>Indirizzo e-mail non valido/);
    assert.match(r.text, /id="f-privacy-err"/);
    assert.match(r.text, /href="#f-email"/, 'the error summary links to the field');

    assert.equal((await c.get('/onboarding/?azienda=NONESISTE', html)).status, 404);
    assert.equal((await c.get(`/onboarding?azienda=${tenant}`, html)).headers.get('location'), `/onboarding/?azienda=${tenant}`);
    await start();
  });

  it('limits how many cases one address may open (each is a workflow and a row)', async () => {
    await start();
    const keys = () => env.ownerDb('login_throttle').whereLike('key', 'onboarding-start:ip:%');
    try {
      await keys().update({ failures: 30 });
      const c = env.client();
      const r = await c.submitForm('/onboarding/', { email: uniqueEmail(), privacy: 'true', azienda: tenant }, `/onboarding/?azienda=${tenant}`);
      assert.equal(r.status, 429, r.text);
      assert.match(r.text, /Troppe richieste di apertura/);
      assert.equal(c.cookie('cp_onb'), undefined, 'no case, no session');
    } finally {
      await keys().delete();
    }
  });

  it('walks a natural person through every step without JavaScript, skipping the company steps, then submit and signature', async () => {
    const { c, email } = await start();
    let r = await c.get('/onboarding/step/0', html);
    assert.equal(r.status, 200);
    assert.match(r.text, /Passo 1 di 7<span[^>]*> · Tipo di cliente<\/span>/);
    assert.match(r.text, /<button type="submit" name="azione" value="continua" class="btn btn-primary">Continua<\/button>/);
    assert.match(r.text, /value="salva" class="btn btn-outline-secondary">Salva e riprendi più tardi<\/button>/);
    assert.doesNotMatch(r.text, /Salva e continua/, 'no pair of look-alike buttons');
    r = await post(c, 0, {});
    assert.equal(r.status, 422);
    assert.match(r.text, /Scegli il tipo di cliente/);
    r = await post(c, 0, { subject_type: 'persona_fisica' });
    assert.equal(r.headers.get('location'), '/onboarding/step/1');

    // Steps that do not apply to a natural person send the browser on.
    r = await c.get('/onboarding/step/2', html);
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/onboarding/step/3');
    r = await c.get('/onboarding/step/4', html);
    assert.equal(r.headers.get('location'), '/onboarding/step/5');
    assert.equal((await c.get('/onboarding/step/9', html)).status, 404);

    // Step 1: errors come back next to their fields with everything typed kept; the draft is saved anyway.
    r = await post(c, 1, personForm({ cognome: '', data_nascita: '2999-01-01', 'residenza.cap': '' }));
    assert.equal(r.status, 422);
    assert.match(r.text, /value="Giulia"/);
    assert.match(r.text, /value="Corso Francia 10"/);
    assert.match(r.text, /value="2999-01-01"/);
    assert.match(r.text, /id="f-cognome"[^>]*aria-invalid="true"[^>]*aria-describedby="f-cognome-err"/);
    assert.match(r.text, /id="f-data_nascita-err">La data deve essere nel passato/);
    assert.match(r.text, /id="f-residenza-cap-err"/);
    assert.match(r.text, /href="#f-residenza-cap"/);
    // Hints sit under their control, before the error, and stay tied to it.
    assert.match(r.text, /<label[^>]*for="f-documento-rilasciato_da">[^<]*<\/label>\s*<input[^>]*id="f-documento-rilasciato_da"[^>]*aria-describedby="f-documento-rilasciato_da-hint"[^>]*>\s*<small class="form-hint[^"]*" id="f-documento-rilasciato_da-hint">/);
    // The progress: step 2 of 7, the step before it done and still a link, the current one not a link.
    assert.match(r.text, /data-passo="2" data-passi="7"/);
    assert.match(r.text, /<li class="done">\s*<a href="\/onboarding\/step\/0">/);
    assert.match(r.text, /<li class="current">\s*<span class="wizard-step" aria-current="step">/);
    assert.match(r.text, /<li class="todo">\s*<a href="\/onboarding\/step\/3">/);
    r = await post(c, 1, { ...personForm({ cognome: '' }), azione: 'salva' });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/onboarding/stato');
    r = await c.get('/onboarding/stato', html);
    assert.match(r.text, /Bozza salvata/);
    assert.match(r.text, /Inviami il link per riprendere/);
    assert.match(r.text, /Cognome/, 'the status page lists what is missing');
    r = await c.get('/onboarding/step/1', html);
    assert.match(r.text, /value="Architetta"/, 'the saved draft is shown again');
    r = await post(c, 1, personForm());
    assert.equal(r.headers.get('location'), '/onboarding/step/3');

    // Step 3: multipart upload with the CSRF token in the query string.
    r = await post(c, 3, {});
    assert.equal(r.status, 422);
    assert.match(r.text, /Manca il documento: Documento d&#39;identità/);
    r = await c.upload('/onboarding/documenti?passo=3', { tipo: 'documento_identita', riferimento: 'soggetto' }, { name: 'nota.txt', type: 'text/plain', bytes: Buffer.from('not a document') }, 'query');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-file-err">Formato non ammesso/);
    assert.match(r.text, /<option value="documento_identita" selected>/, 'the chosen type is kept');
    r = await c.upload('/onboarding/documenti?passo=3', { tipo: 'documento_identita', riferimento: 'soggetto' }, { name: 'carta.pdf', type: 'application/pdf', bytes: PDF }, 'none');
    assert.equal(r.status, 403, 'an upload without the CSRF token is refused');
    r = await c.upload('/onboarding/documenti?passo=3', { tipo: 'documento_identita', riferimento: 'soggetto' }, { name: 'carta.pdf', type: 'application/pdf', bytes: PDF }, 'query');
    assert.equal(r.status, 302, r.text);
    assert.equal(r.headers.get('location'), '/onboarding/step/3');
    r = await c.get('/onboarding/step/3', html);
    assert.match(r.text, /data-caricato="si"/);
    assert.match(r.text, /carta\.pdf/);
    r = await post(c, 3, {});
    assert.equal(r.headers.get('location'), '/onboarding/step/5');

    // Step 5: the questionnaire.
    r = await post(c, 5, { versione: 'cdd-2026-1' });
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-risposte-scopo_rapporto-err"/);
    const page5 = (await c.get('/onboarding/step/5', html)).text;
    r = await post(c, 5, cddForm(page5));
    assert.equal(r.status, 302, r.text.slice(0, 3000));
    assert.equal(r.headers.get('location'), '/onboarding/step/6');

    // Step 6: repeated rows; "aggiungi" comes back with one more row.
    r = await post(c, 6, { 'paesi.0.paese': 'IT', 'paesi.0.ruolo': '', azione: 'aggiungi' });
    assert.equal(r.status, 200);
    assert.match(r.text, /name="paesi\.1\.paese"/);
    r = await post(c, 6, { 'paesi.0.paese': 'IT', 'paesi.0.ruolo': '', 'paesi.1.paese': '', 'paesi.1.ruolo': '' });
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-paesi-0-ruolo-err"/);
    assert.match(r.text, /<option value="IT" selected>/);
    r = await post(c, 6, { 'paesi.0.paese': 'IT', 'paesi.0.ruolo': 'sede_operativa', 'paesi.1.paese': 'FR', 'paesi.1.ruolo': 'clienti', 'paesi.2.paese': '', 'paesi.2.ruolo': '' });
    assert.equal(r.headers.get('location'), '/onboarding/step/7');

    // Step 7 without wallets just continues.
    r = await c.get('/onboarding/step/7', html);
    assert.match(r.text, /Senza wallet non serve alcuna dichiarazione/);
    r = await post(c, 7, {});
    assert.equal(r.headers.get('location'), '/onboarding/step/8');

    // Step 8: the summary, then submission sends the applicant to sign the declarations.
    r = await c.get('/onboarding/step/8', html);
    assert.match(r.text, /La richiesta è completa/);
    assert.match(r.text, /Corso Francia 10/);
    assert.match(r.text, /Francia — Paese dei clienti/);
    r = await post(c, 8, {});
    assert.equal(r.status, 302, r.text.slice(0, 2000));
    const signing = r.headers.get('location')!;
    assert.match(signing, /^\/esign\/ceremony\/[0-9a-f-]{36}\?token=/);
    r = await c.get('/onboarding/stato', html);
    assert.match(r.text, /data-stato="submitted"/);
    assert.ok(r.text.includes(`href="${signing.replace(/&/g, '&amp;')}"`), 'the status page carries the signing link');
    assert.match(r.text, /data-conservazione/, 'after submission erasure gives way to the retention explanation');
    assert.equal((await c.get('/onboarding/step/1', html)).headers.get('location'), '/onboarding/stato', 'a submitted case is no longer editable');

    const ceremonyId = await signCeremony(env, signing);
    r = await c.get(`/esign/receipt/${ceremonyId}?token=${signing.split('token=')[1]}`, html);
    assert.match(r.text, /href="\/onboarding\/stato"/, 'the receipt leads back to the application');
    await eventually(async () => /data-stato="in_review"/.test((await c.get('/onboarding/stato', html)).text), 'in review');
    r = await c.get('/onboarding/completato', html);
    assert.equal(r.status, 200);
    assert.match(r.text, /Richiesta ricevuta/);
    assert.ok(r.text.includes(email));

    // The reviewer asks for more: the status page shows the question and the wizard opens again.
    const caseId = r.text.match(/<code>([0-9a-f-]{36})<\/code>/)![1]!;
    const reviewer = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    const staffCeremony = await reviewer.get(`/esign/ceremony/${ceremonyId}`, html);
    assert.ok(staffCeremony.text.includes(`href="/admin/onboarding/cases/${caseId}" data-torna>← Torna alla pratica di onboarding</a>`), 'staff go back to the case that asked for the signature');
    const ask = await reviewer.post(`/api/v1/admin/onboarding/cases/${caseId}/request-info`, { message: 'Serve una prova di residenza recente.' });
    assert.equal(ask.status, 200, ask.text);
    r = await c.get('/onboarding/stato', html);
    assert.match(r.text, /data-stato="info_requested"/);
    assert.match(r.text, /data-richiesta-revisore[\s\S]*Serve una prova di residenza recente\./);
    assert.match(r.text, /data-conservazione/, 'a submitted case is kept, even while it is being completed');
    r = await c.get('/onboarding/step/3', html);
    assert.equal(r.status, 200);
    assert.match(r.text, /Richiesta del revisore:<\/strong> Serve una prova di residenza recente\./);
    r = await c.get('/onboarding/completato', html);
    assert.equal(r.headers.get('location'), '/onboarding/stato');
  });

  it('documents: a file over the size limit is refused next to the file field; a document can be deleted', async () => {
    const { c } = await start();
    await post(c, 0, { subject_type: 'persona_fisica' });
    const big = Buffer.alloc(env.deps.config.uploadMaxBytes + 1, 0x20);
    PDF.copy(big);
    let r = await c.upload('/onboarding/documenti?passo=3', { tipo: 'documento_identita', riferimento: 'soggetto' }, { name: 'grande.pdf', type: 'application/pdf', bytes: big }, 'query');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-file-err">Il file supera la dimensione massima di 10 MB/);
    assert.match(r.text, /<option value="documento_identita" selected>/);

    r = await c.upload('/onboarding/documenti?passo=3', { tipo: 'codice_fiscale', riferimento: 'soggetto' }, { name: 'tessera.png', type: 'image/png', bytes: PNG }, 'query');
    assert.equal(r.status, 302, r.text.slice(0, 2000));
    r = await c.get('/onboarding/step/3', html);
    const docId = r.text.match(/data-documento="([0-9a-f-]{36})"/)![1]!;
    assert.match(r.text, /tessera\.png/);
    r = await c.submitForm(`/onboarding/documenti/${docId}/elimina`, { passo: '3' }, '/onboarding/step/3');
    assert.equal(r.status, 302);
    r = await c.get('/onboarding/step/3', html);
    assert.doesNotMatch(r.text, /tessera\.png/);
    assert.match(r.text, /Documento eliminato/);

    // htmx: the upload answers with the documents fragment only.
    r = await c.request('POST', `/onboarding/documenti?passo=3&_csrf=${encodeURIComponent(await c.csrfToken('/onboarding/step/3'))}`, {
      body: (() => { const fd = new FormData(); fd.append('tipo', 'documento_identita'); fd.append('riferimento', 'soggetto'); fd.append('file', new Blob([PDF]), 'ci.pdf'); return fd; })(),
      headers: { 'HX-Request': 'true', accept: 'text/html' },
    });
    assert.equal(r.status, 200);
    assert.match(r.text, /^\s*<div id="documenti">/);
    assert.doesNotMatch(r.text, /<html/);
    assert.match(r.text, /data-caricato="si"/);
  });

  it('company: beneficial owners as repeatable fieldsets (add, remove, errors per row with input kept)', async () => {
    const { c } = await start();
    await post(c, 0, { subject_type: 'societa' });
    let r = await c.get('/onboarding/step/2', html);
    assert.equal(r.status, 200);
    assert.match(r.text, /Passo 3 di 9/);
    assert.match(r.text, /name="titolari\.1\.nome"/, 'two empty rows to start with');
    r = await post(c, 2, { 'titolari.0.nome': 'Anna', 'titolari.0.cognome': 'Neri', 'titolari.1.nome': '', azione: 'aggiungi' });
    assert.equal(r.status, 200);
    assert.match(r.text, /value="Anna"/);
    assert.match(r.text, /name="titolari\.1\.nome"/);
    assert.doesNotMatch(r.text, /name="titolari\.2\.nome"/, 'blank rows are dropped, one new row is added');
    const annaId = r.text.match(/name="titolari\.0\.id" value="([0-9a-f-]{36})"/)?.[1];
    assert.ok(annaId, 'a saved owner keeps a stable id');

    r = await post(c, 2, {
      'titolari.0.id': annaId!, 'titolari.0.nome': 'Anna', 'titolari.0.cognome': 'Neri', 'titolari.0.percentuale': '130',
      'titolari.1.nome': 'Bruno', 'titolari.1.cognome': 'Gialli', 'titolari.1.data_nascita': '1970-02-02',
    });
    assert.equal(r.status, 422);
    assert.match(r.text, /value="Bruno"/);
    assert.match(r.text, /value="130"/);
    assert.match(r.text, /id="f-titolari-0-percentuale-err">Massimo 100/);
    assert.match(r.text, /id="f-titolari-1-nazionalita-err"/);
    assert.match(r.text, /Titolare 2 – Cittadinanza/, 'the summary names the row');

    r = await post(c, 2, { 'titolari.0.id': annaId!, 'titolari.0.nome': 'Anna', 'titolari.1.nome': 'Bruno', azione: 'rimuovi-0' });
    assert.equal(r.status, 200);
    assert.match(r.text, /value="Bruno"/);
    assert.doesNotMatch(r.text, /value="Anna"/);

    // htmx adds a row in place: the fragment is one fieldset plus the moved add button.
    r = await c.get('/onboarding/step/2/riga?indice=3', { accept: 'text/html', 'HX-Request': 'true' });
    assert.equal(r.status, 200);
    assert.match(r.text, /name="titolari\.3\.nome"/);
    assert.match(r.text, /hx-swap-oob="true"[\s\S]*indice=4/);
    assert.doesNotMatch(r.text, /<html/);
  });

  it('wallets: the message to sign names the case and the address; a wrong signature is refused next to its field', async () => {
    const { c } = await start();
    await post(c, 0, { subject_type: 'persona_fisica' });
    const addr = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
    const wallet = { rete: 'ETH', indirizzo: addr, tipo: 'self_hosted', vasp_nome: '', volume_annuo_eur: '5000', 'prova.metodo': 'firma_messaggio', 'prova.firma': '' };
    let r = await c.submitForm('/onboarding/wallet', { ...wallet, azione: 'messaggio' }, '/onboarding/step/7');
    assert.equal(r.status, 200);
    const msg = r.text.match(/data-messaggio>([^<]+)</)?.[1] ?? '';
    assert.ok(msg.includes(addr) && /pratica di adeguata verifica [0-9a-f-]{36}/.test(msg), msg);
    assert.match(r.text, /value="5000"/);

    r = await c.submitForm('/onboarding/wallet', { ...wallet, 'prova.firma': `0x${'ab'.repeat(65)}` }, '/onboarding/step/7');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-prova-firma-err"/);
    assert.match(r.text, new RegExp(`value="${addr}"`));

    r = await c.submitForm('/onboarding/wallet', { rete: 'BTC', indirizzo: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', tipo: 'custodial', vasp_nome: 'Exchange Uno', volume_annuo_eur: '800', 'prova.metodo': '' }, '/onboarding/step/7');
    assert.equal(r.status, 302, r.text.slice(0, 2000));
    r = await c.get('/onboarding/step/7', html);
    assert.match(r.text, /Exchange Uno/);
    assert.match(r.text, /action="\/onboarding\/travel-rule\/firma"/);
    r = await c.submitForm('/onboarding/travel-rule/firma', { luogo: '' }, '/onboarding/step/7');
    assert.equal(r.status, 422);
    assert.match(r.text, /id="f-titolare_wallet-err"/);
    assert.match(r.text, /id="f-luogo-err"/);
    r = await post(c, 7, {});
    assert.equal(r.status, 422, 'with wallets the declaration is required before going on');
    assert.match(r.text, /travel rule/);
  });

  it('no session: a page that explains how to resume; erasure of a draft with confirmation', async () => {
    const anon = env.client();
    for (const p of ['/onboarding/step/1', '/onboarding/stato', '/onboarding/completato']) {
      const r = await anon.get(p, html);
      // The page explains how to get back in; its status tells a client the session is missing.
      assert.equal(r.status, 401);
      assert.match(r.text, /Riprendi la tua richiesta/);
      assert.match(r.text, /action="\/onboarding\/riprendi"/);
    }
    // Without a session the link's tenant (or none) names the page.
    const named = await anon.get(`/onboarding/step/1?azienda=${tenant}`, html);
    assert.ok(named.text.includes(`data-brand="${tenant}"`), 'the no-session page names the tenant of the link');

    const { c, email } = await start();
    const after = await env.mailbox.cursor();
    let r = await env.client().submitForm('/onboarding/riprendi', { email, azienda: tenant }, `/onboarding/?azienda=${tenant}`);
    assert.equal(r.status, 302);
    await settleLinkDeliveries();
    const sent = await env.mailbox.waitFor(email, { subject: /riprendere la tua pratica/, after });
    assert.ok(linkIn(sent).includes('/api/v1/onboarding/resume?token='), 'a resume link was sent');

    r = await c.submitForm('/onboarding/stato/cancella', {}, '/onboarding/stato');
    assert.equal(r.status, 302);
    r = await c.get('/onboarding/stato', html);
    assert.match(r.text, /spunta la casella di conferma/);
    r = await c.submitForm('/onboarding/stato/cancella', { conferma: '1' }, '/onboarding/stato');
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), `/onboarding/?azienda=${tenant}`);
    assert.equal(c.cookie('cp_onb'), undefined, 'the session ends with the erasure');
    r = await c.get('/onboarding/stato', html);
    assert.match(r.text, /Riprendi la tua richiesta/);

    // A case that expired says so, on every page of the wizard.
    const { c: late } = await start();
    const row = await env.ownerDb('onboarding_cases').where({ cod_azienda: tenant }).orderBy('created_at', 'desc').first('id');
    await env.ownerDb('onboarding_cases').where({ id: row.id }).update({ stato: 'expired' });
    for (const p of ['/onboarding/stato', '/onboarding/step/1']) {
      r = await late.get(p, html);
      assert.equal(r.status, 200);
      assert.match(r.text, /Richiesta scaduta/);
      assert.ok(r.text.includes(`data-brand="${tenant}"`), 'the closed page names the tenant');
      assert.ok(r.text.includes(`href="/onboarding/?azienda=${tenant}"`), 'a new application goes to the same tenant');
    }
  });
});
