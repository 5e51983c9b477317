import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';

describe('browser: a compliance officer changes a risk rule in a draft and puts it in force', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('opens a draft, edits points and condition (one invalid attempt), saves, activates; the API shows the new version and values', async () => {
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, co);

    // 1. The rules from the navigation: version 1 in force, no draft yet.
    await page.getByRole('link', { name: 'Regole e fattori' }).first().click();
    await page.waitForURL(/\/rischio\/configurazione$/);
    assert.equal(await page.locator('tr[data-stato="active"]').count(), 1);
    await screenshot(page, 'risk-config-01-versioni');
    await expectAccessible(page, 'rule sets');

    // 2. A draft from the version in force.
    await page.getByLabel('Motivo della nuova versione (facoltativo)').fill('Canale remoto: calibrazione');
    await page.getByRole('button', { name: 'Crea la bozza dalla versione in vigore' }).click();
    await page.waitForURL(/\/rischio\/configurazione$/);
    assert.match(await page.locator('.alert').first().innerText(), /Bozza 2 creata/);
    assert.equal(await page.locator('tr[data-stato="draft"]').count(), 1);

    // 3. The remote-channel rule of the draft: an invalid condition first, shown next to the field with its path.
    await page.locator('tr[data-rule="canale_remoto"] a[data-modifica]').click();
    await page.waitForURL(/\/rischio\/configurazione\/[0-9a-f-]{36}$/);
    const ruleUrl = page.url();
    await expectAccessible(page, 'rule form');
    await page.getByLabel('Punti').fill('12');
    const editor = page.locator('#f-condizione');
    await editor.fill(JSON.stringify({ tutti: [{ campo: 'canale.canale', op: 'eq', valore: 'online' }, { campo: 'geografia.paesi', op: 'intersects', valore: 'IR' }] }, null, 2));
    // The live preview (htmx) already names the problem while typing.
    await page.waitForSelector('[data-anteprima-errori]');
    assert.match(await page.locator('[data-anteprima-errori]').innerText(), /tutti\.1\.valore/);
    await page.getByRole('button', { name: 'Salva la regola' }).click();
    await page.waitForSelector('[data-errore-condizione]');
    assert.match(await page.locator('[data-errore-condizione]').innerText(), /^tutti\.1\.valore: /);
    assert.equal(await page.getByLabel('Punti').inputValue(), '12', 'the points typed are kept');
    await screenshot(page, 'risk-config-02-condizione-non-valida');
    await expectAccessible(page, 'rule form with errors');

    // 4. The condition fixed: the preview reads it in Italian; saved.
    const fixed = { tutti: [{ campo: 'canale.canale', op: 'eq', valore: 'online' }, { campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'paesi_gafi_grey' } }] };
    await editor.fill(JSON.stringify(fixed, null, 2));
    await page.waitForSelector('[data-anteprima-ok]');
    assert.match(await page.locator('[data-anteprima-ok]').innerText(), /Anteprima:.*online/);
    await screenshot(page, 'risk-config-03-anteprima');
    await page.getByRole('button', { name: 'Salva la regola' }).click();
    await page.waitForURL(/\/rischio\/configurazione\?versione=/);
    assert.match(await page.locator('.alert').first().innerText(), /aggiornata nella bozza v2/);
    assert.equal((await page.locator('tr[data-rule="canale_remoto"] [data-punti]').innerText()).trim(), '12');

    // 5. Activation, confirmed in the panel (a compliance officer).
    await page.locator('summary', { hasText: 'Attiva la bozza' }).click();
    await screenshot(page, 'risk-config-04-conferma-attivazione');
    await page.getByRole('button', { name: 'Sì, attiva la v2' }).click();
    await page.waitForURL(/\/rischio\/configurazione$/);
    assert.match(await page.locator('.alert').first().innerText(), /Versione 2 in vigore/);
    assert.equal(await page.locator('tr[data-versione="2"][data-stato="active"]').count(), 1);
    assert.equal(await page.locator('tr[data-versione="1"][data-stato="retired"]').count(), 1);
    await screenshot(page, 'risk-config-05-attivata');

    // 6. The API agrees: version 2 in force, its rule with the new points and condition.
    const api = await env.login(co);
    const sets = await api.get('/api/risk/rule-sets');
    assert.equal(sets.status, 200, sets.text);
    const inForce = (sets.body.items as { versione: number; stato: string; activated_by: string | null }[]).filter((v) => v.stato === 'active');
    assert.deepEqual(inForce.map((v) => [v.versione, v.activated_by]), [[2, co.username]]);
    const rules = await api.get('/api/risk/rules');
    assert.equal(rules.status, 200, rules.text);
    const rule = (rules.body.items as { codice: string; punti: number; condizione: unknown; versione: number; stato_versione: string }[]).find((r) => r.codice === 'canale_remoto')!;
    assert.equal(rule.versione, 2);
    assert.equal(rule.stato_versione, 'active');
    assert.equal(rule.punti, 12);
    assert.deepEqual(rule.condizione, fixed);
    // The rule's page now shows a rule of the version in force: read only.
    await page.goto(ruleUrl);
    assert.equal(await page.locator('[data-read-only]').count(), 1);
    assert.equal(await page.getByLabel('Punti').inputValue(), '12');
    await ctx.close();
  });
});
