import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv } from '../helpers/env';

describe('tmp config shots', function () {
  this.timeout(240_000);
  let browser: Browser;
  before(async () => { browser = await launchBrowser(); });
  after(async () => { await browser?.close(); });
  it('shots', async () => {
    const env = await getTestEnv();
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, co);
    await page.goto(`${env.baseUrl}/rischio/configurazione`);
    const rule = await env.ownerDb('rischio_regole').where({ cod_azienda: tenant, codice: 'pep' }).first('id', 'fattore_id');
    const soglia = await env.ownerDb('rischio_soglie').where({ cod_azienda: tenant }).first('id');
    for (const [name, path] of [['conf', '/rischio/configurazione'], ['regola', `/rischio/configurazione/${rule.id}`], ['nuova', '/rischio/configurazione/nuova'],
      ['fattori', '/rischio/fattori'], ['fattore', `/rischio/fattori/${rule.fattore_id}`], ['policy', '/rischio/policy?punteggio=42'], ['soglia', `/rischio/policy/${soglia.id}`]] as const) {
      const r = await page.goto(`${env.baseUrl}${path}`);
      console.log(name, r?.status(), JSON.stringify(await seriousA11yViolations(page)));
      await screenshot(page, `tmp-config-${name}`);
    }
  });
});
