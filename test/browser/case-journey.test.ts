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

/**
 * The process section: the current state and the possible actions as text, the drawing at its
 * natural size (not scaled down, labels at least 13 px), the current state and the edges the
 * user may take now marked.
 */
async function expectDiagram(page: Page, state: string, actions: string[]) {
  const section = page.locator('details#processo');
  assert.equal(await section.getAttribute('open'), '', 'the diagram section is open');
  assert.equal(await section.locator('[data-current-state]').getAttribute('data-current-state'), state);
  assert.deepEqual((await section.locator('[data-possible-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-possible-action')))).sort(), [...actions].sort());
  const svg = section.locator('.state-diagram-scroll svg');
  const { drawn, natural, minFont } = await svg.evaluate((el) => ({
    drawn: el.getBoundingClientRect().width,
    natural: Number(el.getAttribute('width')),
    minFont: Math.min(...[...el.querySelectorAll('text')].map((t) => t.getBoundingClientRect().height)),
  }));
  assert.ok(Math.abs(drawn - natural) < 1, `drawn ${drawn}px wide for a natural ${natural}px: the drawing is not scaled`);
  assert.ok(minFont >= 13, `the smallest label is ${minFont}px high`);
  assert.equal(await svg.locator(`#state-${state}`).getAttribute('class'), 'node current');
  assert.equal(await svg.locator('g.edge.allowed').count(), actions.length);
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
    await expectDiagram(page, 'open', ['add-event', 'escalate', 'close']);
    // Asking to close is a routine step, not a destructive one.
    const askClose = page.locator('form[action$="/chiudi"] button[type=submit]');
    assert.match(await askClose.getAttribute('class') ?? '', /\bbtn-primary\b/);
    assert.equal(await page.locator('.btn-danger, .btn-outline-danger').count(), 0, 'nothing on a case is destroyed: no danger button');

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
    await screenshot(pageB, '04b-case-list');
    assert.deepEqual(await seriousA11yViolations(pageB), [], 'case list has no serious accessibility violation');
    await pageB.goto(caseUrl);
    await expectDiagram(pageB, 'closing', ['complete-closure', 'reopen']);
    // Confirming the closure ends the case for good: a confirmation explains it first (no script needed).
    const confirm = pageB.locator('#conferma-complete-closure');
    assert.equal(await confirm.locator('button[type=submit]').isVisible(), false, 'the real button waits behind the confirmation');
    await confirm.locator('summary').click();
    assert.match(await confirm.textContent() ?? '', /non si può riaprire/);
    await screenshot(pageB, '05a-case-confirm-closure');
    assert.deepEqual(await seriousA11yViolations(pageB), [], 'case page with the confirmation open has no serious accessibility violation');
    await confirm.locator('button[type=submit]').click();
    await pageB.waitForURL(caseUrl);
    assert.equal(await pageB.locator('[data-status]').first().getAttribute('data-status'), 'closed');
    await expectDiagram(pageB, 'closed', []);
    assert.ok(await pageB.locator('a[href*="/workflows/case%3A"], a[href*="/workflows/case:"]').count() > 0, 'links to the workflow in the Temporal Web UI');
    await screenshot(pageB, '05-case-closed');
    await ctxB.close();
  });
});
