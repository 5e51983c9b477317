import assert from 'node:assert/strict';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Browser, Page } from 'playwright-core';
import { ethAddressOf } from '../../src/domains/onboarding/wallet-proof';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { artifactsDir, launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { PDF, PNG } from '../api/onboarding-fixtures';
import { ethSign } from '../helpers/wallet-sign';

const future = `${new Date().getUTCFullYear() + 4}-09-30`;
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF });
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });


describe('browser: a company applies online, signs, and is approved with four eyes', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  /** No serious or critical axe violation on the page as it is now. */
  const accessible = async (page: Page, what: string) => assert.deepEqual(await seriousA11yViolations(page), [], `${what}: no serious accessibility violation`);
  const next = (page: Page) => page.locator('button[name="azione"][value="continua"]').click();

  /** Signs an e-sign ceremony the wizard sent the applicant to, with the code from the applicant's mailbox. */
  async function signCeremony(page: Page, shot: string) {
    await page.waitForURL(/\/esign\/ceremony\/[0-9a-f-]{36}\?token=/);
    await page.getByRole('button', { name: 'Accetto le condizioni' }).click();
    const after = await env.mailbox.cursor();
    await page.getByRole('button', { name: /Mostra il documento/ }).click();
    await page.locator('input[name="otp"]').waitFor();
    await page.locator('input[name="otp"]').fill(await env.mailbox.otp('amministrazione@alfa-digitale.example', after));
    await screenshot(page, shot);
    await accessible(page, `${shot}: ceremony`);
    await page.getByRole('button', { name: 'Firma il documento' }).click();
    await page.locator('[data-firmato]').waitFor();
    assert.equal(await page.locator('[data-scadenza]').count(), 0, 'a signed ceremony no longer says when its link expires');
    await page.getByRole('link', { name: 'Vai alla ricevuta' }).click();
    await page.getByRole('heading', { name: 'Ricevuta di firma' }).waitFor();
    await accessible(page, `${shot}: receipt`);
    await page.getByRole('link', { name: 'Torna alla tua richiesta' }).click();
    await page.waitForURL(/\/onboarding\/stato$/);
  }

  it('walks the whole journey in Chromium', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.createUser({ tenant, roles: ['co'] });
    const key = secp256k1.utils.randomSecretKey();
    const ethAddress = ethAddressOf(secp256k1.getPublicKey(key, false));

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctx.newPage();

    // 1. Landing page and start.
    await page.goto(`${env.baseUrl}/onboarding/?azienda=${tenant}`);
    await screenshot(page, 'onb-01-landing');
    await accessible(page, 'landing page');
    await page.locator('#f-email').fill('amministrazione@alfa-digitale.example');
    await page.locator('#f-privacy').check();
    await page.getByRole('button', { name: 'Inizia la richiesta' }).click();
    await page.waitForURL(/\/onboarding\/step\/0$/);

    // 2. Subject type: the buttons say what they do, the progress names the step.
    await accessible(page, 'step 0');
    assert.equal(await page.getByRole('button', { name: 'Salva e continua dopo' }).count(), 0);
    await page.getByRole('button', { name: 'Salva e riprendi più tardi' }).waitFor();
    assert.match((await page.locator('.wizard-progress-head').textContent())!, /Passo 1 di \d · Tipo di cliente/);
    await page.locator('input[name="subject_type"][value="societa"]').check({ force: true });
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/1$/);

    // 3. Company data: a first attempt with a gap comes back with the error summary and the input kept.
    const fill = async (values: Record<string, string>) => {
      for (const [name, value] of Object.entries(values)) {
        const field = page.locator(`[name="${name}"]`).first();
        const tag = await field.evaluate((e: { tagName: string; type?: string }) => `${e.tagName}:${e.type ?? ''}`);
        if (tag.startsWith('SELECT')) await field.selectOption(value);
        else if (tag.endsWith(':radio')) await page.locator(`[name="${name}"][value="${value}"]`).check();
        else await field.fill(value);
      }
    };
    await fill({
      denominazione: 'Alfa Digitale S.r.l.', forma_giuridica: 'srl', data_costituzione: '2016-04-20', codice_fiscale: '09876543210', partita_iva: '09876543210',
      paese_costituzione: 'IT', email_pec: 'alfadigitale@pec.example', attivita: 'Sviluppo di software gestionale',
      'sede.via': 'Via Dante 7', 'sede.cap': '20121', 'sede.citta': 'Milano', 'sede.provincia': 'MI', 'sede.paese': 'IT',
      'legale_rappresentante.nome': 'Carla', 'legale_rappresentante.data_nascita': '1975-11-03', 'legale_rappresentante.nazionalita': 'IT',
      'legale_rappresentante.documento.tipo': 'passaporto', 'legale_rappresentante.documento.numero': 'YA1234567',
      'legale_rappresentante.documento.rilasciato_da': 'Questura di Milano', 'legale_rappresentante.documento.scadenza': future,
      'legale_rappresentante.pep': 'false',
    });
    await next(page);
    await page.locator('#riepilogo-errori').waitFor();
    assert.equal(await page.locator('#f-denominazione').inputValue(), 'Alfa Digitale S.r.l.', 'what was typed is kept');
    assert.ok(await page.locator('#riepilogo-errori a[href="#f-legale_rappresentante-cognome"]').count(), 'the summary links to the missing field');
    await screenshot(page, 'onb-02-dati-errori');
    await accessible(page, 'step 1 with errors');
    await fill({ 'legale_rappresentante.cognome': 'Ferri' });
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/2$/);

    // 4. Two beneficial owners, one a PEP; htmx adds a third row in place (left blank, it is dropped).
    await page.getByRole('button', { name: 'Aggiungi un titolare' }).click();
    await page.locator('[name="titolari.2.nome"]').waitFor();
    await fill({
      'titolari.0.nome': 'Anna', 'titolari.0.cognome': 'Neri', 'titolari.0.data_nascita': '1970-02-14', 'titolari.0.luogo_nascita': 'Bergamo',
      'titolari.0.nazionalita': 'IT', 'titolari.0.paese_residenza': 'IT', 'titolari.0.percentuale': '60', 'titolari.0.tipo_controllo': 'proprieta_diretta', 'titolari.0.pep': 'false',
      'titolari.1.nome': 'Bruno', 'titolari.1.cognome': 'Gialli', 'titolari.1.data_nascita': '1962-07-01', 'titolari.1.nazionalita': 'IT',
      'titolari.1.paese_residenza': 'CH', 'titolari.1.percentuale': '40', 'titolari.1.tipo_controllo': 'proprieta_diretta', 'titolari.1.pep': 'true',
      'titolari.1.pep_dettaglio': 'Assessore regionale al bilancio fino al 2025',
    });
    await screenshot(page, 'onb-03-titolari');
    await accessible(page, 'step 2');
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/3$/);

    // 5. Identity documents of the legal representative and of both owners (htmx swaps the list after each upload).
    const upload = async (tipo: string, riferimento: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
      const before = await page.locator('tr[data-documento]').count();
      await page.locator('#f-tipo').selectOption(tipo);
      await page.locator('#f-riferimento').selectOption({ label: riferimento });
      await page.locator('#f-file').setInputFiles(file);
      await page.getByRole('button', { name: 'Carica il documento' }).click();
      await page.locator('tr[data-documento]').nth(before).waitFor();
    };
    await upload('documento_identita', 'Legale rappresentante / società', pdf('passaporto-ferri.pdf'));
    await upload('documento_identita', 'Titolare effettivo: Anna Neri', png('carta-neri.png'));
    await upload('documento_identita', 'Titolare effettivo: Bruno Gialli', pdf('carta-gialli.pdf'));
    assert.equal(await page.locator('[data-caricato="no"]').count(), 0, 'every identity document required is ticked');
    await screenshot(page, 'onb-04-documenti-identita');
    await accessible(page, 'step 3');
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/4$/);
    await upload('visura_camerale', 'Legale rappresentante / società', pdf('visura.pdf'));
    await upload('atto_costitutivo', 'Legale rappresentante / società', pdf('atto-costitutivo.pdf'));
    assert.equal(await page.locator('[data-caricato="no"]').count(), 0);
    await accessible(page, 'step 4');
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/5$/);

    // 6. Due diligence questionnaire: every question answered.
    for (const s of await page.locator('select[name^="risposte."]').all()) await s.selectOption({ index: 1 });
    for (const r of await page.locator('input[type="radio"][name^="risposte."][value="false"]').all()) await r.check();
    for (const t of await page.locator('textarea[name^="risposte."]').all()) await t.fill('Ricavi della vendita di licenze software a clienti italiani');
    for (const i of await page.locator('input[type="text"][name^="risposte."]').all()) await i.fill('40');
    await accessible(page, 'step 5');
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/6$/);

    // 7. Countries of operation.
    await fill({ 'paesi.0.paese': 'IT', 'paesi.0.ruolo': 'sede_operativa', 'paesi.1.paese': 'DE', 'paesi.1.ruolo': 'clienti' });
    await accessible(page, 'step 6');
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/7$/);

    // 8. A self-hosted Ethereum wallet proved with a real EIP-191 signature of the message the page shows.
    await fill({ rete: 'ETH', indirizzo: ethAddress, tipo: 'self_hosted', volume_annuo_eur: '25000', 'prova.metodo': 'firma_messaggio' });
    await page.getByRole('button', { name: 'Prepara il messaggio da firmare' }).click();
    const message = (await page.locator('#messaggio-da-firmare').textContent())!;
    assert.ok(message.includes(ethAddress), message);
    assert.equal(await page.locator('[name="volume_annuo_eur"]').inputValue(), '25000', 'the form keeps what was typed');
    await page.locator('[name="prova.firma"]').fill(ethSign(key, message));
    await page.getByRole('button', { name: 'Aggiungi il wallet' }).click();
    await page.locator('td[data-prova="firma_messaggio"]').waitFor();
    assert.match((await page.locator('td[data-prova="firma_messaggio"]').textContent())!, /firma verificata/);
    await screenshot(page, 'onb-05-wallet');
    await accessible(page, 'step 7');

    // 9. The travel-rule declaration, signed through the e-sign ceremony, then completed on step 7.
    await page.locator('#f-titolare_wallet').check();
    await page.locator('#f-fondi_leciti').check();
    await page.locator('#f-aggiornamento').check();
    await page.locator('#f-luogo').fill('Milano');
    await page.getByRole('button', { name: 'Firma la dichiarazione' }).click();
    await signCeremony(page, 'onb-06-firma-travel-rule');
    for (let i = 0; i < 50 && !(await page.getByText('Hai firmato la dichiarazione sui wallet').count()); i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    await page.getByRole('link', { name: 'Continua la compilazione' }).click();
    await page.waitForURL(/\/onboarding\/step\/7$/);
    await page.getByRole('button', { name: 'Completa' }).click();
    await page.locator('[data-travel-rule="completed"]').waitFor();
    await next(page);
    await page.waitForURL(/\/onboarding\/step\/8$/);

    // 10. Summary, submission and the declarations' signature.
    assert.match(await page.getByRole('status').first().textContent() ?? '', /completa e pronta/);
    await screenshot(page, 'onb-07-riepilogo');
    await accessible(page, 'summary');
    await page.getByRole('button', { name: /Invia la richiesta/ }).click();
    await signCeremony(page, 'onb-08-firma-dichiarazioni');
    await page.locator('[data-stato="in_review"]').waitFor({ timeout: 30_000 });
    await accessible(page, 'status page');
    assert.ok(await page.locator('[data-conservazione]').count(), 'after submission erasure gives way to the retention explanation');
    await page.getByRole('link', { name: 'Vai alla conferma di invio' }).click();
    await page.getByRole('heading', { name: 'Richiesta ricevuta' }).waitFor();
    await screenshot(page, 'onb-09-completato');
    await accessible(page, 'completion page');
    const caseId = (await page.locator('dd code').first().textContent())!.trim();
    await ctx.close();

    // 11. The analyst verifies the wallet and approves: a PEP owner means a second approval.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const pageA = await ctxA.newPage();
    await signInWithTotp(pageA, env.baseUrl, analyst);
    const detail = `${env.baseUrl}/admin/onboarding/cases/${caseId}`;
    await pageA.goto(detail);
    assert.ok(await pageA.locator('[data-four-eyes]').count(), 'the case asks for two approvals');
    // The process section: the whole machine at its natural size, the reviewer's possible steps marked.
    const processo = pageA.locator('details#processo');
    assert.equal(await processo.locator('[data-current-state]').getAttribute('data-current-state'), 'in_review');
    const possible = await processo.locator('[data-possible-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-possible-action')));
    for (const a of ['approve', 'reject', 'request-info']) assert.ok(possible.includes(a), `${a} is listed as possible now`);
    const drawing = await processo.locator('svg').first().evaluate((el) => ({
      drawn: el.getBoundingClientRect().width, natural: Number(el.getAttribute('width')), allowed: el.querySelectorAll('g.edge.allowed').length,
      minFont: Math.min(...[...el.querySelectorAll('text')].map((t) => t.getBoundingClientRect().height)),
    }));
    assert.ok(Math.abs(drawing.drawn - drawing.natural) < 1 && drawing.minFont >= 13, JSON.stringify(drawing));
    assert.ok(drawing.allowed >= 3, JSON.stringify(drawing));
    for (const a of ['approve', 'reject', 'request-info']) assert.equal(await processo.locator(`[id="edge-in_review-${a}"]`).getAttribute('class'), 'edge allowed', a);
    await screenshot(pageA, 'onb-10a-diagramma');
    await processo.screenshot({ path: join(artifactsDir, 'onb-10b-sezione-processo.png') });
    await pageA.locator('form[action$="/verifica"] button[type=submit]').first().click();
    await pageA.waitForURL(detail);
    await pageA.locator('#form-approva button[type=submit]').click();
    await pageA.waitForURL(detail);
    assert.equal(await pageA.locator('[data-status]').first().getAttribute('data-status'), 'pending_second_approval');
    assert.equal(await pageA.locator('#form-completa-approvazione').count(), 0, 'the first approver cannot confirm her own approval');
    await screenshot(pageA, 'onb-10-prima-approvazione');
    await ctxA.close();

    // 12. A compliance officer, a different person, completes the approval: the customer is created.
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const pageB = await ctxB.newPage();
    await signInWithTotp(pageB, env.baseUrl, co);
    await pageB.goto(detail);
    await pageB.locator('#form-completa-approvazione button[type=submit]').click();
    await pageB.waitForURL(detail);
    assert.equal(await pageB.locator('[data-status]').first().getAttribute('data-status'), 'approved');
    await screenshot(pageB, 'onb-11-approvata');
    await ctxB.close();

    const customer = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, onboarding_case_id: caseId, tipo_soggetto: 'societa' }).first();
    assert.ok(customer, 'the approval created the customer record');
    assert.equal(customer.denominazione, 'Alfa Digitale S.r.l.');
    const owners = await env.ownerDb('legami').where({ cod_azienda: tenant, cod_anagrafe_da: customer.cod_anagrafe, tipo: 'titolare_effettivo' });
    assert.equal(owners.length, 2);
  });
});
