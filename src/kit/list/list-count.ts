import type { Knex } from 'knex';

/**
 * Counting stops here: an exact count(*) reads every matching row (a tenant's 100,000 cases on each
 * request); counting at most this many reads a bounded prefix of an index and still tells a person
 * "2,345 cases" exactly, or "more than 10,000".
 */
export const COUNT_CAP = 10_000;

/** `select count(*) as n from (<list without order> limit 10001)`: exact up to the cap, never a full scan. */
export const cappedCountQuery = (db: Knex, base: Knex.QueryBuilder): Knex.QueryBuilder =>
  db.count({ n: '*' }).from(base.clone().clearSelect().clearOrder().select(db.raw('1')).limit(COUNT_CAP + 1).as('capped'));

export async function cappedCount(db: Knex, base: Knex.QueryBuilder): Promise<{ total: number; exact: boolean }> {
  const [row] = (await cappedCountQuery(db, base)) as { n: number | string }[];
  const n = Number(row?.n ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total: n, exact: true };
}
