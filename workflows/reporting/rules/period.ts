/**
 * Reference months and due dates of the monthly reports. Pure: workflow code, activities and
 * pages compute them alike.
 */

/** `YYYY-MM` -> [year, month 1-12], or null. */
export function parseMonth(p: string | null | undefined): [number, number] | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(p ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The first and last day of a reference month, as ISO dates (the movements' `data_operazione` range). */
export function monthRange(periodo: string): { dal: string; al: string } {
  const ym = parseMonth(periodo);
  if (!ym) throw new RangeError(`not a month: ${periodo}`);
  const [y, m] = ym;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { dal: `${y}-${mm}-01`, al: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

/** Every month from `dal` to `al` included, in order (`2025-11`..`2026-02` -> four months). */
export function monthsBetween(dal: string, al: string): string[] {
  const a = parseMonth(dal); const b = parseMonth(al);
  if (!a || !b) throw new RangeError(`not a month range: ${dal}..${al}`);
  const out: string[] = [];
  for (let y = a[0], m = a[1]; y < b[0] || (y === b[0] && m <= b[1]); m === 12 ? (y++, m = 1) : m++) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
  }
  return out;
}

/**
 * The day a monthly report is due: `day` of the `monthsAfter`-th month after the reference
 * month, as an ISO date (`2026-01` with 2 months and day 15 -> `2026-03-15`).
 */
export function dueDay(periodo: string, monthsAfter: number, day: number): string {
  const ym = parseMonth(periodo);
  if (!ym) throw new RangeError(`not a month: ${periodo}`);
  // Date.UTC rolls months over the year.
  return new Date(Date.UTC(ym[0], ym[1] - 1 + monthsAfter, day)).toISOString().slice(0, 10);
}

/**
 * The due instant: the end of the due day in Italy, taken as UTC+1 all year (22:59:59 UTC is
 * 23:59:59 in Rome in winter and 00:59:59 of the next day in summer): a notice is never late.
 */
export const dueInstant = (day: string) => `${day}T22:59:59.000Z`;

/** The first notice goes out this many days before the due instant. */
export const WARN_DAYS_BEFORE = 5;
export const warnInstant = (dueAt: string) => new Date(Date.parse(dueAt) - WARN_DAYS_BEFORE * 86_400_000).toISOString();
