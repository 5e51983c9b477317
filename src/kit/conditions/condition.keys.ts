import type { Aggregato, Condizione } from './condition.types';

/** ratio_history's and distinct_new_counterparties' comparison period when the rule does not say. */
export const DEFAULT_HISTORY_DAYS = 365;
/** passthrough_share's "left again within" when the rule does not say. */
export const DEFAULT_PASSTHROUGH_DAYS = 2;

/** Functions whose `storico_giorni` defaults to DEFAULT_HISTORY_DAYS (and so always appears in the key). */
export const WITH_HISTORY: ReadonlySet<string> = new Set(['ratio_history', 'distinct_new_counterparties']);

/** Functions that compare amounts or, with `misura: numero`, numbers of movements. */
export const WITH_MEASURE: ReadonlySet<string> = new Set(['ratio_history', 'peer_ratio', 'ratio_last_year']);

/** How far back ratio_last_year looks: the same window one year earlier. */
export const LAST_YEAR_DAYS = 365;

/**
 * ratio_last_year's comparison period: `storico_giorni` days (default: the window's length) centred
 * on the same window one year earlier, as day offsets from the point: (t − from, t − to].
 */
export function lastYearPeriod(a: Pick<Aggregato, 'finestra_giorni' | 'storico_giorni'>): { from: number; to: number; days: number } {
  const days = Math.max(a.storico_giorni ?? a.finestra_giorni, a.finestra_giorni);
  const to = LAST_YEAR_DAYS - Math.floor((days - a.finestra_giorni) / 2);
  return { from: to + days, to, days };
}

/** A text list's part of a key: upper-cased, deduplicated, sorted, each value escaped so ',' and ':' stay separators. */
function texts(p: readonly string[] | { lista: string }): string {
  return 'lista' in p ? `@${p.lista}` : [...new Set(p.map((c) => encodeURIComponent(c.toUpperCase())))].sort().join(',');
}

/**
 * The canonical key of an aggregate: the same aggregate written with its keys in any order, its
 * countries in any order or case, or a default (history, pass-through days, level, measure)
 * spelled out, gets the same key. `sum:90:segno=entrata:contanti=true:paesi=IR,KP`,
 * `count:30:paesi=@paesi_alto_rischio`, `ratio_history:30:storico=365`. Keys name the loader's
 * values (aggregati[key]) and the evaluator's reads (`aggregato:<key>`), so they are part of what
 * a stored score explains: the parts of the first language keep their place, monitoring's filters
 * follow them, and `storico` stays last.
 */
export function aggregateKey(a: Aggregato): string {
  const parts: string[] = [a.fn, String(a.finestra_giorni)];
  if (a.segno !== undefined) parts.push(`segno=${a.segno}`);
  if (a.contanti !== undefined) parts.push(`contanti=${a.contanti}`);
  if (a.paesi_controparte !== undefined) {
    const p = a.paesi_controparte;
    parts.push(`paesi=${'lista' in p ? `@${p.lista}` : [...new Set(p.map((c) => c.toUpperCase()))].sort().join(',')}`);
  }
  if (a.causali !== undefined) parts.push(`causali=${texts(a.causali)}`);
  if (a.canali !== undefined) parts.push(`canali=${texts(a.canali)}`);
  if (a.importo_min !== undefined) parts.push(`importo_min=${a.importo_min}`);
  if (a.importo_max !== undefined) parts.push(`importo_max=${a.importo_max}`);
  if (a.tondi !== undefined) parts.push(`tondi=${a.tondi}`);
  if (a.livello === 'rapporto') parts.push('livello=rapporto');
  if (a.misura === 'numero') parts.push('misura=numero');
  if (a.fn === 'passthrough_share') parts.push(`entro=${a.entro_giorni ?? DEFAULT_PASSTHROUGH_DAYS}`);
  if (WITH_HISTORY.has(a.fn)) parts.push(`storico=${a.storico_giorni ?? DEFAULT_HISTORY_DAYS}`);
  else if (a.fn === 'ratio_last_year' && a.storico_giorni !== undefined && a.storico_giorni !== a.finestra_giorni) parts.push(`storico=${a.storico_giorni}`);
  return parts.join(':');
}

/**
 * What the loader computes for an aggregate. ratio_declared is the evaluator's: it divides the
 * window's sum (this `sum` aggregate, same window and filters) brought to the declared period by
 * the declared volume it reads from the subject's data, so the loader never needs declared volumes.
 */
export function loadedAggregate(a: Aggregato): Aggregato {
  if (a.fn !== 'ratio_declared') return a;
  const { storico_giorni: _ignored, entro_giorni: _e, misura: _m, ...rest } = a;
  return { ...rest, fn: 'sum' };
}

function* aggregatesOf(c: Condizione): Generator<Aggregato> {
  if ('tutti' in c) for (const x of c.tutti) yield* aggregatesOf(x);
  else if ('almeno_uno' in c) for (const x of c.almeno_uno) yield* aggregatesOf(x);
  else if ('non' in c) yield* aggregatesOf(c.non);
  else if ('aggregato' in c) yield c.aggregato;
}

/**
 * The aggregates the loader must compute for these conditions (one or many: a rule set's), by
 * canonical key, deduplicated, in first-seen order; ratio_declared appears as its `sum` (loadedAggregate).
 */
export function requiredAggregates(conditions: Condizione | readonly Condizione[]): Aggregato[] {
  const seen = new Map<string, Aggregato>();
  for (const c of Array.isArray(conditions) ? conditions : [conditions as Condizione]) {
    for (const a of aggregatesOf(c)) {
      const loaded = loadedAggregate(a);
      const key = aggregateKey(loaded);
      if (!seen.has(key)) seen.set(key, loaded);
    }
  }
  return [...seen.values()];
}

/**
 * The country of an IBAN-shaped account (two letters, two check digits, 11 to 30 letters or digits,
 * spaces ignored, as the movements' SQL loader reads it), upper-cased; null for anything else. Counterparty-country filters match it too.
 */
export function ibanCountry(conto: string | null | undefined): string | null {
  if (!conto) return null;
  const c = conto.replaceAll(' ', '');
  return /^[A-Za-z]{2}\d{2}[A-Za-z0-9]{11,30}$/.test(c) ? c.slice(0, 2).toUpperCase() : null;
}

/** Round amount: a positive whole multiple of 500 EUR (what "cifra tonda" means to the rules and the `tondi` filter). */
export function isRoundAmount(importoEur: number): boolean {
  const cents = Math.round(importoEur * 100);
  return cents > 0 && cents % 50_000 === 0;
}
