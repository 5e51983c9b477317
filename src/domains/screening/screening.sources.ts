import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defaultSanctionsDir, loadOpenSanctionsFixtures, readUkXlsx } from './lib/load-all';
import type { ListEntry } from './lib/types';
import { importOfacCsvDir } from './lib/importers/ofac-csv';
import { importUnXmlFile } from './lib/importers/un-xml';
import { importEuXmlFile } from './lib/importers/eu-xml';
import { importCryptoDir } from './lib/importers/crypto';

/** One list found in the data directory: its name (as loadAllLists names it) and how to load it. */
export interface ListSource {
  list: string;
  /** Directory or file, relative to the data directory. */
  path: string;
  load: () => ListEntry[] | Promise<ListEntry[]>;
}

export const sanctionsDataDir = () => defaultSanctionsDir();

const files = (dir: string, re: RegExp) => (existsSync(dir) ? readdirSync(dir).filter((f) => re.test(f)).sort() : []);

/**
 * The same lists and names as lib/load-all.ts, one at a time, so the import can record
 * progress (and one list's failure names that list). When a folder holds several files the
 * last one (by name, so the newest dated publication) is the list.
 */
export function listSources(dataDir = sanctionsDataDir()): ListSource[] {
  const out: ListSource[] = [];
  const rel = (p: string) => relative(dataDir, p) || '.';
  for (const d of files(dataDir, /^ofac-\d{4}-\d{2}$/)) {
    const p = join(dataDir, d);
    out.push({ list: `us_ofac_sdn_${d.slice(5).replace('-', '_')}`, path: rel(p), load: () => importOfacCsvDir(p, `us_ofac_sdn_${d.slice(5).replace('-', '_')}`) });
  }
  const last = (dir: string, re: RegExp) => { const f = files(dir, re); return f.length ? join(dir, f[f.length - 1]!) : undefined; };
  const un = last(join(dataDir, 'un'), /\.xml$/i);
  if (un) out.push({ list: 'un_sc_sanctions', path: rel(un), load: () => importUnXmlFile(un) });
  const uk = last(join(dataDir, 'uk'), /\.xlsx$/i);
  if (uk) out.push({ list: 'gb_hmt_sanctions', path: rel(uk), load: async () => (await (await readUkXlsx()).parseUkXlsx(uk)).entries });
  const eu = last(join(dataDir, 'eu'), /\.xml$/i);
  if (eu) out.push({ list: 'eu_fsf', path: rel(eu), load: () => importEuXmlFile(eu) });
  const crypto = join(dataDir, 'crypto');
  if (existsSync(join(crypto, 'ofac_crypto_addresses_union.txt'))) out.push({ list: 'us_ofac_crypto', path: rel(crypto), load: () => importCryptoDir(crypto) });
  const os = join(dataDir, 'opensanctions', 'yente_fixtures');
  if (existsSync(os)) out.push({ list: 'opensanctions', path: rel(os), load: () => loadOpenSanctionsFixtures(os) });
  return out;
}

/** Hash of the source bytes (every file under the path): an unchanged source is skipped cheaply. */
export function sourceHash(dataDir: string, path: string): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
    else h.update(relative(dataDir, p)).update('\0').update(readFileSync(p));
  };
  walk(join(dataDir, path));
  return h.digest('hex');
}

const LOAD_PROCESS = join(dirname(fileURLToPath(import.meta.url)), 'list-load-process.ts');

/**
 * One list read in a child process: the parsers' peak (about 300 MB of heap for the UK
 * workbook) stays there and leaves with it, instead of staying resident in the worker that
 * also runs the workflows and, under `npm start`, the web. Only the entries come back.
 */
export function loadListApart(dataDir: string, list: string): Promise<ListEntry[]> {
  return new Promise((resolve, reject) => {
    // tsx resolved from here, not from wherever the process was started.
    const child = fork(LOAD_PROCESS, [dataDir, list], { execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answered = false;
    child.once('message', (m: { entries?: ListEntry[]; error?: string }) => {
      answered = true;
      if (m.entries) resolve(m.entries); else reject(new Error(m.error ?? `list ${list} not read`));
    });
    child.once('error', reject);
    child.once('exit', (code) => { if (!answered) reject(new Error(`reading list ${list} ended with exit code ${code}`)); });
  });
}
