import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { seedReportingMonth } from '../helpers/reporting-fixture';

/**
 * A comunicazione oggettiva from a month of movements to its accepted submission, in Chromium,
 * with two people: the analyst generates it and reads the operations behind a line; a compliance
 * officer (not the generator: four-eyes) approves it, records the submission and its outcome.
 */
describe('browser: a comunicazione oggettiva generated, approved by a second user, sent and accepted', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let browser: Browser;
  before(async () => { env = await getTestEnv(); browser = await launchBrowser(); });
  after(async () => { await browser?.close(); });

  const stato = (page: Page) => page.locator('[data-stato]').first().getAttribute('data-stato');

  it('walks the journey', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.createUser({ tenant, roles: ['co'] });
    await seedReportingMonth(env, tenant, await env.login(analyst), '2025-03', 'journey');

    // 1. The analyst asks for March 2025; the page follows the generation until it is done.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const a = await ctxA.newPage();
    await signInWithTotp(a, env.baseUrl, analyst);
    await a.goto(`${env.baseUrl}/reporting/genera`);
    await a.getByLabel('Tipo di segnalazione').selectOption('comunicazione_oggettiva');
    await a.getByLabel('Mese (o primo mese)').fill('2025-03');
    await a.locator('button[data-action="genera"]').click();
    await a.waitForURL(/\/reporting\/[0-9a-f-]{36}$/);
    const id = new URL(a.url()).pathname.split('/').pop()!;
    // The page follows the generation (htmx) until the lines are there.
    await a.locator('[data-stato="generated"]').waitFor({ timeout: 30_000 });
    assert.equal(await a.locator('[data-righe]').textContent(), '4');
    // The operations behind the executor's line: six deposits ANA-R2 made on ANA-R1's relationship.
    await a.locator('details[data-operations="3"] summary').click();
    assert.equal(await a.locator('details[data-operations="3"] [data-movimento]').count(), 6);
    assert.equal(await a.locator('button[data-action="approve"]').count(), 0, 'the generator cannot approve');
    await screenshot(a, 'reporting-01-generata');
    assert.deepEqual(await seriousA11yViolations(a), [], 'detail generated');

    // 2. The compliance officer approves, records the submission and its accepted outcome.
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const b = await ctxB.newPage();
    await signInWithTotp(b, env.baseUrl, co);
    await b.goto(`${env.baseUrl}/reporting/${id}`);
    await b.locator('button[data-action="approve"]').click();
    await b.waitForLoadState('load');
    assert.equal(await stato(b), 'approved');
    await b.getByLabel(/Riferimento dell'invio/).fill('INFOSTAT-2025-03-001');
    await b.locator('button[data-action="submit"]').click();
    await b.waitForLoadState('load');
    assert.equal(await stato(b), 'submitted');
    await b.locator('#form-esito select[name="esito"]').selectOption('accettata');
    await b.getByLabel(/Protocollo della UIF/).fill('UIF-PROT-42');
    await b.locator('button[data-action="complete-submission"]').click();
    await b.waitForLoadState('load');
    assert.equal(await stato(b), 'completed');
    assert.equal(await b.locator('[data-submission][data-esito="accettata"]').count(), 1);
    await screenshot(b, 'reporting-02-completata');
    assert.deepEqual(await seriousA11yViolations(b), [], 'detail completed');
    await ctxA.close();
    await ctxB.close();
  });
});
