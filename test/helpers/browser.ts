import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/config';
import { atRunEnd } from './run-end';
import { nextTotpCode } from './totp';

export const artifactsDir = join(projectRoot, 'test-artifacts', 'screenshots');

const CHROMIUM_PATHS = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];

/** Debian's Chromium, headless, with the network chatter this machine refuses turned off: a new browser process. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = CHROMIUM_PATHS.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium not found: `npm run setup` installs the Debian package chromium');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

let shared: Promise<Browser> | undefined;

/** The run's one Chromium process, launched on first use (again if it went away), closed when the run ends. */
async function sharedChromium(): Promise<Browser> {
  const current = shared && await shared.catch(() => undefined);
  if (current?.isConnected()) return current;
  if (!shared) atRunEnd(async () => { const b = shared && await shared.catch(() => undefined); shared = undefined; await b?.close(); });
  shared = launchChromium();
  return shared;
}

/**
 * A browser for one test file. Chromium is launched once per run (a launch costs seconds) and
 * each caller gets a handle of its own on it: the contexts it opens (`newContext`, `newPage`)
 * are its own, isolated from every other file's like in a browser of their own (cookies,
 * storage, cache), `contexts()` lists only them, and `close()` closes them and leaves the
 * process to the next file. Everything else is the Browser's.
 */
export async function launchBrowser(): Promise<Browser> {
  const real = await sharedChromium();
  const own = new Set<BrowserContext>();
  const track = (ctx: BrowserContext) => { own.add(ctx); ctx.once('close', () => own.delete(ctx)); return ctx; };
  let closed = false;
  const handle: Partial<Browser> = {
    async newContext(options) {
      if (closed) throw new Error('browser has been closed');
      return track(await real.newContext(options));
    },
    async newPage(options) {
      if (closed) throw new Error('browser has been closed');
      const page = await real.newPage(options);
      track(page.context());
      return page;
    },
    contexts: () => [...own],
    isConnected: () => !closed && real.isConnected(),
    async close() {
      closed = true;
      await Promise.all([...own].map((c) => c.close().catch(() => undefined)));
      own.clear();
    },
  };
  return new Proxy(real, {
    get(target, prop) {
      if (Object.prototype.hasOwnProperty.call(handle, prop)) return handle[prop as keyof Browser];
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Screenshots of the key journeys are kept as test artefacts (test-artifacts/screenshots). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe-core on the page as it is: the serious and critical violations, as "rule: target" lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  // A button just clicked is still fading into its hover colours: measured mid-transition its
  // contrast is neither state's. Axe reads the settled page (finite animations ended, at most 2 s).
  await page.evaluate(`Promise.race([
    Promise.all(document.getAnimations()
      .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, 2000)),
  ])`);
  // Only the violations' nodes are collected: the passes' and incompletes' details (most of axe's
  // time on a large page) are never read here. Every rule still runs.
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** Fails with the page's name when axe finds a serious or critical violation on it. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousA11yViolations(page), [], `${what}: no serious accessibility violation`);
}

/** Signs a user with TOTP already enrolled in through the pages: password, then the current code. */
export async function signInWithTotp(page: Page, baseUrl: string, user: { username: string; password: string; totpSecret: string }): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Nome utente').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(/\/totp\/verify/);
  await page.locator('form input[name="code"]').fill(nextTotpCode(user.totpSecret));
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/totp'));
}
