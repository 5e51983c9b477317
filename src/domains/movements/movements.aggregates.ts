import type { Knex } from 'knex';
import {
  aggregateKey, DEFAULT_HISTORY_DAYS, FILTRI_AGGREGATO_BASE, FUNZIONI_AGGREGATO_BASE, loadedAggregate, type Aggregato,
} from '../../kit/conditions';

/**
 * The condition language's movement aggregates (docs/conditions.md), for a batch of subjects in
 * ONE query: every aggregate is a conditional aggregate (`sum(importo_eur) filter (where ...)`)
 * over the subjects' movements between the earliest day any aggregate needs and `oggi`. The
 * tenant and subject predicates plus the date range read the (cod_azienda, cod_anagrafe,
 * data_operazione, id) index of only the months in range (partition pruning on the bound dates).
 *
 * Windows end on `oggi` inclusive: a window of N days is (oggi - N, oggi]. ratio_history's history
 * is the `storico_giorni` before the window: (oggi - N - storico, oggi - N].
 * Values for a subject without movements: count/sum/distinct 0; cash_share and ratio_history null
 * (no total, no history: nothing to compare). ratio_declared is the evaluator's (kit/conditions
 * index): pass requiredAggregates' output, which lists it as its `sum`.
 *
 * It computes the language's first functions and filters only (SQL_AGGREGATE_CATALOGUE): monitoring's
 * (avg, distinct_new_counterparties, passthrough_share, amount bands...) are computed in memory by
 * the monitoring engine, and a rule set this loader serves (risk) is validated against this catalogue.
 */

/** What this loader computes: pass it to validateCondition ({ funzioni, filtri }) for rules it serves. */
export const SQL_AGGREGATE_CATALOGUE = {
  funzioni: new Set<string>(FUNZIONI_AGGREGATO_BASE),
  filtri: new Set<string>(FILTRI_AGGREGATO_BASE),
} as const;

/** Subjects per statement: the engine's batches are 1–5k; a longer list is split. */
const SUBJECTS_PER_QUERY = 5_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export type AggregateValues = Record<string, number | null>;

/** A named list the aggregates refer to is not among those given. */
export class UnknownListError extends Error {
  constructor(public readonly lista: string) {
    super(`movement aggregates refer to an unknown list: ${lista}`);
    this.name = 'UnknownListError';
  }
}

function daysBefore(oggi: string, days: number): string {
  const d = new Date(`${oggi}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

function assertDay(oggi: string) {
  if (!ISO_DAY.test(oggi) || Number.isNaN(new Date(`${oggi}T00:00:00Z`).getTime())) throw new RangeError(`oggi must be YYYY-MM-DD: ${oggi}`);
}

/** A SQL fragment with its bindings (knex raw placeholders). */
interface Fragment { sql: string; bindings: Knex.Value[] }

/** How to compute one aggregate from its columns. */
interface Plan { key: string; columns: Fragment[]; value: (cols: (number | null)[]) => number | null }

function filterOf(a: Aggregato, from: string, to: string | null, liste: Readonly<Record<string, ReadonlySet<string>>>): Fragment {
  const parts = ['data_operazione > ?::date'];
  const bindings: Knex.Value[] = [from];
  if (to !== null) { parts.push('data_operazione <= ?::date'); bindings.push(to); }
  if (a.segno) { parts.push('segno = ?'); bindings.push(a.segno); }
  if (a.contanti !== undefined) parts.push(a.contanti ? 'contanti' : 'not contanti');
  if (a.paesi_controparte) {
    const p = a.paesi_controparte;
    let countries: string[];
    if ('lista' in p) {
      const list = Object.prototype.hasOwnProperty.call(liste, p.lista) ? liste[p.lista] : undefined;
      if (!list) throw new UnknownListError(p.lista);
      countries = [...list];
    } else countries = [...p];
    // The counterparty's country, or its IBAN's (ibanCountry in the kit: the same shape test).
    parts.push(`(controparte_paese = any(?::text[]) or (replace(controparte_conto, ' ', '') ~ '^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$' and upper(left(controparte_conto, 2)) = any(?::text[])))`);
    const codes = [...new Set(countries.map((c) => c.toUpperCase()))] as unknown as Knex.Value;
    bindings.push(codes, codes);
  }
  return { sql: parts.join(' and '), bindings };
}

const col = (expr: string, f: Fragment): Fragment => ({ sql: `${expr} filter (where ${f.sql})`, bindings: f.bindings });
const SUM = 'sum(importo_eur)';
/** A counterparty is its account, or its name (case-insensitive) when the account is not given. */
const COUNTERPARTY = "count(distinct coalesce('c:' || controparte_conto, 'n:' || lower(controparte_nome)))";

function planOf(a: Aggregato, oggi: string, liste: Readonly<Record<string, ReadonlySet<string>>>): { plan: Plan; earliest: string } {
  const key = aggregateKey(a);
  const unsupported = Object.keys(a).find((k) => k !== 'fn' && k !== 'finestra_giorni' && !SQL_AGGREGATE_CATALOGUE.filtri.has(k) && a[k as keyof Aggregato] !== undefined);
  if (unsupported) throw new Error(`the ${unsupported} filter is computed by the monitoring engine, not by this loader (validate against SQL_AGGREGATE_CATALOGUE)`);
  const from = daysBefore(oggi, a.finestra_giorni);
  const window = filterOf(a, from, null, liste);
  const zeroIfNull = (cols: (number | null)[]) => cols[0] ?? 0;
  switch (a.fn) {
    case 'count': return { earliest: from, plan: { key, columns: [col('count(*)', window)], value: zeroIfNull } };
    case 'sum': return { earliest: from, plan: { key, columns: [col(SUM, window)], value: zeroIfNull } };
    case 'distinct_counterparties': return { earliest: from, plan: { key, columns: [col(COUNTERPARTY, window)], value: zeroIfNull } };
    case 'distinct_countries': return { earliest: from, plan: { key, columns: [col('count(distinct controparte_paese)', window)], value: zeroIfNull } };
    case 'cash_share': return {
      earliest: from,
      plan: {
        key, columns: [col(SUM, { sql: `${window.sql} and contanti`, bindings: window.bindings }), col(SUM, window)],
        value: ([cash, total]) => (total ? (cash ?? 0) / total : null),
      },
    };
    case 'ratio_history': {
      const history = a.storico_giorni ?? DEFAULT_HISTORY_DAYS;
      const earliest = daysBefore(from, history);
      return {
        earliest,
        plan: {
          key, columns: [col(SUM, window), col(SUM, filterOf(a, earliest, from, liste))],
          // The window's sum against the history's average for a window of the same length.
          value: ([current, past]) => (past ? (current ?? 0) / (past * a.finestra_giorni / history) : null),
        },
      };
    }
    case 'ratio_declared':
      throw new Error('ratio_declared is computed by the evaluator: load its sum (loadedAggregate)');
    default:
      throw new Error(`${a.fn} is computed by the monitoring engine, not by this loader (validate against SQL_AGGREGATE_CATALOGUE)`);
  }
}

const toNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The batch statement: one row per subject (an aggregate over no rows for one without movements), the columns c0..cN in the plans' order. */
export function aggregatesStatement(
  codAzienda: string, batch: readonly string[], aggregati: readonly Aggregato[], oggi: string,
  liste: Readonly<Record<string, ReadonlySet<string>>> = {},
): { sql: string; bindings: Knex.Value[]; plans: Plan[] } {
  assertDay(oggi);
  const unique = new Map<string, Aggregato>();
  for (const a of aggregati) { const l = loadedAggregate(a); unique.set(aggregateKey(l), l); }
  const planned = [...unique.values()].map((a) => planOf(a, oggi, liste));
  const earliest = planned.reduce((min, p) => (p.earliest < min ? p.earliest : min), oggi);
  const columns = planned.flatMap(({ plan }) => plan.columns);
  const select = columns.map((c, i) => `${c.sql} as c${i}`).join(',\n  ');
  // One index descent per subject and month (a lateral subquery per subject) rather than
  // `cod_anagrafe = any(batch)`: for a batch of thousands the planner chose to read whole months
  // sequentially (3x slower on ten million movements), and a distinct count sorted the whole batch.
  return {
    sql: `select s.cod_anagrafe, m.*\nfrom unnest(?::text[]) as s(cod_anagrafe)\ncross join lateral (select ${select}\n  from movimenti\n  where cod_azienda = ? and cod_anagrafe = s.cod_anagrafe\n    and data_operazione > ?::date and data_operazione <= ?::date) m`,
    bindings: [batch as unknown as Knex.Value, ...columns.flatMap((c) => c.bindings), codAzienda, earliest, oggi],
    plans: planned.map(({ plan }) => plan),
  };
}

/**
 * The aggregates for each subject of the batch (every subject given gets a record, with every key).
 * Runs inside the caller's tenant transaction (withTenant): RLS confines it to the tenant too.
 */
export async function movementAggregates(
  trx: Knex.Transaction | Knex, codAzienda: string, codAnagrafe: readonly string[], aggregati: readonly Aggregato[],
  oggi: string, liste: Readonly<Record<string, ReadonlySet<string>>> = {},
): Promise<Map<string, AggregateValues>> {
  assertDay(oggi);
  const subjects = [...new Set(codAnagrafe)];
  const result = new Map<string, AggregateValues>();
  if (aggregati.length === 0) {
    for (const s of subjects) result.set(s, {});
    return result;
  }
  for (let i = 0; i < subjects.length; i += SUBJECTS_PER_QUERY) {
    const batch = subjects.slice(i, i + SUBJECTS_PER_QUERY);
    const { sql, bindings, plans } = aggregatesStatement(codAzienda, batch, aggregati, oggi, liste);
    const valuesOf = (row: Record<string, unknown> | undefined): AggregateValues => {
      let n = 0;
      const values: AggregateValues = {};
      for (const plan of plans) values[plan.key] = plan.value(plan.columns.map(() => (row ? toNumber(row[`c${n++}`]) : null)));
      return values;
    };
    const { rows } = await trx.raw<{ rows: Record<string, unknown>[] }>(sql, bindings);
    for (const row of rows) result.set(row.cod_anagrafe as string, valuesOf(row));
    for (const s of batch) if (!result.has(s)) result.set(s, valuesOf(undefined));
  }
  return result;
}

/** What the risk engine reads of a subject's movements besides the rules' aggregates. */
export interface MovementProfile {
  /** Both directions, last 365 days (oggi inclusive): the matrix's impact band. */
  totale_365_eur: number;
  /** Counterparty countries of those movements, sorted. */
  paesi_controparti: string[];
}

/** The movement profiles of a batch of subjects in one query (same index and pruning as movementAggregates). */
export async function movementProfiles(
  trx: Knex.Transaction | Knex, codAzienda: string, codAnagrafe: readonly string[], oggi: string,
): Promise<Map<string, MovementProfile>> {
  assertDay(oggi);
  const subjects = [...new Set(codAnagrafe)];
  const result = new Map<string, MovementProfile>();
  for (let i = 0; i < subjects.length; i += SUBJECTS_PER_QUERY) {
    const batch = subjects.slice(i, i + SUBJECTS_PER_QUERY);
    const { rows } = await trx.raw<{ rows: { cod_anagrafe: string; totale: string | null; paesi: string[] | null }[] }>(`
      select cod_anagrafe, sum(importo_eur) as totale,
             array_agg(distinct controparte_paese order by controparte_paese) filter (where controparte_paese is not null) as paesi
        from movimenti
       where cod_azienda = ? and cod_anagrafe = any(?::text[]) and data_operazione > ?::date and data_operazione <= ?::date
       group by cod_anagrafe`, [codAzienda, batch as unknown as Knex.Value, daysBefore(oggi, 365), oggi]);
    for (const r of rows) result.set(r.cod_anagrafe, { totale_365_eur: Number(r.totale ?? 0), paesi_controparti: r.paesi ?? [] });
    for (const s of batch) if (!result.has(s)) result.set(s, { totale_365_eur: 0, paesi_controparti: [] });
  }
  return result;
}
