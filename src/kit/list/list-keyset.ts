import type { Knex } from 'knex';
import type { SortKey } from './list-definition';

/** How one page reads the sort's keys: which way, and for each key whether its nulls come at the end. */
export interface ReadingOrder { ascending: boolean; nullsAtEnd: boolean[] }

/**
 * Where a key's nulls fall in the order a page reads. By default as PostgreSQL puts them (the
 * greatest value: at the end of an ascending read); `nulls: 'last'` keeps them last in the sort's
 * own order whichever its direction, so at the end of a forward read and the start of a backward one.
 */
export function readingOrder(keys: readonly SortKey[], sortDesc: boolean, backwards: boolean): ReadingOrder {
  const ascending = sortDesc === backwards;
  return { ascending, nullsAtEnd: keys.map((k) => (k.nulls === 'last' ? !backwards : ascending)) };
}

/** ORDER BY of the reading order, nulls placed explicitly so it matches the keyset condition and the index. */
export const orderByOf = (keys: readonly SortKey[], o: ReadingOrder): string =>
  keys.map((k, i) => `?? ${o.ascending ? 'asc' : 'desc'}${k.nullable ? (o.nullsAtEnd[i] ? ' nulls last' : ' nulls first') : ''}`).join(', ');

/**
 * The keyset condition "rows after these key values in the reading order". Every key of a sort
 * shares its direction, so when no key may be null it is one row-value comparison,
 * `(k1, k2, id) < (?, ?, ?)`, which PostgreSQL turns into an index range. Nullable keys need the
 * expanded form: k1 beyond v1, or k1 = v1 and k2 beyond v2, ... with the leading key bounded
 * where it can be, so the index starts at the cursor instead of the tenant's first row.
 */
export function applyKeyset(qb: Knex.QueryBuilder, keys: readonly SortKey[], values: readonly (string | null)[], o: ReadingOrder): void {
  const cmp = o.ascending ? '>' : '<';
  if (!keys.some((k) => k.nullable)) {
    qb.whereRaw(`(${keys.map(() => '??').join(', ')}) ${cmp} (${values.map(() => '?').join(', ')})`,
      [...keys.map((k) => k.column), ...values]);
    return;
  }
  const eq = (i: number): [string, Knex.RawBinding[]] => (values[i] === null ? ['?? is null', [keys[i]!.column]] : ['?? = ?', [keys[i]!.column, values[i]!]]);
  const beyond = (i: number): [string, Knex.RawBinding[]] => {
    const c = keys[i]!.column;
    const v = values[i];
    if (v === null || v === undefined) return o.nullsAtEnd[i] ? ['false', []] : ['?? is not null', [c]];
    if (!keys[i]!.nullable || !o.nullsAtEnd[i]) return [`?? ${cmp} ?`, [c, v]];
    return [`(?? ${cmp} ? or ?? is null)`, [c, v, c]];
  };
  const branches: [string, Knex.RawBinding[]][] = keys.map((_, i) => {
    const parts = [...Array.from({ length: i }, (_u, j) => eq(j)), beyond(i)];
    return [`(${parts.map((p) => p[0]).join(' and ')})`, parts.flatMap((p) => p[1])];
  });
  qb.whereRaw(`(${branches.map((b) => b[0]).join(' or ')})`, branches.flatMap((b) => b[1]));
  const lead = keys[0]!.column;
  const v0 = values[0];
  if (v0 === null && o.nullsAtEnd[0]) qb.whereNull(lead);
  else if (v0 !== null && v0 !== undefined && !o.nullsAtEnd[0]) qb.where(lead, `${cmp}=`, v0);
}
