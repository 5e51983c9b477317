import type { Knex } from 'knex';
import type { SortKey } from './list-definition';

/**
 * The keyset condition "rows after these key values in the sort's order" (before, when reading
 * backwards). Every key of a sort shares its direction, so when no key may be null it is one
 * row-value comparison, `(k1, k2, id) < (?, ?, ?)`, which PostgreSQL turns into an index range.
 * Nullable keys (null is the greatest value, as in PostgreSQL's default order) need the expanded
 * form: k1 beyond v1, or k1 = v1 and k2 beyond v2, ... with the leading key bounded where it can be.
 */
export function applyKeyset(qb: Knex.QueryBuilder, keys: readonly SortKey[], values: readonly (string | null)[], greater: boolean): void {
  if (!keys.some((k) => k.nullable)) {
    qb.whereRaw(`(${keys.map(() => '??').join(', ')}) ${greater ? '>' : '<'} (${values.map(() => '?').join(', ')})`,
      [...keys.map((k) => k.column), ...values]);
    return;
  }
  const eq = (i: number): [string, Knex.RawBinding[]] => (values[i] === null ? ['?? is null', [keys[i]!.column]] : ['?? = ?', [keys[i]!.column, values[i]]]);
  const beyond = (i: number): [string, Knex.RawBinding[]] => {
    const c = keys[i]!.column;
    const v = values[i];
    if (v === null) return greater ? ['false', []] : ['?? is not null', [c]];
    if (!keys[i]!.nullable) return [`?? ${greater ? '>' : '<'} ?`, [c, v]];
    return greater ? ['(?? > ? or ?? is null)', [c, v, c]] : ['?? < ?', [c, v]];
  };
  const branches: [string, Knex.RawBinding[]][] = keys.map((_, i) => {
    const parts = [...Array.from({ length: i }, (_u, j) => eq(j)), beyond(i)];
    return [`(${parts.map((p) => p[0]).join(' and ')})`, parts.flatMap((p) => p[1])];
  });
  qb.whereRaw(`(${branches.map((b) => b[0]).join(' or ')})`, branches.flatMap((b) => b[1]));
  // A redundant bound on the leading key lets the index start at the cursor instead of the tenant's first row.
  const lead = keys[0]!.column;
  const v0 = values[0];
  if (v0 === null && greater) qb.whereNull(lead);
  else if (v0 !== null && !greater) qb.where(lead, '<=', v0);
}
