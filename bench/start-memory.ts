/**
 * Memory of `npm start` (benchmark, not a test): RSS of the main Node process (web and worker;
 * PostgreSQL, Temporal and the mail server are its children and not counted) idle once the lists
 * are imported, once the sanctions matcher is loaded, with N open case workflows, and after every
 * list page has been opened. One JSON object per line.
 *
 *   npm run bench:memory -- [--cases 1000] [--project DIR] [--data DIR]
 *
 * --project runs another checkout's src/main.ts (for a before / after comparison); --data reuses
 * a data directory (its lists already imported) instead of a new one.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/config';
import { openCases, openPages } from './lib/open-cases';
import { startPlatform } from './lib/platform-process';
import { waitForListImport } from './lib/list-import';
import { settledRss, toMB } from './lib/rss';
import { signIn } from './lib/sign-in';

const LIST_PAGES = ['/', '/casi', '/screening', '/admin/screening/matches', '/admin/screening/import', '/admin/onboarding/cases', '/notifiche', '/audit/eventi', '/organizzazione/utenti'];

const { values } = parseArgs({ options: { cases: { type: 'string', default: '1000' }, project: { type: 'string' }, data: { type: 'string' } } });
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
const projectDir = resolve(values.project ?? projectRoot);
const dataDir = values.data ? resolve(values.data) : mkdtempSync(join(tmpdir(), 'cp-memory-'));
mkdirSync(dataDir, { recursive: true });
// Embedded PostgreSQL runs as its own user when started by root: it must reach its folder.
chmodSync(dataDir, 0o755);

// The demo tenant without its labelled year (SEED_DEMO_YEAR): idle means idle, not importing a year in the background.
const platform = await startPlatform({ projectDir, dataDir, env: { SEED_DEMO_YEAR: '0' }, log: (l) => { if (/error|fail/i.test(l)) process.stderr.write(`${l}\n`); } });
try {
  const step = async (name: string, extra: Record<string, unknown> = {}) => {
    const m = await settledRss(platform.pid);
    out({ metric: 'rss', step: name, rssMB: toMB(m.rss), lowestMB: toMB(m.lowest), peakMB: toMB(m.peak), anonMB: toMB(m.anon), settledAfterMs: m.waitedMs, ...extra });
  };
  out({ metric: 'start', projectDir, dataDir, pid: platform.pid });
  // A kept data directory has the user enrolled already: its secret is kept beside the data.
  const secretFile = join(dataDir, 'bench-totp-co.txt');
  const known = existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : undefined;
  const { client, totpSecret } = await signIn(platform.baseUrl, { username: 'co', password: platform.demoPassword(), totpSecret: known });
  writeFileSync(secretFile, totpSecret, { mode: 0o600 });
  const t0 = Date.now();
  await waitForListImport(client);
  await step('idle, lists imported', { importWaitMs: Date.now() - t0 });
  const screened = await client.post('/api/v1/screening/run', { nome: 'Mario Rossi', tipo: 'person' });
  if (screened.status !== 200) throw new Error(`screening answered ${screened.status}: ${screened.text.slice(0, 200)}`);
  await step('matcher loaded (one screening)');
  const n = Number(values.cases);
  const opened = await openCases(client, n);
  await step(`${n} open case workflows`, { openMs: opened.ms, retried: opened.retries });
  const pages = await openPages(client, LIST_PAGES);
  await step('list pages opened', { pages });
} finally {
  await platform.stop();
  if (!values.data) rmSync(dataDir, { recursive: true, force: true });
}
