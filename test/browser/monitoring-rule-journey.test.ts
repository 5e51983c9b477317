import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { insertMovements } from '../helpers/monitoring-runs';
import { addDays } from '../../src/domains/monitoring/engine/engine.dates';
import { todayInRome } from '../../src/domains/monitoring/runs/runs.commands';

/**
 * A rule's whole life in Chromium, as two compliance officers click it (docs/monitoring.md,
 * "Browser journey"): the first builds a cash rule on the builder page (a malformed value is
 * refused next to its field), saves it as a draft, backtests it over the stored history and reads
 * the result, asks for its release; the four-eyes rule refuses their own approval (page and API);
 * a second officer approves it. A source system then posts a movement that hits the rule
 * (POST /api/movimenti answers with the decision), the alert appears in /alert, and the first
 * officer reads its trace, takes it and escalates it into a case.
 */
describe('browser: a monitoring rule from the builder to a case', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  const newPage = async () => (await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } })).newPage();
  const shot = (page: Page, step: string) => screenshot(page, `monitoring-rule-${step}`);

  it('builds, backtests and releases a rule with four eyes; a movement that hits it becomes an alert and a case', async () => {
    const tenant = await env.createTenant();
    const officerUser = await env.createUser({ tenant, roles: ['co'] });
    const secondUser = await env.createUser({ tenant, roles: ['co'] });
    const officerApi = await env.login(officerUser);
    const source = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    const admin = await env.login(await env.createUser({ tenant, roles: ['admin'] }));
    // A handful of customers cannot carry the default cap of a new rule's alerts (100 a year per
    // 10,000 customers); the tenant sets its own, as a small intermediary would.
    assert.equal((await admin.put('/api/admin/settings', { chiave: 'monitoring.alert_max_nuova_regola', valore: 100_000 })).status, 200);

    // The stored history: two customers who crossed 15,000 € of cash in 30 days, two who did not.
    const today = todayInRome();
    const names = ['Bar Centrale di Rota Luca', 'Ferramenta Gallo Srl', 'Studio Medico Neri', 'Carla Esposito'];
    await env.ownerDb('anagrafe').insert(names.map((denominazione, i) => ({
      cod_azienda: tenant, cod_anagrafe: `C-${i + 1}`, tipo_soggetto: ['ditta_individuale', 'societa', 'societa', 'persona_fisica'][i], denominazione, created_by: 'test',
    })));
    await env.ownerDb('rapporti').insert(names.map((_, i) => ({
      cod_azienda: tenant, cod_rapporto: `R-${i + 1}`, cod_anagrafe: `C-${i + 1}`, tipo: 'conto_corrente', data_apertura: '2024-01-01', created_by: 'test',
    })));
    const d = (n: number) => addDays(today, -n);
    await insertMovements(env.ownerDb, tenant, [
      { cod: 'C-1', day: d(50), importo: 6_000 }, { cod: 'C-1', day: d(45), importo: 6_000 }, { cod: 'C-1', day: d(40), importo: 6_500 },
      { cod: 'C-2', day: d(25), importo: 8_000 }, { cod: 'C-2', day: d(20), importo: 8_000 },
      { cod: 'C-3', day: d(30), importo: 20_000, contanti: false }, { cod: 'C-3', day: d(10), importo: 3_000 },
      { cod: 'C-4', day: d(12), importo: 9_000 },
    ]);

    // 1. The first officer builds the rule with the builder's controls.
    const page = await newPage();
    await signInWithTotp(page, env.baseUrl, officerUser);
    await page.goto(`${env.baseUrl}/monitoraggio/regole`);
    await page.getByRole('link', { name: 'Nuova regola' }).click();
    await page.waitForURL(/\/monitoraggio\/regole\/nuova/);
    await page.getByLabel('Codice').fill('contanti_mese_15k');
    await page.getByLabel('Nome', { exact: true }).fill('Contanti oltre 15.000 € in 30 giorni');
    await page.locator('#f-tipologia').selectOption('contanti_oltre_soglia');
    await page.getByLabel('Punteggio (1–100)').fill('75');
    await page.locator('#f-ambito').selectOption('evento');
    // The builder opens with one comparison on a field; the aggregate is a second row.
    await page.locator('#r0_campo').selectOption('evento.contanti');
    await page.locator('#r0_op').selectOption('eq');
    await page.locator('#r0_valore').fill('sì');
    await page.getByRole('button', { name: 'Aggiungi un aggregato dei movimenti' }).click();
    await page.locator('fieldset[data-row="1"]').waitFor();
    await page.locator('#r1_fn').selectOption('sum');
    await page.locator('#r1_finestra').fill('30');
    await page.locator('#r1_contanti').selectOption('true');
    await page.locator('#r1_op').selectOption('gte');
    await page.locator('#r1_valore').fill('quindicimila');
    await shot(page, '01-costruttore');
    await page.getByRole('button', { name: 'Salva la bozza' }).click();
    // The malformed value comes back next to its control; the rest of the form is kept.
    await page.locator('#r1_valore-err').waitFor();
    assert.match(await page.locator('#r1_valore-err').innerText(), /Indica un numero/);
    assert.equal(await page.locator('#r1_valore').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Codice').inputValue(), 'contanti_mese_15k');
    assert.match(await page.locator('[data-preview-problems]').innerText(), /Condizione 2, valore: Indica un numero/);
    assert.match(await page.locator('[data-not-saved]').innerText(), /La bozza non è stata salvata[\s\S]*Condizione 2, valore/, 'said at the top, where the page reloads');
    await expectAccessible(page, 'the builder with a malformed value');
    await shot(page, '02-valore-non-valido');
    await page.locator('#r1_valore').fill('15.000');
    await page.getByRole('button', { name: 'Aggiorna l\'anteprima' }).click();
    await page.locator('#r1_valore').waitFor();
    assert.match(await page.locator('[data-preview]').innerText(), /15\.000/);
    await page.getByRole('button', { name: 'Salva la bozza' }).click();
    await page.waitForURL(/\/monitoraggio\/regole\/[0-9a-f-]{36}$/);
    await page.getByText('creata come bozza').waitFor();
    const ruleId = page.url().split('/').pop()!;
    const stored = await officerApi.get(`/api/monitoring/rules/${ruleId}`);
    assert.deepEqual(stored.body.bozza.condizione, { tutti: [
      { campo: 'evento.contanti', op: 'eq', valore: true },
      { aggregato: { fn: 'sum', finestra_giorni: 30, contanti: true }, op: 'gte', valore: 15_000 },
    ] });
    assert.equal(await page.locator('[data-active]').innerText(), 'Nessuna versione in vigore: la regola non viene valutata');
    await expectAccessible(page, 'the new rule');
    await shot(page, '03-bozza');

    // 2. The backtest over the stored history, started from the rule's release page.
    await page.getByRole('link', { name: 'Backtest e messa in vigore' }).first().click();
    await page.waitForURL(/\/rilascio$/);
    assert.equal(await page.locator('[data-gate="backtest"]').getAttribute('data-ok'), 'false');
    await shot(page, '04-rilascio');
    await page.locator('[data-backtest-form] button[type=submit]').click();
    await page.getByText('Backtest avviato').waitFor();
    await page.locator('[data-backtests] a').first().click();
    await page.waitForURL(/\/monitoraggio\/esecuzioni\/[0-9a-f-]+$/);
    await page.locator('[data-backtest-summary] [data-count="alert_bozza"]').waitFor({ timeout: 90_000 });
    assert.match(await page.locator('[data-count="alert_bozza"]').innerText(), /^2 su 2 clienti/);
    assert.equal(await page.locator('[data-count="alert_attiva"]').innerText(), 'Nessuna versione in vigore');
    const onlyDraft = await page.locator('[data-only="solo_bozza"]').innerText();
    assert.match(onlyDraft, /Bar Centrale di Rota Luca/);
    assert.match(onlyDraft, /Ferramenta Gallo Srl/);
    assert.doesNotMatch(onlyDraft, /Carla Esposito|Studio Medico Neri/);
    await page.locator('#grafico-backtest').waitFor();
    await expectAccessible(page, 'the backtest\'s result');
    await shot(page, '05-backtest');

    // 3. The release: asked by the first officer, refused to them (page and API), approved by the second.
    await page.getByRole('link', { name: 'Torna alla messa in vigore della bozza' }).click();
    await page.waitForURL(/\/rilascio$/);
    assert.equal(await page.locator('[data-gate="backtest"]').getAttribute('data-ok'), 'true');
    assert.equal(await page.locator('[data-gate="volume"]').getAttribute('data-ok'), 'true');
    await page.getByLabel('Motivazione').fill('Soglia mensile sui contanti, backtest su un anno: due clienti');
    await page.getByRole('button', { name: 'Richiedi la messa in vigore' }).click();
    await page.getByText('Messa in vigore richiesta').waitFor();
    assert.equal(await page.locator('[data-approve-form]').count(), 0, 'the requester is not offered the approval');
    await page.getByText('L\'approvazione spetta a una persona diversa da chi ha richiesto la messa in vigore.').waitFor();
    const self = await officerApi.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.equal(self.status, 403, self.text);
    await expectAccessible(page, 'the release waiting for a second person');
    await shot(page, '06-in-attesa');

    const second = await newPage();
    await signInWithTotp(second, env.baseUrl, secondUser);
    await second.goto(`${env.baseUrl}/monitoraggio/regole/${ruleId}/rilascio`);
    await second.locator('[data-approve-form]').waitFor();
    await shot(second, '07-approvazione');
    await second.getByRole('button', { name: 'Approva e metti in vigore' }).click();
    await second.getByText('Bozza approvata: è la versione in vigore').waitFor();
    await second.goto(`${env.baseUrl}/monitoraggio/regole/${ruleId}`);
    assert.match(await second.locator('[data-active]').innerText(), /^Versione 1 dal/);
    await shot(second, '08-in-vigore');
    await second.context().close();

    // 4. A source system posts a cash deposit that takes Carla Esposito past 15,000 € in 30 days.
    const posted = await source.post('/api/movimenti', {
      cod_rapporto: 'R-4', data_operazione: today, importo: 7_500, segno: 'entrata', contanti: true, causale: 'Versamento contanti', canale: 'sportello', chiave_esterna: 'journey-1',
    });
    assert.equal(posted.status, 201, posted.text);
    const decision = posted.body.movimenti[0].decisione;
    assert.equal(decision.stato, 'valutata', posted.text);
    assert.equal(decision.esito, 'alert', posted.text);
    assert.equal(decision.alert.length, 1, posted.text);

    await page.goto(`${env.baseUrl}/alert`);
    assert.equal(await page.locator('tr[data-alert]').count(), 1, 'the backtest raised no real alert; the movement did');
    assert.match(await page.locator('tr[data-alert]').innerText(), /Carla Esposito/);
    await shot(page, '09-alert');

    // 5. The officer reads the alert's trace, takes it and escalates it into a case.
    await page.locator('tr[data-alert] a').first().click();
    await page.waitForURL(/\/alert\/[0-9a-f-]{36}$/);
    const heading = await page.getByRole('heading', { name: /^Alert ALR-/ }).innerText();
    const alertCode = heading.replace('Alert ', '');
    const trace = await page.locator('[data-trace]').innerText();
    assert.match(trace, /Contanti oltre 15\.000 € in 30 giorni/);
    assert.match(trace, /16\.500,00\s€/, 'the 30-day cash total it read');
    await expectAccessible(page, 'the alert with its trace');
    await shot(page, '10-alert-traccia');
    await page.locator('#form-assegna button[type=submit]').click();
    await page.getByText('Alert preso in carico').waitFor();
    await page.locator('#form-escala summary').click();
    await page.getByLabel('Priorità del caso').selectOption('alta');
    await page.locator('#form-escala').getByLabel('Motivazione (facoltativa)').fill('Contanti oltre la soglia mensile della regola');
    await page.locator('#form-escala [data-confirm-submit]').click();
    await page.getByText('Alert escalato: è stato aperto un caso d\'indagine').waitFor();
    assert.equal(await page.locator('[data-current-state]').getAttribute('data-current-state'), 'escalated');
    await shot(page, '11-alert-escalato');
    await page.locator('[data-case-link]').click();
    await page.waitForURL(/\/casi\/[0-9a-f-]+$/);
    assert.match(await page.content(), /Contanti oltre la soglia mensile della regola/);
    assert.match(await page.content(), new RegExp(`Aperto dall'alert di monitoraggio ${alertCode}`));
    await expectAccessible(page, 'the case opened from the alert');
    await shot(page, '12-caso');
    await page.context().close();
  });
});
