import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The state section of the task: the current state and the actions this user may take now. */
async function expectState(page: Page, state: string, actions: string[]) {
  const section = page.locator('details#processo');
  assert.equal(await section.locator('[data-current-state]').getAttribute('data-current-state'), state);
  assert.deepEqual((await section.locator('[data-possible-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-possible-action')))).sort(), [...actions].sort());
  assert.equal(await section.locator(`.state-diagram-scroll svg #state-${state}`).getAttribute('class'), 'node current');
}

async function noSeriousViolations(page: Page, what: string) {
  assert.deepEqual(await seriousA11yViolations(page), [], `${what} has no serious accessibility violation`);
}

describe('browser: a CDD from /cdd/nuovo to completed, with its questionnaire, reviewed by a second person', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('runs the whole journey in Chromium', async () => {
    const tenant = await env.createTenant();
    const [analyst, co] = await Promise.all([env.createUser({ tenant, roles: ['analyst'] }), env.createUser({ tenant, roles: ['co'] })]);
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-000042', tipo_soggetto: 'persona_fisica', nome: 'Giulia', cognome: 'Marchetti', denominazione: 'Giulia Marchetti',
      codice_fiscale: 'MRCGLI85M41H501Z', nazionalita: 'IT', paese_residenza: 'IT', classe_rischio: 'medio', pep: false, created_by: 'test',
    });

    // 1. The operator finds the customer by name and starts the CDD.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctxA.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.goto(`${env.baseUrl}/cdd`);
    await page.getByRole('link', { name: 'Nuova verifica' }).click();
    await page.getByLabel('Nome, codice fiscale, partita IVA o codice anagrafe').fill('Marchetti');
    await page.locator('#form-cerca button[type=submit]').click();
    await page.locator('[data-choose="ANA-000042"]').click();
    assert.equal(await page.locator('#f-cod_anagrafe').inputValue(), 'ANA-000042');
    assert.match(await page.locator('[data-chosen]').textContent() ?? '', /Giulia Marchetti/);
    await screenshot(page, 'cdd-01-nuova');
    await noSeriousViolations(page, 'the new-task form');
    await page.locator('[data-initiate]').click();
    await page.waitForURL(/\/cdd\/[0-9a-f-]{36}$/);
    const taskUrl = page.url();
    await expectState(page, 'open', ['start', 'add-note', 'abstain']);
    assert.match(await page.locator('[data-level-reasons]').textContent() ?? '', /\S/, 'the level comes with its reasons');
    await screenshot(page, 'cdd-02-aperta');
    await noSeriousViolations(page, 'the open task');

    // 2. She starts it and fills in the questionnaire; a wrong answer comes back next to its question.
    await page.locator('[data-action="start"]').click();
    await page.waitForURL(/\/esegui$/);
    const q = page.locator('#form-questionario');
    await q.locator('[name="q_scopo_rapporto"]').selectOption('investimento');
    await q.locator('[name="q_natura_rapporto"]').selectOption('continuativo');
    await q.locator('[name="q_origine_fondi"]').selectOption('reddito_lavoro');
    await q.locator('[name="q_origine_fondi_dettaglio"]').fill('Stipendio da insegnante di scuola secondaria');
    await q.locator('[name="q_origine_patrimonio"]').selectOption('lavoro');
    await q.locator('[name="q_volume_annuo"]').selectOption('10k_50k');
    await q.locator('[name="q_operazioni_mensili"]').fill('tante');
    await q.locator('#f-q_contanti-no').check();
    await q.locator('[name="q_paesi_operativita"]').fill('IT, ES');
    await q.locator('#f-q_pep-no').check();
    await q.locator('[name="q_professione"]').fill('Insegnante');
    await page.locator('[data-submit-review]').click();
    await page.waitForSelector('#riepilogo-errori');
    assert.match(await page.locator('#f-q_operazioni_mensili-err').textContent() ?? '', /numero/);
    assert.equal(await q.locator('[name="q_professione"]').inputValue(), 'Insegnante', 'the answers typed are kept');
    await screenshot(page, 'cdd-03-questionario-errore');
    await noSeriousViolations(page, 'the questionnaire with an error');
    await q.locator('[name="q_operazioni_mensili"]').fill('6');
    await page.locator('[data-submit-review]').click();
    await page.waitForURL(taskUrl);
    assert.match(await page.locator('.alert-success').textContent() ?? '', /inviata in revisione/);
    // She may take it back (send-back) but not complete it: four eyes.
    await expectState(page, 'pending_review', ['add-note', 'abstain', 'send-back']);
    assert.match(await page.locator('[data-waiting-review]').textContent() ?? '', /utente diverso/);
    await screenshot(page, 'cdd-04-in-revisione');
    await ctxA.close();

    // 3. The compliance officer reviews it on the workbench and completes it.
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const pageB = await ctxB.newPage();
    await signInWithTotp(pageB, env.baseUrl, co);
    await pageB.goto(`${env.baseUrl}/cdd?stato=pending_review`);
    await screenshot(pageB, 'cdd-05-elenco');
    await noSeriousViolations(pageB, 'the CDD list');
    await pageB.goto(taskUrl);
    await pageB.locator('[data-review]').click();
    await pageB.waitForURL(/\/cdd\/review\/CDD-\d{6}$/);
    assert.equal(await pageB.locator('[data-answer="paesi_operativita"]').textContent(), 'IT, ES');
    assert.equal(await pageB.locator('[data-answer="pep"]').textContent(), 'No');
    await screenshot(pageB, 'cdd-06-revisione');
    await noSeriousViolations(pageB, 'the review workbench');
    await pageB.locator('#f-decisione-completa').check();
    await pageB.locator('[data-decide]').click();
    await pageB.waitForURL(taskUrl);
    await expectState(pageB, 'completed', []);
    assert.ok(await pageB.locator('[data-next-review]').count() > 0, 'the next periodic review is scheduled');
    assert.ok(await pageB.locator('a[data-workflow-id^="cdd-task:"]').count() > 0, 'links to the workflow in the Temporal Web UI');
    await screenshot(pageB, 'cdd-07-completata');
    await noSeriousViolations(pageB, 'the completed task');
    await pageB.getByRole('link', { name: 'Storico delle verifiche del cliente' }).click();
    await screenshot(pageB, 'cdd-08-storico');
    await pageB.goto(`${env.baseUrl}/cdd/overview`);
    await pageB.waitForSelector('#grafico-cdd-stato[data-chart-ready]');
    await screenshot(pageB, 'cdd-09-panoramica');
    await noSeriousViolations(pageB, 'the overview');
    await ctxB.close();
  });
});
