/**
 * Calendar dates (PostgreSQL `date`) as the API and the versions carry them: 'YYYY-MM-DD'.
 * node-postgres turns a date into a JavaScript Date at local midnight, so its local parts
 * are the calendar date (an ISO conversion could move it to the day before).
 */
export function isoDate(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    return `${v.getFullYear()}-${p(v.getMonth() + 1)}-${p(v.getDate())}`;
  }
  return String(v).slice(0, 10);
}

/** The given date columns of a row read from PostgreSQL, as 'YYYY-MM-DD' strings. */
export function withIsoDates<T extends Record<string, unknown>>(row: T, columns: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const c of columns) if (c in out) out[c] = isoDate(out[c]);
  return out as T;
}

/** Today in Italy, the calendar the records' dates are kept in. */
export const todayInRome = (now = new Date()) => now.toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
