import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * The staff home as a compliance officer opens it: the work assigned to them, the four-eyes
 * confirmations waiting for them, what is late, the areas' counts; and the page of an area not
 * built yet. Screenshots kept; axe finds no serious or critical violation.
 */
describe('browser: the staff home dashboard', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let browser: Browser;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); });

  it('shows a compliance officer what waits for them, with links to the filtered lists', async () => {
    const tenant = await env.createTenant();
    const [co, colleague] = await Promise.all([env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['co', 'analyst'] })]);
    const day = 86_400_000;
    const cases = [
      { titolo: 'Versamenti frazionati in contanti', assegnatario: co.cod_utente, priorita: 'alta' },
      { titolo: 'Bonifici verso giurisdizione ad alto rischio', assegnatario: co.cod_utente, stato: 'escalated', overdue: true, sla_due_at: new Date(Date.now() - 3 * day) },
      { titolo: 'Cliente con titolare effettivo non verificato', stato: 'closing', closing_requested_by: colleague.cod_utente, esito: 'archiviato', motivazione_chiusura: 'Documenti acquisiti' },
      { titolo: 'Operazioni anomale su conto dormiente' },
    ];
    for (const c of cases) {
      await env.ownerDb('cases').insert({
        id: randomUUID(), cod_azienda: tenant, tipo: 'indagine', priorita: 'media', stato: 'open', opened_by: colleague.username, sla_days: 30,
        sla_due_at: new Date(Date.now() + 20 * day), overdue: false, workflow_id: `case:${randomUUID()}`, ...c,
      });
    }
    await env.ownerDb('onboarding_cases').insert({
      id: randomUUID(), cod_azienda: tenant, stato: 'pending_second_approval', tipo_soggetto: 'societa', email: 'amministrazione@example.test',
      anagrafe: { denominazione: 'Rossi Trasporti S.r.l.' }, workflow_id: `onboarding:${randomUUID()}`, approved_by: colleague.cod_utente, approved_by_username: colleague.username,
    });

    const ctx = await browser.newContext({ locale: 'it-IT', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, co);
    await page.goto(`${env.baseUrl}/`);
    await page.getByRole('heading', { name: 'Conferme in attesa di te' }).waitFor();
    const mine = page.locator('[data-home-tile="cases:assigned"]');
    assert.equal(await mine.locator('[data-count]').textContent(), '2');
    assert.equal(await page.locator('[data-home-tile="cases:four-eyes"] [data-count]').textContent(), '1');
    assert.equal(await page.locator('[data-home-tile="onboarding:four-eyes"] [data-count]').textContent(), '1');
    assert.equal(await page.locator('[data-home-tile="cases:due"] [data-count]').textContent(), '1');
    await screenshot(page, 'home-01-dashboard');
    assert.deepEqual(await seriousA11yViolations(page), []);

    // The tile is a link to the list filtered to the same cases.
    await mine.getByRole('link', { name: 'Casi assegnati a te' }).click();
    await page.waitForURL(/\/casi\?assegnatario=me/);
    assert.equal(await page.locator('#casi-tabella tbody tr').count(), 2);
    await screenshot(page, 'home-02-casi-assegnati');

    // An area not built yet: marked in the navigation, and its page names it.
    await page.goto(`${env.baseUrl}/`);
    await page.getByRole('link', { name: /Rimediazioni\s+in preparazione/ }).click();
    await page.getByText('Rimediazioni: area in preparazione').waitFor();
    assert.match(await page.content(), /sezione Governance/);
    await screenshot(page, 'home-03-area-in-preparazione');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await ctx.close();
  });
});
