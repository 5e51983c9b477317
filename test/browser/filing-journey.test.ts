import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadJurisdiction } from '../../src/domains/filing/goaml/jurisdiction-loader';
import { parseReportXml } from '../../src/domains/filing/goaml/report-xml';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';

const GOAML = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'goaml');

/**
 * A filing from draft to an acknowledged return, in Chromium, with two people: the analyst
 * composes, classifies, validates and submits it; a compliance officer approves it, signs it in
 * the e-signature ceremony (code from the mailbox), renders the goAML package, records the
 * submission and uploads the FIU's acknowledgement.
 */
describe('browser: a filing from draft to an acknowledged return, two users and a signature', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;
  before(async () => { env = await getTestEnv(); browser = await launchBrowser(); });
  after(async () => { await browser?.close(); });

  const accessible = async (page: Page, what: string) => assert.deepEqual(await seriousA11yViolations(page), [], what);
  const act = async (page: Page, action: string) => {
    await page.locator(`button[data-action="${action}"]`).click();
    await page.waitForLoadState('load');
  };
  const stateIs = async (page: Page, label: string) => {
    await page.locator('.card-body [data-status]').first().waitFor();
    assert.equal((await page.locator('.card-body [data-status]').first().textContent())?.trim(), label);
  };

  it('walks the journey', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.createUser({ tenant, roles: ['co'] });
    const j = await loadJurisdiction(GOAML, 'ae-goaml-5.0.2');
    const content = parseReportXml(j.model, readFileSync(join(GOAML, 'vyttah-uae-5.0.2', 'golden', 'STR.xml'), 'utf8'));
    delete content.entity_reference;

    // 1. The analyst composes the filing, classifies, validates and submits it for approval.
    const ctxA = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const a = await ctxA.newPage();
    await signInWithTotp(a, env.baseUrl, analyst);
    await a.goto(`${env.baseUrl}/filing/compose`);
    await a.getByLabel('Titolo').fill('Bonifico estero dopo versamenti in contanti');
    await a.locator('#f-content').fill(JSON.stringify(content));
    await a.getByRole('button', { name: 'Crea la bozza' }).click();
    await a.waitForURL(/\/filing\/[0-9a-f-]{36}$/);
    const id = new URL(a.url()).pathname.split('/').pop()!;
    await stateIs(a, 'Bozza');
    await a.locator('#form-classifica select[name="report_code"]').selectOption('STR');
    await act(a, 'classify');
    await stateIs(a, 'Classificata');
    await act(a, 'validate');
    await stateIs(a, 'Validata');
    await act(a, 'mark-ready');
    await act(a, 'submit-for-approval');
    await stateIs(a, 'In approvazione');
    assert.equal(await a.locator('button[data-action="approve"]').count(), 0, 'the preparer cannot approve');
    await screenshot(a, 'filing-01-in-approvazione');
    await accessible(a, 'detail in approval');

    // 2. A compliance officer approves, signs in the ceremony and completes the signature.
    const ctxB = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const b = await ctxB.newPage();
    await signInWithTotp(b, env.baseUrl, co);
    await b.goto(`${env.baseUrl}/filing/workbench`);
    await b.locator(`tr[data-filing="${id}"] [data-waiting]`).waitFor();
    await b.goto(`${env.baseUrl}/filing/${id}`);
    await act(b, 'approve');
    await stateIs(b, 'Approvata');
    await act(b, 'sign');
    await stateIs(b, 'In firma');
    await b.locator('[data-signing-url]').click();
    await b.waitForURL(/\/esign\/ceremony\/[0-9a-f-]{36}\?token=/);
    await b.getByRole('button', { name: 'Accetto le condizioni' }).click();
    const after = await env.mailbox.cursor();
    await b.getByRole('button', { name: /Mostra il documento/ }).click();
    await b.locator('input[name="otp"]').waitFor();
    await b.locator('input[name="otp"]').fill(await env.mailbox.otp(`${co.username}@example.test`, after));
    await b.getByRole('button', { name: 'Firma il documento' }).click();
    await b.locator('[data-firmato]').waitFor();
    // The ceremony tells the filing by a signal: complete-signing succeeds once it has arrived.
    for (let i = 0; i < 30; i++) {
      await b.goto(`${env.baseUrl}/filing/${id}`);
      await act(b, 'complete-signing');
      if ((await b.locator('.card-body [data-status]').first().textContent())?.trim() === 'Firmata') break;
      await b.waitForTimeout(300);
    }
    await stateIs(b, 'Firmata');

    // 3. The package, the submission and the FIU's acknowledgement.
    await act(b, 'render-package');
    await stateIs(b, 'Pacchetto generato');
    await b.locator('#form-invio input[name="submission_ref"]').fill('PORTAL-2026-001');
    await act(b, 'record-submission');
    await stateIs(b, 'Inviata');
    const ack = `<?xml version="1.0" encoding="UTF-8"?>\n<report_return><entity_reference>FIL-${id.slice(0, 8).toUpperCase()}</entity_reference><fiu_ref_number>FIU-2026-900</fiu_ref_number><status>ACCEPTED</status></report_return>`;
    await b.locator('#form-esito input[type="file"]').setInputFiles({ name: 'esito.xml', mimeType: 'application/xml', buffer: Buffer.from(ack) });
    await act(b, 'import-return');
    await stateIs(b, 'Accettata');
    assert.match((await b.locator('dl').first().textContent()) ?? '', /FIU-2026-900/);
    await screenshot(b, 'filing-02-accettata');
    await accessible(b, 'detail acknowledged');
    await ctxA.close();
    await ctxB.close();
  });
});
