import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import { launchBrowser, screenshot, seriousA11yViolations } from '../helpers/browser';
import { nextTotpCode } from '../helpers/totp';

async function signIn(page: Page, env: TestEnv, user: Pick<TestUser, 'username' | 'password'>) {
  await page.goto(`${env.baseUrl}/login`);
  await page.getByLabel('Nome utente').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.locator('form button[type=submit]').click();
}

async function fillTotp(page: Page, code: string) {
  await page.locator('form input[name="code"]').fill(code);
  await page.locator('form button[type=submit]').click();
}

describe('browser: sign in, enrol TOTP, open and close a case with four eyes', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('serves an accessible sign-in page', async () => {
    const ctx = await browser.newContext({ locale: 'it-IT' });
    const page = await ctx.newPage();
    await page.goto(`${env.baseUrl}/login`);
    await screenshot(page, '00-login');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await ctx.close();
  });

  it('walks the whole journey in Chromium', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'], totp: false });
    const co = await env.createUser({ tenant, roles: ['co'] });

    // 1. The analyst signs in for the first time and enrols an authenticator app.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctxA.newPage();
    await signIn(page, env, analyst);
    await page.waitForURL(/\/totp\/setup/);
    await screenshot(page, '01-totp-setup');
    assert.deepEqual(await seriousA11yViolations(page), [], 'TOTP enrolment page has no serious accessibility violation');
    const secretText = (await page.locator('[data-totp-secret]').first().getAttribute('data-totp-secret')) ?? '';
    assert.match(secretText, /^[A-Z2-7]{16,}$/);
    const code = new TOTP({ secret: Secret.fromBase32(secretText), digits: 6, period: 30 }).generate();
    await fillTotp(page, code);
    await page.waitForURL((u) => !u.pathname.startsWith('/totp'));
    await screenshot(page, '02-home');

    // 2. She opens a case through the form.
    await page.goto(`${env.baseUrl}/casi/nuovo`);
    await page.locator('[name="titolo"]').fill('Bonifici frazionati verso exchange non registrato');
    await page.locator('[name="descrizione"]').fill('Dodici bonifici sotto soglia in tre giorni verso lo stesso beneficiario.');
    await page.locator('[name="tipo"]').selectOption({ index: 1 });
    await page.locator('[name="priorita"]').selectOption('alta');
    await page.locator('form[action="/casi/nuovo"] button[type=submit]').click();
    await page.waitForURL(/\/casi\/[0-9a-f-]{36}$/);
    const caseUrl = page.url();
    await screenshot(page, '03-case-open');
    assert.deepEqual(await seriousA11yViolations(page), [], 'case page has no serious accessibility violation');
    assert.match(await page.locator('[data-status]').first().getAttribute('data-status') ?? '', /^open$/);

    // 3. She closes it with an outcome and a reason.
    const closeForm = page.locator('form[action$="/chiudi"]');
    await closeForm.locator('[name="esito"]').selectOption({ index: 1 });
    await closeForm.locator('[name="motivazione"]').fill('Operazioni giustificate da documentazione contrattuale.');
    await closeForm.locator('button[type=submit]').click();
    await page.waitForURL(caseUrl);
    assert.equal(await page.locator('[data-status]').first().getAttribute('data-status'), 'closing');
    // She may not complete her own closure: the button is not offered to her.
    assert.equal(await page.locator('form[action$="/completa-chiusura"]').count(), 0);
    await screenshot(page, '04-case-closing');
    await ctxA.close();

    // 4. The compliance officer completes the closure (four eyes).
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const pageB = await ctxB.newPage();
    await signIn(pageB, env, co);
    await pageB.waitForURL(/\/totp\/verify/);
    await fillTotp(pageB, nextTotpCode(co.totpSecret));
    await pageB.waitForURL((u) => !u.pathname.startsWith('/totp'));
    await pageB.goto(`${env.baseUrl}/casi`);
    assert.deepEqual(await seriousA11yViolations(pageB), [], 'case list has no serious accessibility violation');
    await pageB.goto(caseUrl);
    await pageB.locator('form[action$="/completa-chiusura"] button[type=submit]').click();
    await pageB.waitForURL(caseUrl);
    assert.equal(await pageB.locator('[data-status]').first().getAttribute('data-status'), 'closed');
    assert.ok(await pageB.locator('.state-diagram svg').count() > 0, 'the state diagram is drawn');
    assert.ok(await pageB.locator('a[href*="/workflows/case%3A"], a[href*="/workflows/case:"]').count() > 0, 'links to the workflow in the Temporal Web UI');
    await screenshot(pageB, '05-case-closed');
    await ctxB.close();
  });
});
