import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListEntry } from './types';
import { importOfacCsvDir } from './importers/ofac-csv';
import { importUnXmlFile } from './importers/un-xml';
import { importEuXmlFile } from './importers/eu-xml';
import { importCryptoDir } from './importers/crypto';
import { applyFtmDeltas, ftmToEntries, readFtmDeltaFile, readFtmFile, type FtmEntity } from './importers/opensanctions-ftm';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The workbook reader (exceljs, about 17 MB once loaded) only when a UK list is read: the
 * processes that import these modules for the other lists' names never need it.
 */
export const readUkXlsx = () => import('./importers/uk-xlsx');

export function defaultSanctionsDir(): string {
  return resolve(PROJECT_ROOT, process.env.SANCTIONS_DATA_DIR ?? '../shared/data/sanctions');
}

export interface LoadedLists {
  /** list name -> entries */
  lists: Record<string, ListEntry[]>;
  entries: ListEntry[];
  /** list name -> milliseconds spent importing it */
  timings: Record<string, number>;
}

const files = (dir: string, re: RegExp) => (existsSync(dir) ? readdirSync(dir).filter((f) => re.test(f)).sort() : []);

/**
 * Imports every list found under the sanctions data directory. Each OFAC dated set is its own
 * list (ofac-2021-07 -> us_ofac_sdn_2021_07) so that diffLists can compare two publications.
 */
export async function loadAllLists(dataDir: string = defaultSanctionsDir()): Promise<LoadedLists> {
  const lists: Record<string, ListEntry[]> = {};
  const timings: Record<string, number> = {};
  const timed = async (name: string, load: () => ListEntry[] | Promise<ListEntry[]>) => {
    const t = performance.now();
    lists[name] = await load();
    timings[name] = Math.round(performance.now() - t);
  };
  for (const d of files(dataDir, /^ofac-\d{4}-\d{2}$/)) {
    const name = `us_ofac_sdn_${d.slice(5).replace('-', '_')}`;
    await timed(name, () => importOfacCsvDir(join(dataDir, d), name));
  }
  for (const f of files(join(dataDir, 'un'), /\.xml$/i)) await timed('un_sc_sanctions', () => importUnXmlFile(join(dataDir, 'un', f)));
  for (const f of files(join(dataDir, 'uk'), /\.xlsx$/i)) {
    await timed('gb_hmt_sanctions', async () => (await (await readUkXlsx()).parseUkXlsx(join(dataDir, 'uk', f))).entries);
  }
  for (const f of files(join(dataDir, 'eu'), /\.xml$/i)) await timed('eu_fsf', () => importEuXmlFile(join(dataDir, 'eu', f)));
  if (existsSync(join(dataDir, 'crypto', 'ofac_crypto_addresses_union.txt'))) {
    await timed('us_ofac_crypto', () => importCryptoDir(join(dataDir, 'crypto')));
  }
  const os = join(dataDir, 'opensanctions', 'yente_fixtures');
  if (existsSync(os)) {
    await timed('opensanctions', () => loadOpenSanctionsFixtures(os));
  }
  return { lists, entries: Object.values(lists).flat(), timings };
}

/** Entity files as they are, plus t1 entities brought forward through the t2 delta files in index order. */
export function loadOpenSanctionsFixtures(dir: string): ListEntry[] {
  const entities: FtmEntity[] = [];
  for (const f of files(dir, /\.ftm\.json$/)) {
    if (f.startsWith('t1_')) continue;
    entities.push(...readFtmFile(join(dir, f)));
  }
  const t1 = join(dir, 't1_entities.ftm.json');
  if (existsSync(t1)) {
    let state = new Map(readFtmFile(t1).map((e) => [e.id, e]));
    const deltaDir = join(dir, 't2_deltas');
    const index = join(deltaDir, 'delta_index.json');
    const versions = existsSync(index)
      ? Object.keys((JSON.parse(readFileSync(index, 'utf8')) as { versions: Record<string, string> }).versions).sort()
      : [];
    for (const v of versions) {
      const f = join(deltaDir, `${v}.entities.delta.json`);
      if (existsSync(f)) state = applyFtmDeltas(state, readFtmDeltaFile(f));
    }
    entities.push(...state.values());
  }
  return ftmToEntries(entities, 'opensanctions');
}
