import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifactsDir, launchBrowser, screenshot, seriousA11yViolations } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { coveredBy, NOT_PAGES, openInBrowser, seedPageCatalogue, type PageCatalogue } from '../helpers/page-catalogue';

/**
 * Every built page, as its person sees it in Chromium at 1440×900: the answer it should give,
 * a screenshot kept as an artefact (test-artifacts/screenshots/page-*.png), and axe with no
 * serious or critical violation. The axe results are written to
 * test-artifacts/axe-every-page.json.
 */
describe('browser: every built page has a screenshot and passes axe', function () {
  this.timeout(900_000);
  let env: TestEnv;
  let browser: Browser;
  let catalogue: PageCatalogue;

  before(async () => {
    env = await getTestEnv();
    browser = await launchBrowser();
    catalogue = await seedPageCatalogue(env);
  });
  after(async () => { await browser?.close(); });

  it('the catalogue opens every page the application registers', () => {
    const missing = env.routes
      .filter((r) => r.kind === 'page' && r.method === 'GET' && !(r.path in NOT_PAGES))
      .filter((r) => !coveredBy(r.path, catalogue.pages))
      .map((r) => r.path);
    assert.deepEqual(missing, [], 'pages with no catalogue entry (test/helpers/page-catalogue.ts)');
  });

  it('answers, is drawn and passes axe, page after page', async () => {
    // The pages of one staff member share a browser context (one sign-in); every other visitor
    // gets a fresh context per page. Two lanes take whole groups side by side: axe is most of
    // the time and runs in the browser, so the second core is used while the first lane waits.
    const groups = new Map<string, PageCatalogue['pages']>();
    catalogue.pages.forEach((entry, i) => {
      const key = entry.visitor.kind === 'staff' ? `staff:${entry.visitor.user.username}` : `page:${i}`;
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    });
    const queue = [...groups.values()];
    const report: { name: string; path: string; status: number | undefined; violations: string[]; ms: Record<string, number> }[] = [];
    const problems: string[] = [];
    const lane = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        let ctx: BrowserContext | undefined;
        let page: Page | undefined;
        for (const entry of group) {
          const t0 = Date.now();
          if (!ctx || entry.visitor.kind !== 'staff') {
            await ctx?.close();
            ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
            page = await ctx.newPage();
          }
          // A page that throws (a screenshot timing out, a navigation failing) is one problem of
          // the report, not the end of the walk: the others are still checked and timed.
          try {
            const status = await openInBrowser(env, page!, entry);
            const t1 = Date.now();
            await screenshot(page!, `page-${entry.name}`);
            const t2 = Date.now();
            const violations = await seriousA11yViolations(page!);
            report.push({ name: entry.name, path: entry.path, status, violations, ms: { open: t1 - t0, screenshot: t2 - t1, axe: Date.now() - t2 } });
            if (status !== (entry.status ?? 200)) problems.push(`${entry.name} (${entry.path}): status ${status}, expected ${entry.status ?? 200}`);
            for (const v of violations) problems.push(`${entry.name} (${entry.path}): ${v}`);
          } catch (err) {
            problems.push(`${entry.name} (${entry.path}): ${(err as Error).message.split('\n')[0]}`);
            await ctx?.close().catch(() => undefined);
            ctx = undefined;
          }
        }
        await ctx?.close();
      }
    };
    await Promise.all([lane(), lane()]);
    const order = new Map(catalogue.pages.map((e, i) => [e.name, i]));
    report.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
    mkdirSync(artifactsDir, { recursive: true });
    writeFileSync(join(artifactsDir, '..', 'axe-every-page.json'), `${JSON.stringify(report, null, 2)}\n`);
    assert.deepEqual(problems, []);
  });
});
