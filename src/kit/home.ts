import type { Knex } from 'knex';
import { cappedCount } from './list/list-count';
import type { Role } from './roles';

/**
 * The staff home is assembled from the areas: each area that has work to show declares
 * `home` in its AreaDefinition and answers with tiles, read with its own repo functions in
 * a tenant transaction. The home never knows an area's tables, so a new area adds its tiles
 * without touching the home (docs/ui.md, "The staff home").
 */

/** Which part of the home a tile belongs to, in the order the home shows them. */
export const HOME_TILE_KINDS = ['assigned', 'four-eyes', 'due', 'overview'] as const;
export type HomeTileKind = (typeof HOME_TILE_KINDS)[number];

/** Italian headings of the home's sections, one per kind. */
export const HOME_KIND_LABELS: Record<HomeTileKind, { title: string; subtitle: string }> = {
  assigned: { title: 'Per te', subtitle: 'Il lavoro di cui sei incaricato e gli avvisi da leggere' },
  'four-eyes': { title: 'Conferme in attesa di te', subtitle: 'Decisioni a quattro occhi richieste da un collega' },
  due: { title: 'Da trattare e in scadenza', subtitle: 'Scadenze superate, pratiche in attesa, anomalie' },
  overview: { title: 'Panoramica per area', subtitle: 'Quanti elementi sono aperti in ogni area' },
};

/** Tabler colour names: red for what is late or failed, yellow for what waits, the rest neutral. */
export type HomeTone = 'red' | 'yellow' | 'green' | 'blue' | 'azure' | 'secondary';

export interface HomeTile {
  /** The area's name (AreaDefinition.name). */
  area: string;
  /** What is counted, in Italian ("Casi assegnati a te"). */
  label: string;
  count: number;
  /** The count stopped at the cap: shown as "più di N". */
  capped?: boolean;
  /** A list page filtered to the counted items; absent when the area's list is not built yet. */
  href?: string;
  tone: HomeTone;
  kind: HomeTileKind;
  /** One line saying what the number means. */
  hint: string;
  /** Shown instead of the hint when the count is 0 ("Nessun caso assegnato a te"). */
  empty?: string;
  /** The area could not be read (an error or too slow): the tile says so instead of a number. */
  unavailable?: boolean;
}

export interface HomeUser {
  /** cod_utente: what the four-eyes columns record (the machines' actor id). */
  id: string;
  username: string;
  roles: readonly Role[];
}

export interface HomeContext {
  user: HomeUser;
  tenant: string;
  /** Runs fn in a transaction of the tenant (row-level security), acting as the user. */
  tx: <T>(fn: (trx: Knex.Transaction) => Promise<T>) => Promise<T>;
}

export type HomeTiles = (ctx: HomeContext) => Promise<HomeTile[]>;

export const hasAnyRole = (user: HomeUser, roles: readonly Role[]) => user.roles.some((r) => roles.includes(r));

/** A count for a tile: exact up to the list kit's cap (an index prefix, never the tenant's whole table). */
export async function tileCount(trx: Knex, query: Knex.QueryBuilder): Promise<{ count: number; capped: boolean }> {
  const { total, exact } = await cappedCount(trx, query);
  return { count: total, capped: !exact };
}

export interface HomeSource {
  name: string;
  label: string;
  home: HomeTiles;
}

/**
 * Every area's tiles, asked in parallel, each under a time limit: an area that fails or is too
 * slow gives one tile saying it could not be read, so one area never takes the home down.
 */
export async function collectHomeTiles(
  sources: readonly HomeSource[], ctx: HomeContext, opts: { timeoutMs: number; onError?: (area: string, err: unknown) => void },
): Promise<HomeTile[]> {
  const results = await Promise.all(sources.map(async (s) => {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`home tiles of ${s.name}: no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    });
    try {
      return await Promise.race([s.home(ctx), limit]);
    } catch (err) {
      opts.onError?.(s.name, err);
      return [unavailableTile(s)];
    } finally {
      clearTimeout(timer);
    }
  }));
  return results.flat();
}

export const unavailableTile = (s: { name: string; label: string }): HomeTile => ({
  area: s.name, label: s.label, count: 0, tone: 'secondary', kind: 'overview', unavailable: true,
  hint: 'Non è stato possibile leggere i dati di quest’area: riprova tra poco.',
});

/** The tiles grouped by kind, in the home's order; kinds with no tile are left out. */
export function groupTiles<T extends HomeTile>(tiles: readonly T[]) {
  return HOME_TILE_KINDS
    .map((kind) => ({ kind, ...HOME_KIND_LABELS[kind], tiles: tiles.filter((t) => t.kind === kind) }))
    .filter((g) => g.tiles.length > 0);
}
