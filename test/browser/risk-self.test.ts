import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';

describe('browser: the yearly self-assessment, drafted by one compliance officer and approved by another', function () {
  this.timeout(600_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('creates the exercise, fills the lines (a reason when the inherent risk differs), submits, is refused to the author and approved by another officer', async () => {
    const tenant = await env.createTenant();
    const [co1, co2] = await Promise.all([env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['co'] })]);
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Verdi', pep: true, classe_rischio: 'alto',
      nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });
    await env.ownerDb('rapporti').insert({ cod_azienda: tenant, cod_rapporto: 'RAP-1', cod_anagrafe: 'ANA-000001', tipo: 'conto_corrente', stato: 'attivo', data_apertura: '2024-01-10', created_by: 'test' });

    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctxA.newPage();
    await signInWithTotp(page, env.baseUrl, co1);
    await page.getByRole('link', { name: 'Autovalutazione' }).first().click();
    await page.waitForURL(/\/rischio\/autovalutazione$/);
    await page.getByLabel('Nuova autovalutazione per l\'anno').fill('2026');
    await page.getByRole('button', { name: 'Crea l\'autovalutazione' }).click();
    await page.waitForURL(/anno=2026/);
    assert.match(await page.locator('.alert').first().innerText(), /Autovalutazione 2026 creata/);
    await screenshot(page, 'risk-self-01-bozza');
    await expectAccessible(page, 'draft self-assessment');

    // One line: an inherent risk lower than the suggestion needs a reason; the typed values stay.
    const conti = page.locator('[data-form-linea="conti_pagamenti"]');
    const suggested = Number(await page.locator('tr[data-linea="conti_pagamenti"] [data-suggerito]').getAttribute('data-suggerito'));
    const lower = suggested > 1 ? suggested - 1 : 2;
    await conti.getByLabel('Rischio inerente', { exact: true }).selectOption(String(lower));
    await conti.getByLabel('Vulnerabilità dei presidi').selectOption('2');
    await conti.getByLabel('Peso della linea (%)').fill('55');
    await conti.getByRole('button', { name: 'Salva la linea' }).click();
    await page.waitForSelector('#f-motivazione_inerente-err');
    assert.match(await page.locator('#f-motivazione_inerente-err').innerText(), /Spiega perché/);
    assert.equal(await page.locator('[data-form-linea="conti_pagamenti"] input[name="peso"]').inputValue(), '55');
    await screenshot(page, 'risk-self-02-motivazione-mancante');
    await page.locator('[data-form-linea="conti_pagamenti"]').getByLabel(/Motivazione del rischio inerente/).fill('Clientela stabile, un solo PEP noto da anni');
    await page.locator('[data-form-linea="conti_pagamenti"]').getByRole('button', { name: 'Salva la linea' }).click();
    await page.waitForURL(/anno=2026/);
    assert.match(await page.locator('tr[data-linea="conti_pagamenti"] [data-residuo]').innerText(), /Basso|Medio|Medio-alto|Alto/);

    // The other lines with their suggestions, then submit.
    for (const codice of ['cripto_attivita', 'credito_altro']) {
      await page.locator(`[data-form-linea="${codice}"]`).getByRole('button', { name: 'Salva la linea' }).click();
      await page.waitForURL(/anno=2026/);
    }
    await page.getByLabel('Note per chi approva (facoltative)').fill('Per il Consiglio di dicembre');
    await page.getByRole('button', { name: 'Invia in approvazione' }).click();
    await page.waitForURL(/anno=2026/);
    assert.match(await page.locator('[data-four-eyes]').innerText(), /quattro occhi/);
    assert.equal(await page.locator('[data-action="approva"]').count(), 0, 'the author has no approve button');
    await screenshot(page, 'risk-self-03-inviata');
    await ctxA.close();

    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const pageB = await ctxB.newPage();
    await signInWithTotp(pageB, env.baseUrl, co2);
    await pageB.goto(`${env.baseUrl}/rischio/autovalutazione?anno=2026`);
    await pageB.getByText('Approva…').click();
    await pageB.getByRole('button', { name: 'Approva e congela' }).click();
    await pageB.waitForURL(/anno=2026/);
    assert.equal(await pageB.locator('#esercizio').getAttribute('data-stato'), 'approvata');
    assert.equal(await pageB.locator('[data-form-linea]').count(), 0, 'no edit form on a frozen exercise');
    await screenshot(pageB, 'risk-self-04-approvata');
    await expectAccessible(pageB, 'approved self-assessment');
    await pageB.goto(`${env.baseUrl}/rischio/residuo?anno=2026`);
    assert.equal(await pageB.locator('[data-matrice] [data-linea]').count(), 3);
    await screenshot(pageB, 'risk-self-05-residuo');
    await expectAccessible(pageB, 'residual matrix');
    for (const [path, name] of [['/rischio/controlli', 'controlli'], ['/rischio/raf', 'raf'], ['/rischio/kri', 'kri'], ['/rischio/decisioni', 'decisioni']] as const) {
      await pageB.goto(`${env.baseUrl}${path}`);
      await screenshot(pageB, `risk-self-06-${name}`);
      await expectAccessible(pageB, name);
    }
    await ctxB.close();
  });
});
