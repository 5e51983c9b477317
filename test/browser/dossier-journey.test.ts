import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { pdfText } from '../helpers/pdf-text';

/**
 * A customer dossier in Chromium: a compliance officer opens a customer, follows "Genera
 * fascicolo", leaves a section out, generates it, signs it in the e-signature ceremony (code from
 * the mailbox), completes the signature and downloads the PDF, whose text is read back.
 */
describe('browser: build, sign and download a customer dossier', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let browser: Browser;
  before(async () => { env = await getTestEnv(); browser = await launchBrowser(); });
  after(async () => { await browser?.close(); });

  const stateIs = async (page: Page, label: string) => {
    await page.locator('.card-body [data-status]').first().waitFor();
    assert.equal((await page.locator('.card-body [data-status]').first().textContent())?.trim(), label);
  };

  it('walks the journey', async () => {
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    const api = await env.login(co);
    const made = await api.post('/api/anagrafe', {
      tipo_soggetto: 'societa', denominazione: 'Officine Meccaniche Emiliane S.r.l.', codice_fiscale: '07778889993', partita_iva: '07778889993', paese_residenza: 'IT', nazionalita: 'IT',
    });
    assert.equal(made.status, 201, made.text);
    const cod = made.body.cod_anagrafe as string;

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', acceptDownloads: true });
    const p = await ctx.newPage();
    await signInWithTotp(p, env.baseUrl, co);
    await p.goto(`${env.baseUrl}/anagrafe/${cod}`);
    await p.getByRole('link', { name: 'Genera fascicolo' }).click();
    await p.waitForURL(new RegExp(`/dossier/builder/${cod}$`));
    await p.getByLabel('Sintesi dei movimenti').uncheck();
    await p.locator('button[data-action="generate"]').click();
    await p.waitForURL(/\/dossier\/[0-9a-f-]{36}$/);
    const id = new URL(p.url()).pathname.split('/').pop()!;
    await stateIs(p, 'Generato');
    assert.deepEqual(await seriousA11yViolations(p), [], 'dossier detail');

    await p.locator('button[data-action="sign"]').click();
    await p.waitForURL(/\/esign\/ceremony\/[0-9a-f-]{36}\?token=/);
    await p.getByRole('button', { name: 'Accetto le condizioni' }).click();
    const after = await env.mailbox.cursor();
    await p.getByRole('button', { name: /Mostra il documento/ }).click();
    await p.locator('input[name="otp"]').fill(await env.mailbox.otp(`${co.username}@example.test`, after));
    await p.getByRole('button', { name: 'Firma il documento' }).click();
    await p.locator('[data-firmato]').waitFor();
    // The ceremony tells the dossier by a signal: complete-signing succeeds once it has arrived.
    for (let i = 0; i < 30; i++) {
      await p.goto(`${env.baseUrl}/dossier/${id}`);
      if (await p.locator('button[data-action="complete-signing"]').count()) await p.locator('button[data-action="complete-signing"]').click();
      await p.waitForLoadState('load');
      if ((await p.locator('.card-body [data-status]').first().textContent())?.trim() === 'Firmato') break;
      await p.waitForTimeout(300);
    }
    await stateIs(p, 'Firmato');
    await screenshot(p, 'dossier-01-firmato');

    const [download] = await Promise.all([p.waitForEvent('download'), p.locator('[data-download]').click()]);
    const pdf = await readFile((await download.path())!);
    const text = pdfText(pdf);
    assert.ok(text.includes('Fascicolo del cliente') && text.includes('Officine Meccaniche Emiliane S.r.l.'), text.slice(0, 300));
    assert.match(text, /Pagina 1 di \d+ · Generato il/);
    assert.ok(text.includes('Titolari effettivi e struttura proprietaria') && !text.includes('Sintesi dei movimenti'), 'the sections chosen, and only those');
    const audited = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'dossier.download', entity_id: id });
    assert.equal(audited.length, 1);
    await ctx.close();
  });
});
