import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { createViews } from '../../src/http/views';
import { launchBrowser, screenshot, seriousA11yViolations, signInWithTotp } from '../helpers/browser';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import { seedCases, seedMatches, seedOnboarding } from '../helpers/chart-seeds';

/** Waits until ECharts has drawn the chart into its SVG, and returns what the drawing says to assistive technology. */
async function drawn(page: Page, id: string): Promise<string> {
  await page.locator(`#${id}[data-chart-ready] .chart-canvas svg`).first().waitFor({ timeout: 20_000 });
  assert.equal(await page.locator(`#${id} .chart-canvas`).isVisible(), true);
  assert.equal(await page.locator(`#${id} details.chart-data`).getAttribute('open'), null, 'the table folds under "Dati del grafico" once drawn');
  return (await page.locator(`#${id} .chart-canvas`).getAttribute('aria-label')) ?? '';
}

/**
 * The charts as people see them: drawn by public/js/charts.js with ECharts under the app's
 * Content-Security-Policy, described in Italian for screen readers, the table one click away;
 * without JavaScript the table is the content. Screenshots kept (charts-*.png), axe clean.
 */
describe('browser: charts', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: Browser;
  // One user per test: a TOTP code signs in once (test/helpers/totp.ts).
  let officers: TestUser[];

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
    const tenant = await env.createTenant();
    officers = await Promise.all([1, 2, 3].map(() => env.createUser({ tenant, roles: ['co'] })));
    const weeks = [0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 5, 6, 8, 8, 10, 11];
    await seedMatches(env.ownerDb, tenant, weeks.map((w, i) => ({
      list: ['eu_fsf', 'us_ofac_sdn_2021_07', 'un_sc_sanctions', 'gb_hmt_sanctions', 'eu_fsf'][i % 5]!, stato: ['open', 'assigned', 'false_positive', 'true_match'][i % 4]!, weeksAgo: w,
    })));
    await seedCases(env.ownerDb, tenant, [
      ...Array.from({ length: 7 }, (_, i) => ({ stato: 'open', overdue: i < 2 })), { stato: 'escalated', overdue: true }, { stato: 'closing', overdue: false },
      ...Array.from({ length: 4 }, () => ({ stato: 'closed', overdue: false })),
    ]);
    await seedOnboarding(env.ownerDb, tenant, [0, 0, 1, 2, 2, 2, 4, 7, 9].map((w, i) => ({ stato: ['in_review', 'submitted', 'approved', 'draft'][i % 4]!, weeksAgo: w })));
  });
  after(async () => { await browser?.close(); });

  it('draws the screening dashboard, the cases list and the onboarding list; no CSP violation, axe clean', async () => {
    const ctx = await browser.newContext({ locale: 'it-IT', viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    const problems: string[] = [];
    // A resource that fails is reported below with its address; the console line says only its status.
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`); });
    await signInWithTotp(page, env.baseUrl, officers[0]!);

    await page.goto(`${env.baseUrl}/admin/screening`);
    assert.match(await drawn(page, 'grafico-corrispondenze-settimana'), /^Grafico a barre sovrapposte: Corrispondenze per settimana \(ultime 12\)\. Aperta: /);
    assert.match(await drawn(page, 'grafico-corrispondenze-lista'), /UE, sanzioni finanziarie \(FSF\) 7/);
    await screenshot(page, 'charts-screening');
    assert.deepEqual(await seriousA11yViolations(page), []);
    // The table is one click away, and passes axe too.
    await page.locator('#grafico-corrispondenze-lista summary').click();
    await page.locator('#grafico-corrispondenze-settimana summary').click();
    await page.getByRole('rowheader', { name: 'OFAC SDN (USA), luglio 2021' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.goto(`${env.baseUrl}/casi`);
    assert.match(await drawn(page, 'grafico-casi-stato'), /Aperto 7, Escalato 1, In chiusura 1, Chiuso 4/);
    assert.match(await drawn(page, 'grafico-casi-sla'), /In ritardo 3, Nei termini 6/);
    await screenshot(page, 'charts-casi');
    assert.deepEqual(await seriousA11yViolations(page), []);
    // The filters swap the table; the charts stay drawn.
    await page.locator('#f-stato').selectOption('open');
    await page.waitForURL(/stato=open/);
    assert.equal(await page.locator('#grafico-casi-stato .chart-canvas svg').count(), 1);

    await page.goto(`${env.baseUrl}/admin/onboarding/cases`);
    await drawn(page, 'grafico-pratiche-stato');
    await drawn(page, 'grafico-pratiche-settimana');
    await screenshot(page, 'charts-onboarding');
    assert.deepEqual(await seriousA11yViolations(page), []);

    // Resizing the window redraws at the new width.
    await page.setViewportSize({ width: 900, height: 900 });
    const box = page.locator('#grafico-pratiche-settimana .chart-canvas');
    let widths: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      widths = [Number(await box.locator('svg').getAttribute('width')), Math.round((await box.boundingBox())!.width)];
      if (Math.abs(widths[0]! - widths[1]!) < 2) break;
      await page.waitForTimeout(250);
    }
    assert.ok(Math.abs(widths[0]! - widths[1]!) < 2, `drawing ${widths[0]} px wide in a box of ${widths[1]} px`);
    assert.deepEqual(problems, [], 'no script error and no Content-Security-Policy violation');
    await ctx.close();
  });

  it('draws a heatmap that arrives in an htmx swap', async () => {
    const ctx = await browser.newContext({ locale: 'it-IT', viewport: { width: 1200, height: 900 } });
    const page = await ctx.newPage();
    await signInWithTotp(page, env.baseUrl, officers[1]!);
    await page.goto(`${env.baseUrl}/casi`);
    await drawn(page, 'grafico-casi-stato');
    const fragment = createViews().renderString('{% from "macros/chart.njk" import chart %}{{ chart(p) }}', { p: {
      id: 'grafico-rischio', title: 'Clienti per classe di rischio e tipo', kind: 'heatmap', categories: ['Basso', 'Medio', 'Alto'],
      yCategories: ['Persona fisica', 'Ditta individuale', 'Società'], unit: 'clienti', table: { header: 'Tipo di cliente' },
      series: [{ name: 'Clienti', tone: 'red', data: [[0, 0, 1520], [1, 0, 310], [2, 0, 12], [0, 1, 240], [1, 1, 64], [0, 2, 410], [1, 2, 95], [2, 2, 18]] }],
    } });
    // What an htmx swap does: new content in the page, then htmx:afterSwap.
    await page.locator('#contenuto').evaluate((main: any, html: string) => {
      main.insertAdjacentHTML('afterbegin', `<div id="scambio">${html}</div>`);
      main.firstElementChild.dispatchEvent(new main.ownerDocument.defaultView.CustomEvent('htmx:afterSwap', { bubbles: true }));
    }, fragment);
    assert.match(await drawn(page, 'grafico-rischio'), /^Mappa di calore: Clienti per classe di rischio e tipo\. Persona fisica, Basso: 1\.520; /);
    await page.locator('#grafico-rischio').scrollIntoViewIfNeeded();
    await page.locator('#grafico-rischio').screenshot({ path: (await import('node:path')).join((await import('../helpers/browser')).artifactsDir, 'charts-heatmap.png') });
    assert.deepEqual(await seriousA11yViolations(page), []);
    await ctx.close();
  });

  it('without JavaScript shows each chart\'s data as a table', async () => {
    const ctx = await browser.newContext({ locale: 'it-IT', javaScriptEnabled: false });
    const page = await ctx.newPage();
    // Sign in through the forms: they post without JavaScript.
    await signInWithTotp(page, env.baseUrl, officers[2]!);
    await page.goto(`${env.baseUrl}/admin/screening`);
    const table = page.locator('#grafico-corrispondenze-settimana table');
    assert.equal(await table.isVisible(), true);
    assert.equal(await page.locator('#grafico-corrispondenze-settimana .chart-canvas').isVisible(), false);
    assert.equal(await table.locator('tbody tr').count(), 12);
    // axe needs scripts; the same tables, opened, pass it in the first test.
    await screenshot(page, 'charts-senza-js');
    await ctx.close();
  });
});
