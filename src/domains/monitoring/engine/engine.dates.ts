import type { Giorno } from './engine.types';

/**
 * Days as integers (days since 1970-01-01, UTC): the history's day column is an Int32Array of them,
 * so windows are binary searches and comparisons of numbers. Parsing is by position (the records
 * hold valid ISO days); a malformed day is a RangeError, never a silent NaN in a window.
 */

const MS_PER_DAY = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function dayNumber(g: Giorno): number {
  if (!ISO_DAY.test(g)) throw new RangeError(`not a day (YYYY-MM-DD): ${g}`);
  const n = Date.UTC(Number(g.slice(0, 4)), Number(g.slice(5, 7)) - 1, Number(g.slice(8, 10))) / MS_PER_DAY;
  if (!Number.isFinite(n)) throw new RangeError(`not a day (YYYY-MM-DD): ${g}`);
  return n;
}

export function dayString(n: number): Giorno {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10);
}

export const addDays = (g: Giorno, days: number): Giorno => dayString(dayNumber(g) + days);

/** ISO weekday: 1 Monday … 7 Sunday. */
export function isoWeekday(n: number): number {
  const d = (n + 4) % 7; // 1970-01-01 was a Thursday
  return d <= 0 ? d + 7 : d;
}

/** Whole months from `from` to `to` (a month is counted once its day of month is reached); null without `from`. */
export function monthsBetween(from: Giorno | null | undefined, to: Giorno): number | null {
  if (!from || !ISO_DAY.test(from)) return null;
  const months = (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
  return Number(to.slice(8, 10)) >= Number(from.slice(8, 10)) ? months : months - 1;
}

/** Whole years from `from` to `to`: a person's age. */
export function yearsBetween(from: Giorno | null | undefined, to: Giorno): number | null {
  const m = monthsBetween(from, to);
  return m === null ? null : Math.floor(m / 12);
}
