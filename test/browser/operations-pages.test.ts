import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';

const DOC = Buffer.from('Contratto quadro: testo integrale.').toString('base64');

/**
 * The operators' pages the foundation added, as people see them: outgoing messages with their
 * delivery, the list import with its per-tenant re-screen, and the signer's page with the
 * new-code button. Screenshots kept; axe finds no serious or critical violation.
 */
describe('browser: operators\' pages (messages, list import) and the signer\'s new code', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let browser: Browser;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
    tenant = await env.createTenant();
  });
  after(async () => { await browser?.close(); });

  it('shows a tenant\'s outgoing messages to its administrator, with their delivery state', async () => {
    // A ceremony whose code goes out by e-mail: the message the page lists.
    const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    const started = await co.post('/api/v1/esign/ceremony/start', { signer: { nome: 'Giulia Bianchi', email: 'giulia.bianchi@example.test' }, document: { nome: 'contratto.pdf', contenuto_base64: DOC } });
    assert.equal(started.status, 201, started.text);
    const anon = env.client();
    assert.equal((await anon.post(`/api/v1/esign/ceremony/${started.body.id}/terms`, { token: started.body.token })).status, 200);
    assert.equal((await anon.post(`/api/v1/esign/ceremony/${started.body.id}/present`, { token: started.body.token })).status, 200);
    await env.mailbox.waitFor('giulia.bianchi@example.test');

    const admin = await env.createUser({ tenant, roles: ['admin'] });
    const ctx = await browser.newContext({ locale: 'it-IT' });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, admin);
    await page.goto(`${env.baseUrl}/organizzazione/messaggi`);
    await page.getByText('giulia.bianchi@example.test').first().waitFor();
    assert.match(await page.content(), /Inviat/);
    await screenshot(page, 'ops-01-messaggi');
    assert.deepEqual(await seriousA11yViolations(page), []);

    // The signer's page after the code was sent: the document, the code field, and the new-code button.
    // The link is built on PUBLIC_BASE_URL; the test stack listens on its own port.
    const link = new URL(started.body.signing_url);
    assert.equal(link.pathname, `/esign/ceremony/${started.body.id}`);
    await page.goto(`${env.baseUrl}${link.pathname}${link.search}`);
    await page.getByRole('button', { name: 'Inviami un nuovo codice' }).waitFor();
    await screenshot(page, 'ops-02-firma-nuovo-codice');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await ctx.close();
  });

  it('shows the list import and its per-tenant re-screen to the superadmin only', async () => {
    const superadmin = await env.createUser({ tenant: null, roles: ['superadmin'] });
    const ctx = await browser.newContext({ locale: 'it-IT' });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, superadmin);
    await page.goto(`${env.baseUrl}/admin/screening/import`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.ok(await page.locator('form[action="/admin/screening/import"]').count() > 0, 'the superadmin can start an import');
    await screenshot(page, 'ops-03-import-liste');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await ctx.close();

    const officer = await env.createUser({ tenant, roles: ['co'] });
    const ctx2 = await browser.newContext({ locale: 'it-IT' });
    const page2 = await ctx2.newPage();
    await signInWithTotp(page2, env.baseUrl, officer);
    await page2.goto(`${env.baseUrl}/admin/screening/import`);
    await page2.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await page2.locator('form[action="/admin/screening/import"]').count(), 0, 'a tenant\'s officer reads, and cannot start one');
    await ctx2.close();
  });
});
