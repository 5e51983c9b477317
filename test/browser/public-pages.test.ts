import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import { artifactsDir, launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { logoPng } from '../helpers/png';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

describe('browser: the public pages speak for the tenant, fit the screen and pass axe', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let browser: Browser;
  let tenant: string;
  let admin: TestUser;
  let co: TestUser;
  const contexts: BrowserContext[] = [];
  /** Every page axe checked here, kept as an artefact for the closing note. */
  const checked: string[] = [];

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
    tenant = await env.createTenant();
    admin = await env.createUser({ tenant, roles: ['admin'] });
    co = await env.createUser({ tenant, roles: ['co'] });
  });
  after(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    mkdirSync(artifactsDir, { recursive: true });
    writeFileSync(join(artifactsDir, 'public-pages-axe.txt'), checked.map((p) => `${p}: no serious or critical violation`).join('\n') + '\n');
  });

  const newPage = async (viewport = DESKTOP) => {
    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport });
    contexts.push(ctx);
    return ctx.newPage();
  };
  const accessible = async (page: Page, what: string) => {
    assert.deepEqual(await seriousA11yViolations(page), [], `${what}: no serious accessibility violation`);
    checked.push(`${what} (${new URL(page.url()).pathname})`);
  };
  const brandShown = async (page: Page, what: string) => {
    assert.equal(await page.locator(`[data-brand="${tenant}"]`).count(), 1, `${what}: the header names the tenant`);
    assert.equal(await page.getByText('Compliance AML').count(), 0, `${what}: not the vendor's name`);
  };
  /** The stepper's items all on one line (it must not wrap into rows of links). */
  const stepperOnOneLine = (page: Page) => page.locator('.wizard-stepper li').evaluateAll((lis) => new Set(lis.map((li) => Math.round((li as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top))).size === 1);

  it('the tenant admin uploads a logo (a renamed text file is refused next to the field)', async () => {
    const page = await newPage();
    await signInWithTotp(page, env.baseUrl, admin);
    await page.goto(`${env.baseUrl}/organizzazione/configurazione`);
    await page.getByRole('link', { name: 'Gestisci il logo' }).click();
    await page.waitForURL(/\/organizzazione\/configurazione\/logo$/);
    await page.locator('#f-logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('solo testo, non un’immagine\n') });
    await page.getByRole('button', { name: 'Carica il logo' }).click();
    await page.locator('#f-logo-err').waitFor();
    assert.match((await page.locator('#f-logo-err').textContent())!, /Formato non ammesso/);
    await accessible(page, 'tenant logo form with an error');
    await page.locator('#f-logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });
    await page.getByRole('button', { name: 'Carica il logo' }).click();
    await page.locator('[data-logo-attuale]').waitFor();
    await screenshot(page, 'pub-00-logo-admin');
    await accessible(page, 'tenant logo form');
  });

  it('landing at 1440×900: the tenant\'s name and logo, the main button within the viewport', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${env.baseUrl}/onboarding/?azienda=${tenant}`);
    await brandShown(page, 'landing');
    assert.ok(await page.locator('img[data-logo]').evaluate((i) => { const img = i as unknown as { complete: boolean; naturalWidth: number }; return img.complete && img.naturalWidth === 160; }), 'the logo loads');
    const box = await page.getByRole('button', { name: 'Inizia la richiesta' }).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= DESKTOP.height, `the main button is above the fold (${JSON.stringify(box)})`);
    assert.doesNotMatch(await page.title(), /Compliance AML/);
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, 'pub-01-landing-1440x900.png') });
    await screenshot(page, 'pub-01-landing-full');
    await accessible(page, 'landing');
  });

  it('every wizard step, the status page and the closed page pass axe; the progress fits desktop and phone', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${env.baseUrl}/onboarding/?azienda=${tenant}`);
    await page.locator('#f-email').fill('pagine.pubbliche@example.test');
    await page.locator('#f-privacy').check();
    await page.getByRole('button', { name: 'Inizia la richiesta' }).click();
    await page.waitForURL(/\/onboarding\/step\/0$/);
    await page.locator('input[name="subject_type"][value="societa"]').check({ force: true });
    await page.getByRole('button', { name: 'Continua', exact: true }).click();
    await page.waitForURL(/\/onboarding\/step\/1$/);

    for (let n = 0; n <= 8; n++) {
      await page.goto(`${env.baseUrl}/onboarding/step/${n}`);
      assert.ok(page.url().endsWith(`/onboarding/step/${n}`), `a company walks step ${n}`);
      await brandShown(page, `step ${n}`);
      assert.match((await page.locator('.wizard-progress-head').textContent())!, new RegExp(`Passo ${n + 1} di 9`));
      assert.ok(await stepperOnOneLine(page), `step ${n}: the stepper stays on one line`);
      await accessible(page, `step ${n}`);
      if (n === 1) await screenshot(page, 'pub-02-step-1');
    }
    // Earlier steps stay reachable from the stepper.
    await page.locator('.wizard-stepper li.done a').first().click();
    await page.waitForURL(/\/onboarding\/step\/0$/);

    // Step 1 with errors: hints under the fields, paired fields aligned.
    await page.goto(`${env.baseUrl}/onboarding/step/1`);
    await page.getByRole('button', { name: 'Continua', exact: true }).click();
    await page.locator('#riepilogo-errori').waitFor();
    const top = async (id: string) => (await page.locator(id).boundingBox())!.y;
    assert.equal(await top('#f-legale_rappresentante-documento-scadenza'), await top('#f-legale_rappresentante-documento-rilasciato_da'), 'a field with a hint lines up with its neighbour');
    await screenshot(page, 'pub-03-step-1-errori');
    await accessible(page, 'step 1 with errors');

    await page.setViewportSize(PHONE);
    await page.goto(`${env.baseUrl}/onboarding/step/3`);
    assert.ok(await stepperOnOneLine(page), 'phone: the stepper stays on one line');
    const overflow = await page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
    assert.equal(overflow, false, 'phone: nothing wider than the screen');
    await screenshot(page, 'pub-04-step-3-phone');
    await accessible(page, 'step 3 on a phone');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Salva e riprendi più tardi' }).click();
    await page.waitForURL(/\/onboarding\/stato$/);
    await brandShown(page, 'status page');
    await accessible(page, 'stato');

    const row = await env.ownerDb('onboarding_cases').where({ cod_azienda: tenant, email: 'pagine.pubbliche@example.test' }).first('id');
    await env.ownerDb('onboarding_cases').where({ id: row.id }).update({ stato: 'expired' });
    await page.reload();
    await page.getByRole('heading', { name: 'Richiesta scaduta' }).waitFor();
    await brandShown(page, 'closed page');
    await accessible(page, 'chiusa');
  });

  it('without a session: the resume page, the new-link page and an invalid link', async () => {
    const page = await newPage(DESKTOP);
    const r = await page.goto(`${env.baseUrl}/onboarding/step/1?azienda=${tenant}`);
    assert.equal(r?.status(), 401);
    await brandShown(page, 'sessione');
    await accessible(page, 'sessione');
    await page.goto(`${env.baseUrl}/onboarding/nuovo-link?azienda=${tenant}`);
    await brandShown(page, 'nuovo-link');
    await accessible(page, 'nuovo-link');
    await page.goto(`${env.baseUrl}/api/v1/onboarding/resume?token=non-valido`);
    await page.getByRole('heading', { name: /Il link/ }).waitFor();
    await accessible(page, 'link-non-valido');
  });

  it('the ceremony: the signer signs and the page then shows the signed state; staff have a way back', async () => {
    const email = 'firmataria.pubblica@example.test';
    const api = await env.login(co);
    const s = await api.post('/api/v1/esign/ceremony/start', {
      signer: { nome: 'Lucia Bianchi', email }, document: { nome: 'mandato.pdf', contenuto_base64: Buffer.from('Mandato di prova').toString('base64') },
    });
    assert.equal(s.status, 201, s.text);
    const { id, token } = s.body as { id: string; token: string };

    const page = await newPage(DESKTOP);
    await page.goto(`${env.baseUrl}/esign/ceremony/${id}?token=${token}`);
    await brandShown(page, 'ceremony');
    await screenshot(page, 'pub-05-ceremony');
    await accessible(page, 'ceremony (terms)');
    await page.getByRole('button', { name: 'Accetto le condizioni' }).click();
    const after = await env.mailbox.cursor();
    await page.getByRole('button', { name: /Mostra il documento/ }).click();
    await page.locator('input[name="otp"]').fill(await env.mailbox.otp(email, after));
    await accessible(page, 'ceremony (code)');
    await page.getByRole('button', { name: 'Firma il documento' }).click();
    await page.locator('[data-firmato]').waitFor();
    assert.equal(await page.getByText(/scade/).count(), 0, 'after signing, nothing says the link expires');
    await screenshot(page, 'pub-06-ceremony-signed');
    await accessible(page, 'ceremony (signed)');
    await page.getByRole('link', { name: 'Vai alla ricevuta' }).click();
    await page.getByRole('heading', { name: 'Ricevuta di firma' }).waitFor();
    await brandShown(page, 'receipt');
    await accessible(page, 'receipt');

    const staff = await newPage(DESKTOP);
    await signInWithTotp(staff, env.baseUrl, co);
    await staff.goto(`${env.baseUrl}/esign/ceremony/${id}`);
    await staff.locator('[data-vista-personale]').waitFor();
    await screenshot(staff, 'pub-07-ceremony-staff');
    await accessible(staff, 'ceremony seen by staff');
    await staff.getByRole('link', { name: 'Torna alla home' }).click();
    await staff.waitForURL(`${env.baseUrl}/`);
  });
});
