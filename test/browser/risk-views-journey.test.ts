import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';

/**
 * An assessment's class overridden by an analyst and confirmed by a compliance officer (four
 * eyes: the officer cannot confirm an override of their own), then the matrix and the heatmap
 * with the scored customers.
 */
describe('browser: a risk class override confirmed by a second person, the matrix and the heatmap', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('overrides as an analyst, confirms as a co; the co cannot confirm their own; matrix and heatmap show the customers', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.createUser({ tenant, roles: ['co'] });
    await env.ownerDb('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'societa', denominazione: 'Alpen Handel GmbH', nazionalita: 'DE', paese_residenza: 'DE', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-000002', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Verdi', nome: 'Giulia', cognome: 'Verdi', pep: true, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
    ]);
    const analystApi = await env.login(analyst);
    const first = await analystApi.post('/api/risk/calculate/ANA-000001', {});
    assert.equal(first.status, 201, first.text);
    const second = await analystApi.post('/api/risk/calculate/ANA-000002', {});
    assert.equal(second.status, 201, second.text);
    const cod1 = first.body.cod_valutazione as string;
    const cod2 = second.body.cod_valutazione as string;
    const target = first.body.classe_calcolata === 'alto' ? 'medio_alto' : 'alto';

    // 1. The analyst opens the assessment, sees the explanation and proposes another class; a missing reason is refused next to the field.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctxA.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.goto(`${env.baseUrl}/rischio/${cod1}`);
    await page.waitForSelector('#grafico-contributi[data-chart-ready]');
    await screenshot(page, 'risk-views-01-valutazione');
    await expectAccessible(page, 'assessment page');
    await page.getByLabel('Nuova classe').selectOption(target);
    await page.getByRole('button', { name: 'Proponi la modifica' }).click();
    await page.waitForSelector('#f-motivo-err');
    await page.getByLabel('Motivo').fill('Controparti in paesi ad alto rischio non ancora censite dalle regole');
    await page.getByRole('button', { name: 'Proponi la modifica' }).click();
    await page.waitForURL(new RegExp(`/rischio/${cod1}$`));
    assert.match(await page.locator('.alert').first().innerText(), /Modifica della classe registrata/);
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'override_pending');
    assert.equal(await page.locator('[data-action="complete-override"]').count(), 0, 'an analyst cannot confirm');

    // 2. The compliance officer finds it in the approvals and confirms it.
    const ctxC = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const coPage = await ctxC.newPage();
    await signInWithTotp(coPage, env.baseUrl, co);
    await coPage.goto(`${env.baseUrl}/rischio/approvazioni`);
    await screenshot(coPage, 'risk-views-02-approvazioni');
    await expectAccessible(coPage, 'approvals');
    await coPage.locator(`[data-assessment="${cod1}"] [data-action="complete-override"]`).click();
    await coPage.waitForURL(new RegExp(`/rischio/${cod1}$`));
    assert.match(await coPage.locator('.alert').first().innerText(), /Modifica della classe confermata/);
    // Confirmed: the process releases the new class at once when it raises the class (part ASSESS's release policy).
    assert.ok(['overridden', 'released'].includes((await coPage.locator('[data-current-state]').getAttribute('data-current-state'))!));
    const confirmed = await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenant, cod_valutazione: cod1 }).first();
    assert.equal(confirmed.override_confirmed_by, co.cod_utente);
    assert.equal(confirmed.override_by, analyst.cod_utente);

    // 3. The officer proposes an override of their own: the confirmation is refused with the four-eyes message.
    await coPage.goto(`${env.baseUrl}/rischio/${cod2}`);
    await coPage.getByLabel('Nuova classe').selectOption('alto');
    await coPage.getByLabel('Motivo').fill('Incarico pubblico di rilievo nazionale');
    await coPage.getByRole('button', { name: 'Proponi la modifica' }).click();
    await coPage.waitForURL(new RegExp(`/rischio/${cod2}$`));
    assert.ok(await coPage.locator('[data-four-eyes-note]').isVisible());
    await coPage.locator('[data-action="complete-override"]').click();
    await coPage.waitForSelector('[data-refusal]');
    assert.match(await coPage.locator('[data-refusal]').innerText(), /diverso da chi l'ha proposta/);
    await screenshot(coPage, 'risk-views-03-quattro-occhi');
    const row = await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenant, cod_valutazione: cod2 }).first();
    assert.equal(row.stato, 'override_pending');

    // 4. The matrix and the heatmap count the two scored customers.
    await coPage.goto(`${env.baseUrl}/rischio/matrice`);
    const counts = await coPage.locator('[data-cell] .h2').allInnerTexts();
    assert.equal(counts.map(Number).reduce((s, n) => s + n, 0), 2);
    await screenshot(coPage, 'risk-views-04-matrice');
    await expectAccessible(coPage, 'matrix');
    await coPage.goto(`${env.baseUrl}/rischio/heatmap`);
    await coPage.waitForSelector('#heatmap-segmento-classe[data-chart-ready]');
    await screenshot(coPage, 'risk-views-05-heatmap');
    await expectAccessible(coPage, 'heatmap');
    await coPage.goto(`${env.baseUrl}/rischio/portfolio`);
    await coPage.waitForSelector('#grafico-portafoglio-mesi[data-chart-ready]');
    await screenshot(coPage, 'risk-views-06-portafoglio');
    await coPage.goto(`${env.baseUrl}/rischio`);
    await screenshot(coPage, 'risk-views-07-panoramica');
    await expectAccessible(coPage, 'overview');
    await ctxA.close();
    await ctxC.close();
  });
});
