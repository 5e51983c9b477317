import { z } from 'zod';

/** `YYYY-MM-DD`, the shape of a calendar day in queries and bodies. */
export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day that exists on the calendar and that PostgreSQL's `date` takes: the shape alone lets
 * `2026-02-30` or `0000-00-00` through to the query, where they are a 500, not a 422.
 */
export function isCalendarDay(v: string): boolean {
  if (!ISO_DAY.test(v) || v < '0001-01-01') return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

/** A calendar day field: the message names the field (`Dal`, `Finestra dal`...). */
export const dayField = (what: string) => z.string({ message: `${what}: una data AAAA-MM-GG` }).trim()
  .regex(ISO_DAY, { message: `${what}: una data AAAA-MM-GG`, abort: true })
  .refine(isCalendarDay, `${what}: una data esistente`);
