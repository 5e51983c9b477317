import type { Knex } from 'knex';
import { encodeCursor } from './list-cursor';
import { sortKeysOf, type ListDefinition, type ListScope } from './list-definition';
import { listPageQuery, type ListRequest } from './list-page';

/**
 * Every row of a list, page after page through the list's own keyset (the same filters, sort and
 * indexes as its pages), each page read by `read` (a short transaction per page, so a long export
 * holds no snapshot open). Only one page is in memory at a time; the consumer's pace drives the
 * reads (an async generator waits for the next `for await` turn), so a slow client slows the
 * database reads instead of filling memory. The rows are the query's own objects, with the sort's
 * keys as `_k0`, `_k1`... beside the columns (not copied without them: an export of a million
 * rows would make a million more objects for the garbage collector); read the columns by name.
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
    if (rows.length <= pageSize) {
      if (page.length) yield page as Row[];
      return;
    }
    const last = page[page.length - 1]!;
    cursor = encodeCursor({ sort: req.sort, before: false, values: sort.keys.map((_, i) => (last[`_k${i}`] as string | null) ?? null) });
    yield page as Row[];
  }
}
