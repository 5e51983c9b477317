import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { activateDraft, hit, raise, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * An alert escalated into an SOS in Chromium (issue 24): the analyst closes an alert as suspicious,
 * follows "Prepara segnalazione SOS", creates the report with the alert's operations proposed,
 * completes it in the investigation view, checks the completeness page and submits it; the SOS
 * delegate, another user, evaluates it, sends it to transmission and records the UIF protocol.
 */
describe('browser: an alert escalated into an SOS, completed, evaluated and transmitted', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  const state = (page: Page) => page.locator('[data-current-state]').getAttribute('data-current-state');

  it('from the alert to the UIF protocol, with two users', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    const delegate = await env.createUser({ tenant, roles: ['sos'] });
    const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    const { movements } = await seedCustomers(env.ownerDb, tenant, 1, 4);
    const rule = await co.post('/api/monitoring/rules', ruleBody('sos_journey'));
    await activateDraft(env, tenant, rule.body.bozza.id);
    const mov = movements.slice(0, 3).map((m) => ({ id: m.id, data_operazione: m.data_operazione }));
    const [alert] = await raise(env, tenant, [hit('sos_journey', 'C-1', '2026-03-01', '2026-03-12', { movimenti: mov })]);

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);

    // The analyst takes the alert and closes it as suspicious: the link to a new report appears.
    await page.goto(`${env.baseUrl}/alert/${alert!.id}`);
    assert.equal(await page.getByRole('link', { name: 'Prepara segnalazione SOS' }).count(), 0, 'not before the alert is closed as suspicious');
    await page.locator('#form-assegna button[type=submit]').click();
    await page.getByText('Alert preso in carico').waitFor();
    await page.locator('#form-chiudi summary').click();
    await page.locator('#form-chiudi').getByLabel('Disposizione').selectOption('sospetto');
    await page.locator('#form-chiudi textarea[name=motivazione]').fill('Versamenti in contanti frazionati sotto soglia');
    await page.locator('#form-chiudi [data-confirm-submit]').click();
    await page.getByText('Alert chiuso come sospetto').waitFor();
    assert.equal(await state(page), 'closed');
    await expectAccessible(page, 'alert closed as suspicious');
    await screenshot(page, 'sos-01-alert-sospetto');

    await page.getByRole('link', { name: 'Prepara segnalazione SOS' }).click();
    await page.waitForURL(/\/sos\/nuova\?/);
    assert.equal(await page.getByLabel('Origine', { exact: true }).inputValue(), 'alert');
    assert.equal(await page.getByLabel('Alert, caso o pratica di origine').inputValue(), alert!.cod_alert);
    await expectAccessible(page, 'new SOS from the alert');
    await page.getByLabel('Oggetto', { exact: true }).fill('Contanti frazionati sotto soglia');
    await page.getByRole('button', { name: 'Crea la bozza' }).click();
    await page.getByText('Segnalazione creata in bozza').waitFor();
    const id = page.url().split('/').pop()!;
    const cod = (await env.ownerDb('sos_reports').where({ id }).first('cod_segnalazione')).cod_segnalazione as string;
    // The alert's operations are proposed, each with the alert's code.
    assert.equal(await page.locator('#sos-operazioni tbody tr').count(), 3);
    assert.equal(await page.locator('#sos-operazioni tbody tr', { hasText: alert!.cod_alert }).count(), 3);
    assert.equal(await state(page), 'draft');
    await expectAccessible(page, 'SOS draft');
    await screenshot(page, 'sos-02-bozza');

    // Completeness before the investigation: the description is missing.
    await page.getByRole('link', { name: 'Completezza' }).click();
    await page.waitForURL(new RegExp(`/sos/completeness/${cod}$`));
    assert.equal(await page.locator('[data-item="operazioni"]').getAttribute('data-ok'), 'true');
    assert.equal(await page.locator('[data-item="descrizione"]').getAttribute('data-ok'), 'false');
    assert.equal(await page.locator('[data-item="indicatori"]').getAttribute('data-ok'), 'true', 'the rule\'s indicator is proposed');
    await expectAccessible(page, 'SOS completeness');

    // The investigation view: the proposed operations are ticked; add the phenomenon and the description.
    await page.locator('[data-item="descrizione"]').getByRole('link', { name: 'Completa' }).click();
    await page.waitForURL(new RegExp(`/sos/investigation/${cod}$`));
    for (const m of mov) assert.ok(await page.locator(`#mov-${m.id}`).isChecked(), m.id);
    await page.locator('#fen-F02').check();
    await page.getByLabel('Descrizione dell\'operatività sospetta').fill(
      `Tre versamenti in contanti frazionati sotto soglia in giorni ravvicinati (alert ${alert!.cod_alert}), incoerenti con il profilo dichiarato.`);
    await expectAccessible(page, 'SOS investigation');
    await screenshot(page, 'sos-03-istruttoria');
    await page.getByRole('button', { name: 'Salva il contenuto' }).click();
    await page.getByText('Contenuto della segnalazione aggiornato').waitFor();

    await page.getByRole('link', { name: 'Completezza' }).click();
    await page.waitForURL(new RegExp(`/sos/completeness/${cod}$`));
    assert.equal(await page.locator('[data-item="descrizione"]').getAttribute('data-ok'), 'true');
    assert.equal(await page.locator('[data-item="fenomeni"]').getAttribute('data-ok'), 'true');
    assert.equal(await page.locator('[data-item="valutazione"]').getAttribute('data-ok'), 'false', 'only the delegate\'s evaluation is left');
    await page.getByRole('link', { name: cod }).click();
    await page.locator('button[data-action="submit"]').click();
    await page.getByText('Fatto:').waitFor();
    assert.equal(await state(page), 'submitted');
    assert.equal(await page.locator('button[data-action="evaluate"]').count(), 0, 'the analyst does not evaluate');
    await ctx.close();

    // The SOS delegate finds it in the queue, evaluates it and sends it to transmission.
    const dctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const dpage = await dctx.newPage();
    await signInWithTotp(dpage, env.baseUrl, delegate);
    await dpage.goto(`${env.baseUrl}/sos/queue`);
    await expectAccessible(dpage, 'SOS queue');
    await dpage.getByRole('link', { name: cod }).first().click();
    await dpage.waitForURL(/\/sos\/[^/]+$/);
    await dpage.locator('button[data-action="evaluate"]').click();
    await dpage.getByText('Fatto:').waitFor();
    assert.equal(await state(dpage), 'under_evaluation');
    await dpage.locator('button[data-action="to_transmit"]').click();
    await dpage.getByText('Fatto:').waitFor();
    assert.equal(await state(dpage), 'to_transmit');
    await expectAccessible(dpage, 'SOS to transmit');
    await screenshot(dpage, 'sos-04-da-trasmettere');

    // The transmission page: an empty protocol is refused next to its field, then recorded.
    await dpage.getByRole('link', { name: 'Trasmissione' }).click();
    await dpage.waitForURL(new RegExp(`/sos/transmission/${cod}$`));
    await expectAccessible(dpage, 'SOS transmission');
    await dpage.getByRole('button', { name: 'Registra la trasmissione' }).click();
    await dpage.locator('#protocollo-error, .invalid-feedback').first().waitFor();
    await dpage.getByLabel('Numero di protocollo UIF').fill('UIF-2026-000123');
    await dpage.getByRole('button', { name: 'Registra la trasmissione' }).click();
    await dpage.getByText('Trasmissione registrata con protocollo UIF UIF-2026-000123').waitFor();
    assert.equal(await state(dpage), 'transmitted');
    assert.match((await dpage.locator('[data-protocollo]').textContent()) ?? '', /UIF-2026-000123/);
    await expectAccessible(dpage, 'SOS transmitted');
    await screenshot(dpage, 'sos-05-trasmessa');
    assert.deepEqual(await env.ownerDb('sos_reports').where({ id }).first('stato', 'protocollo_uif', 'origine', 'origine_ref'),
      { stato: 'transmitted', protocollo_uif: 'UIF-2026-000123', origine: 'alert', origine_ref: alert!.cod_alert });
    await dctx.close();
  });
});
