import type { Aggregato, Condizione } from './condition.types';

/** ratio_history's comparison period when the rule does not say. */
export const DEFAULT_HISTORY_DAYS = 365;

/**
 * The canonical key of an aggregate: the same aggregate written with its keys in any order, its
 * countries in any order or case, or ratio_history's default history spelled out, gets the same key.
 * `sum:90:segno=entrata:contanti=true:paesi=IR,KP`, `count:30:paesi=@paesi_alto_rischio`,
 * `ratio_history:30:storico=365`. Keys name the loader's values (aggregati[key]) and the
 * evaluator's reads (`aggregato:<key>`), so they are part of what a stored score explains.
 */
export function aggregateKey(a: Aggregato): string {
  const parts: string[] = [a.fn, String(a.finestra_giorni)];
  if (a.segno !== undefined) parts.push(`segno=${a.segno}`);
  if (a.contanti !== undefined) parts.push(`contanti=${a.contanti}`);
  if (a.paesi_controparte !== undefined) {
    const p = a.paesi_controparte;
    parts.push(`paesi=${'lista' in p ? `@${p.lista}` : [...new Set(p.map((c) => c.toUpperCase()))].sort().join(',')}`);
  }
  if (a.fn === 'ratio_history') parts.push(`storico=${a.storico_giorni ?? DEFAULT_HISTORY_DAYS}`);
  return parts.join(':');
}

/**
 * What the loader computes for an aggregate. ratio_declared is the evaluator's: it divides the
 * window's annualised sum (this `sum` aggregate, same window and filters) by the declared yearly
 * volume it reads from the subject's data, so the loader never needs the declared volumes.
 */
export function loadedAggregate(a: Aggregato): Aggregato {
  if (a.fn !== 'ratio_declared') return a;
  const { storico_giorni: _ignored, ...rest } = a;
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
