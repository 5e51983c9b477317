import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { withTenant } from '../../src/db/tenant';
import { activeRuleSet } from '../../src/domains/risk';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { expectAccessible, launchBrowser, screenshot, signInWithTotp } from '../helpers/browser';

describe('browser: a dry run of a draft rule set on /rischio/scenari, then the portfolio recalculated', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('the officer simulates the draft, reads who changes class and why, and recalculates with the active version', async () => {
    const tenant = await env.createTenant();
    const co = await env.createUser({ tenant, roles: ['co'] });
    await env.ownerDb('anagrafe').insert([
      { cod: 'ANA-000001', tipo: 'persona_fisica', nome: 'Giulia Verdi', classe: 'basso' },
      { cod: 'ANA-000002', tipo: 'societa', nome: 'Ceramiche Sassolesi S.r.l.', classe: 'basso' },
      { cod: 'ANA-000003', tipo: 'societa', nome: 'Trasporti Emiliani S.p.A.', classe: 'medio' },
    ].map((c) => ({ cod_azienda: tenant, cod_anagrafe: c.cod, tipo_soggetto: c.tipo, denominazione: c.nome, classe_rischio: c.classe, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' })));
    // The draft: companies weigh 25 points instead of 10.
    const active = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => activeRuleSet(trx, tenant));
    const draftId = randomUUID();
    await env.ownerDb('rischio_versioni').insert({ id: draftId, cod_azienda: tenant, versione: active.versione + 1, stato: 'draft', descrizione: 'Società più pesanti', basata_su: active.id, created_by: 'test' });
    const rules = await env.ownerDb('rischio_regole').where({ versione_id: active.id });
    await env.ownerDb('rischio_regole').insert(rules.map((r) => ({ ...r, id: randomUUID(), versione_id: draftId, condizione: JSON.stringify(r.condizione), punti: r.codice === 'tipo_societa' ? 25 : r.punti })));

    const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, co);
    await page.getByRole('link', { name: 'Scenari' }).first().click();
    await page.waitForURL(/\/rischio\/scenari$/);
    await expectAccessible(page, 'scenarios, no run yet');
    await page.getByLabel('Versione da simulare').selectOption(draftId);
    await page.getByRole('button', { name: 'Avvia la simulazione' }).click();
    await page.waitForURL(/esecuzione=/);
    // The progress refreshes itself (htmx) until the run ends.
    await page.waitForSelector('#scenario-run[data-run-stato="completed"]', { timeout: 120_000 });
    assert.equal(await page.locator('[data-count="cambi"]').innerText(), '1');
    assert.equal(await page.locator('[data-matrice] td[data-da="basso"][data-a="medio"]').innerText(), '1');
    const row = page.locator('tr[data-cliente="ANA-000002"]');
    assert.match(await row.innerText(), /Ceramiche Sassolesi[\s\S]*Basso[\s\S]*Medio[\s\S]*società[^\n]*non applicata → 25 punti/);
    assert.equal(await page.locator('tr[data-cliente="ANA-000003"]').count(), 0, 'already medio: not among the changes');
    await screenshot(page, 'risk-batch-01-simulazione');
    await expectAccessible(page, 'dry run results');
    await row.getByRole('link', { name: 'Fascicolo' }).click();
    await page.waitForURL(/\/anagrafe\/ANA-000002\/dossier$/);
    await page.goBack();

    // Nothing changed: the recalculation is the active version's, through a confirmation.
    const dryRunUrl = page.url();
    await page.getByText('Ricalcola il portafoglio…').click();
    await page.getByRole('button', { name: 'Avvia il ricalcolo' }).click();
    await page.waitForURL((u) => u.href !== dryRunUrl && u.searchParams.has('esecuzione'));
    await page.waitForSelector('#scenario-run[data-run-stato="completed"]', { timeout: 120_000 });
    assert.match(await page.locator('#scenario-run-title').innerText(), /Ricalcolo del portafoglio/);
    assert.equal(await page.locator('[data-count="cambi"]').innerText(), '1', 'the company at medio is basso with the active rules');
    assert.equal(await page.locator('[data-count="valutazioni"]').innerText(), '1');
    await screenshot(page, 'risk-batch-02-ricalcolo');
    await expectAccessible(page, 'recalculation');
    await ctx.close();
  });
});
