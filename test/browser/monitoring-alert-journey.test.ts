import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { activateDraft, hit, raise, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * An analyst works a monitoring alert in Chromium: from the navigation to the list, filtered in
 * place (htmx), to the alert and what lies behind it, takes it, and escalates it into a case.
 */
describe('browser: monitoring alert from the list to a case', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('lists, opens, assigns and escalates an alert into a case', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    const { movements } = await seedCustomers(env.ownerDb, tenant, 2, 4);
    const rule = await co.post('/api/monitoring/rules', ruleBody('contanti_mese'));
    await activateDraft(env, tenant, rule.body.bozza.id);
    const mov = movements.filter((m) => m.cod_anagrafe === 'C-2').map((m) => ({ id: m.id, data_operazione: m.data_operazione }));
    const [target] = await raise(env, tenant, [hit('contanti_mese', 'C-2', '2026-02-12', '2026-03-13', { movimenti: mov, punteggio: 82 })]);
    await raise(env, tenant, [hit('contanti_mese', 'C-1', '2026-02-12', '2026-03-13', { punteggio: 40 })]);
    const other = (await env.ownerDb('monitoring_alert').where({ cod_azienda: tenant, cod_anagrafe: 'C-1' }).first('id', 'stato'));
    await env.ownerDb('monitoring_alert').where({ id: other.id }).update({ stato: 'closed', disposizione: 'falso_positivo', closed_by: 'test', closed_at: new Date(), motivazione: 'Già verificato' });

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.getByRole('link', { name: 'Alert', exact: true }).click();
    await page.waitForURL(/\/alert$/);
    assert.equal(await page.locator('tr[data-alert]').count(), 2);
    await expectAccessible(page, 'alert list');
    await screenshot(page, 'monitoring-01-alert');

    // The state filter swaps the table in place and puts the filtered address in the history.
    await page.getByLabel('Stato').selectOption('new');
    await page.waitForURL(/\/alert\?.*stato=new/);
    await page.locator('tr[data-alert]').first().waitFor();
    assert.equal(await page.locator('tr[data-alert]').count(), 1);
    assert.equal(await page.locator('tr[data-alert]').getAttribute('data-alert'), target!.id);
    await screenshot(page, 'monitoring-02-alert-filtrati');

    await page.getByRole('link', { name: target!.cod_alert }).click();
    await page.waitForURL(new RegExp(`/alert/${target!.id}$`));
    await page.getByRole('heading', { name: `Alert ${target!.cod_alert}` }).waitFor();
    assert.equal(await page.locator('[data-movements] tr[data-movement]').count(), 4);
    assert.match((await page.locator('[data-evidence]').textContent()) ?? '', /Somma contanti 30g\s*12\.000/);
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'new');
    await expectAccessible(page, 'new alert');
    await screenshot(page, 'monitoring-03-alert-nuovo');

    // Take it: the assignee defaults to the person who asks.
    await page.locator('#form-assegna button[type=submit]').click();
    await page.getByText('Alert preso in carico').waitFor();
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'assigned');
    assert.deepEqual((await page.locator('[data-possible-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-possible-action')))).sort(),
      ['assign', 'close', 'escalate', 'propose-closure']);

    // Escalate: the confirmation says what happens, with the case's priority and a reason.
    await page.locator('#form-escala summary').click();
    await page.getByLabel('Priorità del caso').selectOption('alta');
    await page.locator('#form-escala').getByLabel('Motivazione (facoltativa)').fill('Contanti molto oltre il profilo dichiarato');
    await expectAccessible(page, 'alert with the escalation panel open');
    await screenshot(page, 'monitoring-04-conferma-escalation');
    await page.locator('#form-escala [data-confirm-submit]').click();
    await page.getByText('Alert escalato: è stato aperto un caso d\'indagine').waitFor();
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'escalated');
    await screenshot(page, 'monitoring-05-alert-escalato');

    await page.locator('[data-case-link]').click();
    await page.waitForURL(/\/casi\/[0-9a-f-]+$/);
    await page.getByRole('heading', { name: new RegExp(`Alert ${target!.cod_alert}`) }).waitFor();
    assert.match((await page.content()), /Contanti molto oltre il profilo dichiarato/);
    await expectAccessible(page, 'the case opened from the alert');
    await screenshot(page, 'monitoring-06-caso');
    await ctx.close();
  });
});
