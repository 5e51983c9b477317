import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';

describe('browser: an EDD case for a PEP, approved by a second compliance officer', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('opens the case with the proposed measures, completes them, submits, is refused to the submitter and approved by another officer', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.createUser({ tenant, roles: ['co'] });
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Verdi', nome: 'Giulia', cognome: 'Verdi',
      pep: true, classe_rischio: 'medio_alto', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });

    // 1. The analyst finds the EDD area in the navigation and opens a case for the customer.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctxA.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.getByRole('link', { name: 'Verifica rafforzata' }).first().click();
    await page.waitForURL(/\/edd$/);
    await expectAccessible(page, 'EDD list');
    await page.getByRole('link', { name: 'Nuova verifica rafforzata' }).click();
    await page.getByLabel('Codice anagrafe del cliente').fill('ANA-000001');
    await page.getByRole('button', { name: 'Carica il cliente' }).click();
    await page.waitForSelector('[data-customer]');
    assert.equal(await page.locator('input[name="motivi"][value="pep"]').isChecked(), true, 'a PEP: the reason is proposed');
    const proposed = await page.locator('input[name="misure"]:checked').evaluateAll((els) => els.map((e) => e.getAttribute('value')));
    assert.deepEqual(proposed, ['origine_fondi', 'origine_patrimonio', 'approvazione_alta_direzione', 'monitoraggio_rafforzato'], 'art. 25 c. 4 measures for a PEP');
    await screenshot(page, 'edd-01-nuova');
    await expectAccessible(page, 'new EDD form');
    await page.getByLabel('Note di apertura (facoltative)').fill('Consigliere regionale dal 2021.');
    await page.getByRole('button', { name: 'Apri la verifica rafforzata' }).click();
    await page.waitForURL(/\/edd\/[0-9a-f-]{36}$/);
    const detailUrl = page.url();
    assert.match(await page.locator('.alert').first().innerText(), /Verifica rafforzata aperta/);

    // 2. An outcome note is required; then every measure is completed and a custom one added.
    const first = page.locator('[data-step-stato="aperto"]').first();
    await first.getByRole('button', { name: 'Completa la misura' }).click();
    await page.waitForSelector('.invalid-feedback');
    assert.match(await page.locator('.invalid-feedback').first().innerText(), /Scrivi l'esito della misura/);
    await screenshot(page, 'edd-02-esito-mancante');
    await page.getByLabel('Tipo di misura').selectOption('altro');
    await page.getByLabel('Titolo').fill('Visura sulle società partecipate');
    await page.getByLabel('Scadenza (facoltativa)').fill('2027-01-31');
    await page.getByRole('button', { name: 'Aggiungi la misura' }).click();
    await page.waitForURL(detailUrl);
    assert.equal(await page.locator('[data-step]').count(), 5);
    assert.match(await page.locator('[data-step]').last().innerText(), /Scadenza: 31\/01\/2027/);
    assert.match(await page.locator('[data-steps-open]').innerText(), /completa le misure ancora aperte \(5\)/);
    for (let i = 0; i < 5; i++) {
      const step = page.locator('[data-step-stato="aperto"]').first();
      await step.getByLabel('Esito della misura').fill(`Esito documentato ${i + 1}`);
      await step.getByLabel("Riferimento dell'evidenza (facoltativo)").fill(`FASC-${i + 1}`);
      await step.getByRole('button', { name: 'Completa la misura' }).click();
      await page.waitForURL(detailUrl);
    }
    assert.equal(await page.locator('[data-step-stato="completato"]').count(), 5);
    await screenshot(page, 'edd-03-misure-completate');
    await expectAccessible(page, 'EDD detail with completed measures');
    await page.getByRole('button', { name: 'Invia in approvazione' }).click();
    await page.waitForURL(detailUrl);
    assert.match(await page.locator('[data-four-eyes]').innerText(), /diverso da chi ha inviato/);
    await ctxA.close();

    // 3. A compliance officer (not the submitter) approves it, then closes it.
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const pageB = await ctxB.newPage();
    await signInWithTotp(pageB, env.baseUrl, co);
    await pageB.goto(`${env.baseUrl}/edd?stato=pending_supervisor`);
    await pageB.getByRole('link', { name: /EDD-\d{6}/ }).first().click();
    await pageB.waitForURL(detailUrl);
    await screenshot(pageB, 'edd-04-in-approvazione');
    await expectAccessible(pageB, 'EDD pending supervisor approval');
    await pageB.locator('#conferma-approva-supervisore summary').click();
    await pageB.locator('#conferma-approva-supervisore [data-confirm-submit]').click();
    await pageB.waitForURL(detailUrl);
    assert.match(await pageB.locator('.alert').first().innerText(), /approvata/);
    assert.equal(await pageB.locator('[data-status="approved"]').count() > 0, true);
    await pageB.getByLabel('Nota di chiusura (facoltativa)').fill('Monitoraggio rafforzato attivo.');
    await pageB.getByRole('button', { name: 'Chiudi la verifica' }).click();
    await pageB.waitForURL(detailUrl);
    assert.match(await pageB.locator('.timeline, [data-timeline], ul').filter({ hasText: 'Verifica rafforzata approvata (quattro occhi)' }).first().innerText(), /quattro occhi/);
    await screenshot(pageB, 'edd-05-chiusa');
    await ctxB.close();

    const row = await env.ownerDb('edd_casi').where({ cod_azienda: tenant }).first();
    assert.equal(row.stato, 'closed');
    assert.equal(row.submitted_by, analyst.cod_utente);
    assert.equal(row.approved_by, co.cod_utente);
  });
});
