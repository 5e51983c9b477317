import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { artifactsDir, launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * A KYB's structure built on its page (issue 13 part ubo): three levels (two persons, two holding
 * companies that hold each other, the customer), a mistake shown next to its field, the owners
 * computed, their paths read on the page under both methods.
 */
describe('browser: a three-level structure with a cross-holding, built on the KYB page, and its beneficial owners', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  async function addNode(page: Page, tipo: string, denominazione: string) {
    const form = page.locator('[data-form-nodo]');
    await form.locator('#sn-tipo').selectOption(tipo);
    await form.locator('#sn-denominazione').fill(denominazione);
    await form.locator('button[type=submit]').click();
    await page.waitForLoadState('load');
    assert.match(await page.locator('[data-nodi]').textContent() ?? '', new RegExp(denominazione.replace(/\./g, '\\.')));
  }

  async function addShare(page: Page, da: string, a: string, percentuale: string) {
    const form = page.locator('[data-form-arco]');
    await form.locator('#sa-da_nodo_id').selectOption({ label: da });
    await form.locator('#sa-tipo').selectOption('partecipazione');
    await form.locator('#sa-a_nodo_id').selectOption({ label: a });
    await form.locator('#sa-percentuale').fill(percentuale);
    await form.locator('button[type=submit]').click();
    await page.waitForLoadState('load');
  }

  it('builds it, computes, and shows the paths', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-UBOB01', tipo_soggetto: 'societa', denominazione: 'Cliente Browser S.p.A.', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });
    const api = await env.login(analyst);
    const b = await api.post('/api/v1/kyb/verifiche', { cod_anagrafe: 'ANA-UBOB01', dati_dichiarati: { titolari: [{ nome: 'Piero', cognome: 'Pace', percentuale: 50, tipo_controllo: 'proprieta_indiretta' }] } });
    assert.equal(b.status, 201, b.text);
    const kyb = b.body.cod_verifica as string;

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.goto(`${env.baseUrl}/admin/kyb/${kyb}`);
    assert.ok(await page.locator('[data-struttura]').isVisible());

    await addNode(page, 'societa', 'Holding Alfa S.r.l.');
    await addNode(page, 'societa', 'Holding Beta S.r.l.');
    // Piero Pace is there already: the declared owners are seeded as nodes (without edges).
    assert.ok(await page.locator('[data-nodi]').getByText('Piero Pace').first().isVisible());
    await addNode(page, 'persona_fisica', 'Rita Quaranta');
    const root = 'Cliente Browser S.p.A. (società)';
    const alfa = 'Holding Alfa S.r.l. (società)';
    const beta = 'Holding Beta S.r.l. (società)';

    // A share without its percentage: the message is next to the field, the choices kept.
    const form = page.locator('[data-form-arco]');
    await form.locator('#sa-da_nodo_id').selectOption({ label: alfa });
    await form.locator('#sa-tipo').selectOption('partecipazione');
    await form.locator('#sa-a_nodo_id').selectOption({ label: root });
    await form.locator('button[type=submit]').click();
    await page.waitForLoadState('load');
    assert.equal(await page.locator('#sa-percentuale-err').textContent(), 'Indica la percentuale del capitale detenuta');
    assert.equal(await page.locator('#sa-percentuale').getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'ubo-01-errore-campo');

    await addShare(page, alfa, root, '50');
    await addShare(page, beta, root, '50');
    await addShare(page, beta, alfa, '20');
    await addShare(page, alfa, beta, '10');
    await addShare(page, 'Piero Pace (persona fisica)', alfa, '80');
    await addShare(page, 'Rita Quaranta (persona fisica)', beta, '90');
    assert.equal(await page.locator('[data-archi] tbody tr').count(), 6);
    assert.equal(await page.locator('[data-struttura-grafo] svg g.edge').count(), 6, 'the drawing has every edge');

    await page.locator('[data-form-calcolo] button[type=submit]').click();
    await page.waitForLoadState('load');
    const it = page.locator('[data-titolari="italiano"]');
    assert.match(await it.locator('[data-titolare="Piero Pace"]').textContent() ?? '', /50%/);
    assert.match(await it.locator('[data-titolare="Piero Pace"] [data-percorso]').first().textContent() ?? '',
      /Piero Pace → Holding Alfa S\.r\.l\. → Cliente Browser S\.p\.A\..*controlla Holding Alfa S\.r\.l\. con la maggioranza dei voti \(80%\)/);
    assert.match(await it.locator('[data-titolare="Rita Quaranta"]').textContent() ?? '', /50%/);
    const mu = page.locator('[data-titolari="moltiplicativo"]');
    const piero = await mu.locator('[data-titolare="Piero Pace"]').textContent() ?? '';
    assert.match(piero, /44,898%/);
    assert.match(piero, /22\/49/);
    assert.match(piero, /partecipazioni incrociate/);
    assert.equal(await mu.locator('[data-titolare="Piero Pace"] [data-percorso]').count(), 2, 'the direct path and the one through Beta');
    assert.match(await mu.locator('[data-titolare="Rita Quaranta"]').textContent() ?? '', /55,102%/);
    assert.match(await page.locator('[data-note="moltiplicativo"]').textContent() ?? '', /Partecipazione incrociata/);
    assert.match(await page.locator('[data-differenze]').textContent() ?? '', /Piero Pace.*figure diverse/);
    // Rita Quaranta was not declared.
    assert.match(await page.locator('[data-discrepanze-struttura]').textContent() ?? '', /Rita Quaranta risulta titolare effettivo/);
    await screenshot(page, 'ubo-02-titolari');
    assert.deepEqual(await seriousA11yViolations(page), [], 'the KYB page with its structure has no serious accessibility violation');
    await ctx.close();
  });

  it('no owner by the Italian method and no representative: a warning naming the customer; a share a hair above 25% never reads 25%', async () => {
    const tenant = await env.createTenant();
    const analyst = await env.createUser({ tenant, roles: ['analyst'] });
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-UBOB02', tipo_soggetto: 'societa', denominazione: 'Cliente Soglia S.p.A.', codice_fiscale: '04567890123', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });
    const api = await env.login(analyst);
    const b = await api.post('/api/v1/kyb/verifiche', { cod_anagrafe: 'ANA-UBOB02' });
    assert.equal(b.status, 201, b.text);
    const kyb = b.body.cod_verifica as string;
    // Drawn through the API: what this journey reads is the page's result, not the forms (the first journey uses them).
    const url = `/api/v1/kyb/verifiche/${kyb}/struttura`;
    const root = (await api.get(url)).body.nodi.find((n: { radice: boolean }) => n.radice).id as string;
    const node = async (tipo: string, denominazione: string) => (await api.post(`${url}/nodi`, { tipo, denominazione })).body.id as string;
    const share = async (da: string, a: string, percentuale: number, percentuale_voti?: number) =>
      assert.equal((await api.post(`${url}/archi`, { da_nodo_id: da, a_nodo_id: a, tipo: 'partecipazione', percentuale, percentuale_voti })).status, 201);
    // Neither person controls the holding it is in (40% of the votes), so the Italian method finds nobody;
    // multiplied, Sara Soglia has 66,6667% × 37,5% = 25,0000125% (an owner), Ugo Sotto 66,6666% × 37,5% = 24,999975% (not one).
    const [alfa, beta, sara, ugo] = [await node('societa', 'Alfa Soglia S.r.l.'), await node('societa', 'Beta Sotto S.r.l.'),
      await node('persona_fisica', 'Sara Soglia'), await node('persona_fisica', 'Ugo Sotto')];
    await share(alfa, root, 37.5);
    await share(beta, root, 37.5);
    await share(sara, alfa, 66.6667, 40);
    await share(ugo, beta, 66.6666, 40);

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, analyst);
    await page.goto(`${env.baseUrl}/admin/kyb/${kyb}`);
    await page.locator('[data-form-calcolo] button[type=submit]').click();
    await page.waitForLoadState('load');

    const warning = page.locator('[data-avviso="rappresentanti_mancanti"]');
    assert.ok(await warning.isVisible(), 'the warning is shown');
    const text = (await warning.textContent() ?? '').replace(/\s+/g, ' ');
    assert.match(text, /Mancano i legali rappresentanti o gli amministratori/);
    assert.match(text, /Nessuna persona fisica è titolare effettivo per proprietà o per controllo con il metodo italiano/);
    assert.match(text, /Cliente Soglia S\.p\.A\. \(anagrafe ANA-UBOB02, codice fiscale 04567890123\): nessun legale rappresentante, amministratore o direttore registrato/);
    assert.match(await page.locator('[data-titolari="moltiplicativo"] [data-titolare="Sara Soglia"]').textContent() ?? '', /25,0000125%/);
    const quote = await page.locator('[data-quote]').textContent() ?? '';
    assert.match(quote, /Ugo Sotto.*24,999975%/s);
    assert.doesNotMatch(quote, /(?<![\d,])25%/, 'neither share reads as the threshold');
    await screenshot(page, 'ubo-03-avviso-rappresentanti');
    // The result's card alone, readable at full size beside the whole page.
    await page.locator('[data-calcolo-ubo]').screenshot({ path: join(artifactsDir, 'ubo-03-avviso-rappresentanti-calcolo.png') });
    assert.deepEqual(await seriousA11yViolations(page), [], 'the warning keeps the page free of serious accessibility violations');

    // The legal representative recorded on the page: the fallback names her and the warning is gone.
    await addNode(page, 'persona_fisica', 'Lia Legale');
    const form = page.locator('[data-form-arco]');
    await form.locator('#sa-da_nodo_id').selectOption({ label: 'Lia Legale (persona fisica)' });
    await form.locator('#sa-tipo').selectOption('rappresentante_legale');
    await form.locator('#sa-a_nodo_id').selectOption({ label: 'Cliente Soglia S.p.A. (società)' });
    await form.locator('button[type=submit]').click();
    await page.waitForLoadState('load');
    await page.locator('[data-form-calcolo] button[type=submit]').click();
    await page.waitForLoadState('load');
    assert.equal(await page.locator('[data-avviso]').count(), 0);
    assert.ok(await page.locator('[data-titolari="italiano"] [data-titolare="Lia Legale"]').isVisible());
    await ctx.close();
  });
});
