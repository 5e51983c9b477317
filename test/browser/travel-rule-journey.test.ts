import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';
import { ethWallet, ivms101Payload } from '../helpers/travel-rule-fixture';

describe('browser: a travel-rule transfer held for missing data, completed and approved', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('screens it, holds it asking for the beneficiary\'s name and the proof of control, takes the completed data and approves it', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const api = await env.login(analyst);
    const wallet = ethWallet(21);
    // An incoming transfer from a self-hosted address, EUR 1,500, the beneficiary's name missing.
    const r = await api.post('/api/v1/travel-rule/transazioni', {
      riferimento_esterno: 'JOURNEY-1', direzione: 'in_entrata', asset: 'ETH', rete: 'ETH', importo: '0.5', importo_eur: 1500, indirizzo_originatore: wallet.indirizzo,
      indirizzo_beneficiario: '0x2222222222222222222222222222222222222222', tipo_wallet: 'self_hosted', ivms101: ivms101Payload({ senzaNomeBeneficiario: true }),
    });
    assert.equal(r.status, 201, r.text);
    const cod = r.body.cod_transazione as string;

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.getByRole('link', { name: 'Travel rule' }).first().click();
    await page.waitForURL(/\/admin\/travel-rule$/);
    await screenshot(page, 'travel-rule-01-elenco');
    await expectAccessible(page, 'travel-rule list');
    await page.getByRole('link', { name: cod }).click();
    await page.waitForURL(new RegExp(`/admin/travel-rule/${cod}$`));
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'received');

    // 1. Screening, then the rules: held proposed, the missing data listed.
    await page.getByRole('button', { name: 'Esegui lo screening' }).click();
    await page.waitForSelector('[data-proposta="held"]');
    const missing = await page.locator('[data-mancante]').evaluateAll((els) => els.map((e) => e.getAttribute('data-mancante')));
    assert.deepEqual(missing, ['/beneficiary/beneficiaryPersons/0/naturalPerson/name', 'prova_controllo']);
    assert.equal(await page.locator('[data-regola="prova_controllo"]').getAttribute('data-esito'), 'mancante');
    await screenshot(page, 'travel-rule-02-regole');
    await expectAccessible(page, 'screened transfer');

    // 2. Held: the reason is required, the error next to the field.
    assert.equal(await page.getByLabel('Decisione').inputValue(), 'held', 'the rules\' proposal is preselected');
    await page.getByRole('button', { name: 'Registra la decisione' }).click();
    await page.waitForSelector('#f-motivo-err');
    await screenshot(page, 'travel-rule-03-motivo-mancante');
    await page.getByLabel(/^Motivo/).fill('Chiesti al prestatore ordinante il nome del beneficiario e la prova di controllo dell\'indirizzo');
    await page.getByRole('button', { name: 'Registra la decisione' }).click();
    await page.waitForSelector('[data-current-state="held"]');
    assert.ok(await page.locator('[data-termine]').isVisible(), 'the deadline for the missing data is shown');
    await screenshot(page, 'travel-rule-04-sospesa');

    // 3. The completed data: the payload with the name, and the signature of the page's own text.
    await page.getByLabel('Messaggio IVMS101 (JSON)').fill(JSON.stringify(ivms101Payload(), null, 2));
    const text = await page.locator('#f-messaggio').inputValue();
    await page.getByLabel('Firma (prova di controllo)').fill(wallet.sign(text));
    await page.getByRole('button', { name: 'Integra e ripeti lo screening' }).click();
    await page.waitForSelector('[data-proposta="approved"]');
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'screened');
    assert.equal(await page.locator('[data-regola="prova_controllo"]').getAttribute('data-esito'), 'rispettata');
    await screenshot(page, 'travel-rule-05-integrata');

    // 4. Approved; the history shows both decisions.
    await page.getByLabel('Decisione').selectOption('approved');
    await page.getByRole('button', { name: 'Registra la decisione' }).click();
    await page.waitForSelector('[data-current-state="approved"]');
    const history = await page.locator('[data-storico-decisione]').evaluateAll((els) => els.map((e) => e.getAttribute('data-storico-decisione')));
    assert.deepEqual(history, ['held', 'approved']);
    await screenshot(page, 'travel-rule-06-approvata');
    await expectAccessible(page, 'approved transfer');
    await ctx.close();
  });
});
