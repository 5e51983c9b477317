import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';

const SHARED = join(process.cwd(), '..', 'shared', 'data', 'sanctions');

describe('browser: resolving a screening match with four eyes', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;
  let dataDir: string;
  const previousDir = process.env.SANCTIONS_DATA_DIR;

  before(async () => {
    env = await getTestEnv();
    // The UN list (real file) is enough for this journey and imports in seconds.
    dataDir = mkdtempSync(join(tmpdir(), 'cp-sanctions-browser-'));
    cpSync(join(SHARED, 'un'), join(dataDir, 'un'), { recursive: true });
    process.env.SANCTIONS_DATA_DIR = dataDir;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    if (previousDir === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previousDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an analyst proposes "false positive", a compliance officer confirms it', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.createUser({ tenant, roles: ['co'] });
    const api = await env.login(co);
    const platform = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    const started = await platform.post('/api/v1/screening/import', {});
    if (started.status === 202) await env.temporal.workflow.getHandle(started.body.workflow_id).result();
    else assert.equal(started.status, 409, started.text); // an import already running from another test file
    const run = await api.post('/api/v1/screening/run', { nome: 'Eric Badege', tipo: 'person', data_nascita: '1971', nazionalita: 'CD' });
    assert.equal(run.status, 200, run.text);
    const list = await api.get('/api/v1/screening/matches?stato=open');
    assert.ok(list.body.total >= 1, 'the listed person raised a match');
    const matchId = list.body.items[0].id as string;

    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctxA.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.goto(`${env.baseUrl}/screening`);
    await screenshot(page, '10-screening-list');
    await page.locator(`a[href="/screening/${matchId}"]`).first().click();
    await page.waitForURL(new RegExp(`/screening/${matchId}$`));
    assert.equal(await page.locator('[data-status]').first().getAttribute('data-status'), 'open');
    await page.locator('#form-assegna button[type=submit]').click();
    await page.waitForURL(new RegExp(`/screening/${matchId}$`));
    assert.equal(await page.locator('[data-status]').first().getAttribute('data-status'), 'assigned');
    await page.locator('#form-risolvi [name="esito"]').selectOption('false_positive');
    await page.locator('#form-risolvi [name="motivazione"]').fill('Data di nascita e nazionalità del cliente diverse da quelle del soggetto listato.');
    await page.locator('#form-risolvi button[type=submit]').click();
    await page.waitForURL(new RegExp(`/screening/${matchId}$`));
    assert.equal(await page.locator('[data-pending]').count(), 1, 'the proposal waits for a second person');
    await screenshot(page, '11-screening-proposed');
    assert.deepEqual(await seriousA11yViolations(page), [], 'match page has no serious accessibility violation');
    await ctxA.close();

    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const pageB = await ctxB.newPage();
    await signInWithTotp(pageB, env.baseUrl, co);
    await pageB.goto(`${env.baseUrl}/screening/${matchId}`);
    await pageB.locator('#form-risolvi [name="motivazione"]').fill('Confermo: omonimia, dati anagrafici incompatibili.');
    await pageB.locator('#form-risolvi button[type=submit]').click();
    await pageB.waitForURL(new RegExp(`/screening/${matchId}$`));
    assert.equal(await pageB.locator('[data-status]').first().getAttribute('data-status'), 'false_positive');
    await screenshot(pageB, '12-screening-resolved');
    await ctxB.close();

    // Remembered: the same subject against the same entry is not raised again.
    const again = await api.post('/api/v1/screening/run', { nome: 'Eric Badege', tipo: 'person', data_nascita: '1971', nazionalita: 'CD' });
    assert.equal(again.status, 200);
    const open = await api.get('/api/v1/screening/matches?stato=open');
    assert.ok(!open.body.items.some((m: { entry_id: string }) => m.entry_id === list.body.items[0].entry_id), 'no new match for a remembered false positive');
  });
});
