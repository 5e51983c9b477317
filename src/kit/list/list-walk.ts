import type { Knex } from 'knex';
import { encodeCursor } from './list-cursor';
import { sortKeysOf, type ListDefinition, type ListScope } from './list-definition';
import { listPageQuery, type ListRequest } from './list-page';

const keyAlias = /^_k\d+$/;

/**
 * Every row of a list, page after page through the list's own keyset (the same filters, sort and
 * indexes as its pages), each page read by `read` (a short transaction per page, so a long export
 * holds no snapshot open). Only one page is in memory at a time; the consumer's pace drives the
 * reads (an async generator waits for the next `for await` turn), so a slow client slows the
 * database reads instead of filling memory.
 */
export async function* walkList<Row = Record<string, unknown>>(
  read: <T>(fn: (db: Knex) => Promise<T>) => Promise<T>,
  def: ListDefinition, scope: ListScope, req: Omit<ListRequest, 'limit' | 'offset' | 'cursor'>, pageSize: number,
): AsyncGenerator<Row[]> {
  const sort = sortKeysOf(def, req.sort);
  if (!sort) throw new Error(`list ${def.name} has no sort ${req.sort}`);
  let cursor: string | undefined;
  for (;;) {
    const request: ListRequest = { ...req, limit: pageSize, offset: 0, cursor };
    const rows = await read((db) => listPageQuery(db, def, scope, request) as unknown as Promise<Record<string, unknown>[]>);
    const page = rows.slice(0, pageSize);
    if (page.length) yield page.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !keyAlias.test(k))) as Row);
    if (rows.length <= pageSize) return;
    const last = page[page.length - 1]!;
    cursor = encodeCursor({ sort: req.sort, before: false, values: sort.keys.map((_, i) => (last[`_k${i}`] as string | null) ?? null) });
  }
}
