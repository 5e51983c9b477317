import type { Knex } from 'knex';
import { diffLists, entryHash } from './lib/diff-lists';
import { Screener } from './lib/match/screener';
import type { ListEntry } from './lib/types';

/**
 * The sanctions lists as stored in PostgreSQL: one version row per import of a list and one
 * row per entry. Platform tables (no tenant): any transaction may read them.
 */

export interface ListVersionRow {
  id: number;
  list_name: string;
  source_path: string;
  content_hash: string;
  entry_count: number;
  added: number;
  modified: number;
  removed: number;
  import_run_id: string | null;
  imported_at: Date;
}

export async function latestVersions(trx: Knex | Knex.Transaction): Promise<ListVersionRow[]> {
  const r = await trx.raw('select distinct on (list_name) * from screening_list_versions order by list_name, id desc');
  return (r.rows as ListVersionRow[]).map((v) => ({ ...v, id: Number(v.id) }));
}

/** Entries present in the latest version of each list. */
export async function currentEntries(trx: Knex | Knex.Transaction, list?: string): Promise<ListEntry[]> {
  const rows = await trx('screening_list_entries as e')
    .join(trx.raw('(select distinct on (list_name) id, list_name from screening_list_versions order by list_name, id desc) as v'), function () {
      this.on('e.list_name', '=', 'v.list_name').andOn('e.last_version_id', '=', 'v.id');
    })
    .modify((q) => { if (list) q.where('e.list_name', list); })
    .select('e.data');
  return rows.map((r: { data: ListEntry }) => r.data);
}

/** Entries added or modified by the given versions: what a delta re-screen compares against. */
export async function changedEntries(trx: Knex | Knex.Transaction, versionIds: number[]): Promise<ListEntry[]> {
  if (!versionIds.length) return [];
  const rows = await trx('screening_list_entries').whereIn('changed_version_id', versionIds).select('data');
  return rows.map((r: { data: ListEntry }) => r.data);
}

export async function getEntry(trx: Knex | Knex.Transaction, list: string, entryId: string): Promise<ListEntry | undefined> {
  const row = await trx('screening_list_entries').where({ list_name: list, entry_id: entryId }).first('data');
  return row?.data as ListEntry | undefined;
}

const chunks = <T>(a: T[], n: number) => Array.from({ length: Math.ceil(a.length / n) }, (_, i) => a.slice(i * n, i * n + n));

/**
 * Stores one imported list as a new version: diffLists against the stored current entries,
 * upserts added and modified entries, moves unchanged ones to the new version. Removed
 * entries keep their older last_version_id, which is what hides them.
 */
export async function storeListVersion(trx: Knex.Transaction, p: {
  list: string; sourcePath: string; contentHash: string; entries: ListEntry[]; runId: string | null;
}): Promise<{ versionId: number; added: number; modified: number; removed: number }> {
  const before = await currentEntries(trx, p.list);
  const diff = diffLists(before, p.entries);
  const [v] = await trx('screening_list_versions').insert({
    list_name: p.list, source_path: p.sourcePath, content_hash: p.contentHash, entry_count: p.entries.length,
    added: diff.added.length, modified: diff.modified.length, removed: diff.removed.length, import_run_id: p.runId,
  }).returning('id');
  const versionId = Number((v as { id: number }).id);
  const changed = [...diff.added, ...diff.modified.map((m) => m.after)];
  for (const part of chunks(changed, 500)) {
    await trx('screening_list_entries').insert(part.map((e) => ({
      list_name: p.list, entry_id: e.id, content_hash: entryHash(e), data: JSON.stringify(e),
      first_version_id: versionId, last_version_id: versionId, changed_version_id: versionId,
    }))).onConflict(['list_name', 'entry_id']).merge(['content_hash', 'data', 'last_version_id', 'changed_version_id']);
  }
  const changedIds = new Set(changed.map((e) => e.id));
  const unchanged = p.entries.filter((e) => !changedIds.has(e.id)).map((e) => e.id);
  for (const part of chunks(unchanged, 5000)) {
    await trx('screening_list_entries').where('list_name', p.list).whereIn('entry_id', part).update({ last_version_id: versionId });
  }
  return { versionId, added: diff.added.length, modified: diff.modified.length, removed: diff.removed.length };
}

/** Entry hash as the matches record it (the library's, so a changed entry is a new pair). */
export { entryHash };

type ScreenerCache = { key: string; screener: Promise<Screener>; release?: NodeJS.Timeout } | undefined;

/**
 * One cached Screener per key: a failed build is forgotten, so the next call tries again. With
 * `idleMs`, a Screener nobody asked for in that time is dropped (its memory with it).
 */
function cachedScreener(slot: { current: ScreenerCache }, key: string, build: () => Promise<ListEntry[]>, idleMs?: number): Promise<Screener> {
  if (slot.current?.key !== key) {
    if (slot.current?.release) clearTimeout(slot.current.release);
    const screener = build().then((entries) => new Screener(entries));
    slot.current = { key, screener };
    screener.catch(() => { if (slot.current?.screener === screener) slot.current = undefined; });
  }
  const held = slot.current;
  if (idleMs !== undefined) {
    if (held.release) clearTimeout(held.release);
    held.release = setTimeout(() => { if (slot.current === held) slot.current = undefined; }, idleMs).unref();
  }
  return held.screener;
}

const current = { current: undefined as ScreenerCache };
const delta = { current: undefined as ScreenerCache };

/** A re-screen calls for its delta page after page; between two imports nothing does. */
const DELTA_IDLE_MS = 10 * 60_000;

/**
 * The Screener over every current entry, built on first use and again after an import changes
 * the latest version ids. One per process: in `npm start` the web and the worker's activities
 * share it (one module instance); `npm run web` builds it only when a request screens, `npm run
 * worker` only when a screening activity runs.
 */
export async function getScreener(db: Knex): Promise<Screener> {
  const versions = await latestVersions(db);
  return cachedScreener(current, versions.map((v) => v.id).join(','), () => currentEntries(db));
}

/**
 * The Screener over the entries these versions added or modified (what a re-screen after an
 * import compares against), built once per worker for all the pages of a run and dropped when
 * the run has not asked for it for ten minutes: after a first import it covers every entry,
 * a second copy of the lists that would otherwise stay until the next import.
 */
export function getDeltaScreener(db: Knex, versionIds: number[]): Promise<Screener> {
  return cachedScreener(delta, [...versionIds].sort((a, b) => a - b).join(','), () => changedEntries(db, versionIds), DELTA_IDLE_MS);
}
