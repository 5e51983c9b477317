import type { Knex } from 'knex';

/**
 * Data for the chart macro (views/macros/chart.njk): categories already in Italian words, one
 * number per category in each series, zeros where nothing was counted (a gap would read as
 * "no data" rather than "none"). Tones are Tabler colour names, the same as the status badges.
 */
export interface ChartSeries { name: string; data: number[]; tone?: string }
export interface ChartData { categories: string[]; series: ChartSeries[]; tones?: string[] }

/** Counts of the last weeks: the weeks (Mondays, ISO dates, oldest first) and the counted rows. */
export interface WeeklyCounts { weeks: string[]; rows: { week: string; key: string; n: number }[] }

const WEEK_START = "date_trunc('week', now() at time zone 'Europe/Rome')";
const weekLabel = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', day: 'numeric', month: 'short' });

/** "16 nov" for the week that starts on Monday 2026-11-16. */
export const formatWeek = (isoMonday: string): string => {
  const [y, m, d] = isoMonday.split('-').map(Number);
  return weekLabel.format(new Date(Date.UTC(y!, m! - 1, d!)));
};

/**
 * Rows of `base` counted per week (Monday to Sunday, Europe/Rome) over the last `weeks` weeks,
 * this one included, and per `by` when given. `base` carries the tenant predicate and any other
 * filter, so the bounded range on `column` reads the tenant's index on it.
 */
export async function countByWeek(
  trx: Knex.Transaction, base: Knex.QueryBuilder, opts: { weeks: number; column?: string; by?: string },
): Promise<WeeklyCounts> {
  const column = opts.column ?? 'created_at';
  const back = opts.weeks - 1;
  const weeks = await trx.raw(
    `select to_char(w, 'YYYY-MM-DD') as week from generate_series(${WEEK_START} - make_interval(weeks => ?), ${WEEK_START}, interval '1 week') w order by w`,
    [back],
  );
  const rows = await base.clone()
    .whereRaw(`?? >= (${WEEK_START} - make_interval(weeks => ?)) at time zone 'Europe/Rome'`, [column, back])
    .select(
      trx.raw(`to_char(date_trunc('week', ?? at time zone 'Europe/Rome'), 'YYYY-MM-DD') as week`, [column]),
      opts.by ? trx.raw('??::text as key', [opts.by]) : trx.raw("'' as key"),
    )
    .count({ n: '*' })
    .groupByRaw('1, 2') as { week: string; key: string; n: string | number }[];
  return { weeks: (weeks.rows as { week: string }[]).map((r) => r.week), rows: rows.map((r) => ({ week: r.week, key: r.key, n: Number(r.n) })) };
}

/** One series per key (in the order of `keys`, every key even when it counted nothing), one category per week. */
export function weeklyChart(w: WeeklyCounts, keys: readonly string[], labels: Record<string, string>, tones: Record<string, string> = {}): ChartData {
  const at = (week: string, key: string) => w.rows.find((r) => r.week === week && r.key === key)?.n ?? 0;
  return {
    categories: w.weeks.map(formatWeek),
    series: keys.map((k) => ({ name: labels[k] ?? k, tone: tones[k], data: w.weeks.map((week) => at(week, k)) })),
  };
}

/** A single weekly series (no `by`): `name` is what is counted. */
export const weeklyTotal = (w: WeeklyCounts, name: string, tone?: string): ChartData =>
  ({ categories: w.weeks.map(formatWeek), series: [{ name, tone, data: w.weeks.map((week) => w.rows.filter((r) => r.week === week).reduce((s, r) => s + r.n, 0)) }] });

/** One bar per key (every key of `keys`, 0 when absent), coloured by its tone. */
export function categoryChart(counts: Record<string, number>, keys: readonly string[], labels: Record<string, string>, name: string, tones: Record<string, string> = {}): ChartData {
  return {
    categories: keys.map((k) => labels[k] ?? k),
    series: [{ name, data: keys.map((k) => counts[k] ?? 0) }],
    tones: keys.map((k) => tones[k] ?? ''),
  };
}
