import { chromium, type Browser, type Page } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/config';
import { nextTotpCode } from './totp';

export const artifactsDir = join(projectRoot, 'test-artifacts', 'screenshots');

const CHROMIUM_PATHS = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];

/** Debian's Chromium, headless, with the network chatter this machine refuses turned off. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = CHROMIUM_PATHS.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium not found: `npm run setup` installs the Debian package chromium');
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
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
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
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
