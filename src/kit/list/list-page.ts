import type { Knex } from 'knex';
import { ValidationError } from '../../http/errors';
import { cappedCount, cappedCountQuery } from './list-count';
import { decodeCursor, encodeCursor, type Cursor } from './list-cursor';
import { sortKeysOf, type ListDefinition, type ListScope, type SortKey } from './list-definition';
import { applyKeyset, orderByOf, readingOrder } from './list-keyset';
import type { ListParams } from './list-params';

/** A list's parsed query: the common params, its filters by name, and the search text. */
export type ListRequest = ListParams & { q?: string | undefined };

export interface ListPage<Row> {
  items: Row[];
  total: number;
  total_exact: boolean;
  limit: number;
  offset: number;
  next_cursor: string | null;
  prev_cursor: string | null;
  /**
   * The 1-based place of the first item in the whole list ("26–50 di 113"), carried by the cursor
   * so no page counts the rows before it; null when unknown (a cursor made without it). Pages
   * only: the API's declared answer does not include it.
   */
  first?: number | null;
}

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const keyAlias = (i: number) => `_k${i}`;

interface Plan { keys: readonly SortKey[]; desc: boolean; cursor: Cursor | undefined; backwards: boolean }

function planOf(def: ListDefinition, req: ListRequest): Plan {
  const sort = sortKeysOf(def, req.sort);
  if (!sort) throw new ValidationError([{ path: 'sort', message: 'Ordinamento non disponibile' }]);
  const cursor = req.cursor ? decodeCursor(req.cursor, req.sort, sort.keys) : undefined;
  return { ...sort, cursor, backwards: cursor?.before ?? false };
}

/** The list's rows for the scope, filters and search, without order or page: what the page and the count share. */
export function listBaseQuery(db: Knex, def: ListDefinition, scope: ListScope, req: ListRequest): Knex.QueryBuilder {
  const qb = def.from ? def.from(db) : db(def.table);
  if ('tenant' in scope) {
    if (!def.scopes.includes('tenant')) throw new Error(`list ${def.name} is not read in a tenant`);
    // Explicit, so the planner uses the tenant-first indexes; row-level security stays the guarantee.
    if (def.tenantColumn) qb.where(def.tenantColumn, scope.tenant);
  } else if (!def.scopes.includes('platform')) {
    throw new Error(`list ${def.name} is not read platform-wide`);
  }
  for (const [name, filter] of Object.entries(def.filters)) {
    const value = (req as unknown as Record<string, unknown>)[name];
    if (value !== undefined && value !== null && value !== '') filter.apply(qb, value);
    else if (filter.always) throw new Error(`list ${def.name} needs its filter ${name}`);
  }
  if (def.search && req.q) def.search.apply(qb, likePattern(req.q), req.q);
  return qb;
}

/**
 * The SQL of one page, not run: `listPageQuery(db, def, tenantScope('X'), params).toSQL()`. It reads
 * limit + 1 rows (the extra one says whether there is a next page) and selects each sort key as
 * text (_k0, _k1...) for the cursor. A cursor page starts after (or before) the cursor's row.
 */
export function listPageQuery(db: Knex, def: ListDefinition, scope: ListScope, req: ListRequest): Knex.QueryBuilder {
  const plan = planOf(def, req);
  return pageQueryOf(db, def, scope, req, plan);
}

function pageQueryOf(db: Knex, def: ListDefinition, scope: ListScope, req: ListRequest, plan: Plan): Knex.QueryBuilder {
  const qb = listBaseQuery(db, def, scope, req);
  qb.select([...def.columns(db), ...plan.keys.map((k, i) => db.raw('??::text as ??', [k.column, keyAlias(i)]))]);
  // Reading backwards (a "previous" cursor) walks the index the other way, then the page is reversed.
  const order = readingOrder(plan.keys, plan.desc, plan.backwards);
  if (plan.cursor) applyKeyset(qb, plan.keys, plan.cursor.values, order);
  qb.orderByRaw(orderByOf(plan.keys, order), plan.keys.map((k) => k.column));
  return qb.limit(req.limit + 1).offset(plan.cursor ? 0 : req.offset);
}

/** The SQL of the list's capped count for the same request, not run (what runList counts with). */
export const listCountQuery = (db: Knex, def: ListDefinition, scope: ListScope, req: ListRequest): Knex.QueryBuilder =>
  cappedCountQuery(db, listBaseQuery(db, def, scope, req));

/** A value PostgreSQL refused (a cursor's well-formed but impossible date): the client's cursor, a 422. */
const isDataException = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('22');

/** One page of the list, its capped count and the cursors around it. Run inside withTenant / withPlatform. */
export async function runList<Row = Record<string, any>>(trx: Knex, def: ListDefinition, scope: ListScope, req: ListRequest): Promise<ListPage<Row>> {
  const plan = planOf(def, req);
  let rows: Record<string, unknown>[];
  try {
    rows = await pageQueryOf(trx, def, scope, req, plan);
  } catch (err) {
    if (plan.cursor && isDataException(err)) throw new ValidationError([{ path: 'cursor', message: 'Cursore non valido per questo elenco' }]);
    throw err;
  }
  const more = rows.length > req.limit;
  // Back at the start: the first page, full, rather than a short one.
  if (plan.backwards && !more) return runList<Row>(trx, def, scope, { ...req, cursor: undefined, offset: 0 });
  const page = rows.slice(0, req.limit);
  if (plan.backwards) page.reverse();
  const first = firstPosition(plan, req, page.length);
  const cursorAt = (row: Record<string, unknown> | undefined, before: boolean, position: number | null) =>
    (row ? encodeCursor({ sort: req.sort, before, values: plan.keys.map((_, i) => (row[keyAlias(i)] as string | null) ?? null), position: position ?? undefined }) : null);
  const hasNext = plan.backwards || more;
  const hasPrev = plan.backwards ? more : plan.cursor !== undefined || req.offset > 0;
  const count = await cappedCount(trx, listBaseQuery(trx, def, scope, req));
  return {
    items: page.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !/^_k\d+$/.test(k))) as Row),
    total: count.total,
    total_exact: count.exact,
    limit: req.limit,
    offset: plan.cursor ? 0 : req.offset,
    next_cursor: hasNext ? cursorAt(page[page.length - 1], false, first === null ? null : first + page.length - 1) : null,
    prev_cursor: hasPrev ? cursorAt(page[0], true, first) : null,
    first,
  };
}

/** Where the page starts: after the cursor's row, before it (the page ends just above), or at the offset. */
function firstPosition(plan: Plan, req: ListRequest, rows: number): number | null {
  if (!plan.cursor) return req.offset + 1;
  const at = plan.cursor.position;
  if (at === undefined) return null;
  const first = plan.backwards ? at - rows : at + 1;
  return first >= 1 ? first : null;
}
