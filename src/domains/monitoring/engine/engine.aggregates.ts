import { DEFAULT_HISTORY_DAYS, DEFAULT_PASSTHROUGH_DAYS, lastYearPeriod, type Aggregato } from '../../../kit/conditions';
import { cashVariant, columnsOf, filterOf, type FiltroCompilato, type ListeNormalizzate } from './engine.filters';
import { FLAG_ENTRATA, type StoricoIndicizzato } from './engine.history';

/**
 * The condition language's movement aggregates computed in memory over a customer's history at
 * one point (docs/conditions.md, docs/monitoring.md). A point is where the window ends: a movement
 * (real time: the window holds the movements up to it, itself included) or the close of a day
 * (everything dated that day or before). Nothing after the point is ever read, so a replay that
 * walks one history forward computes what real time computed with the history it had.
 *
 * Count, sum, average, ratio to history and cash share come from the filter's prefix sums; the
 * others scan the window. Amounts are cents until the answer (exact sums).
 */

/** Where the window ends and what is being evaluated. */
export interface Punto {
  h: StoricoIndicizzato;
  /** Movements [0, end) are visible. */
  end: number;
  /** The window's last day (day number). */
  t: number;
  /** The evaluated movement (real time), -1 for a daily evaluation. */
  evento: number;
  /** The evaluated relationship (number in the history), -1 when none. */
  rapporto: number;
}

/** Scratch space reused across calls (never per evaluation): stamps for distinct counts, the pass-through queue. */
let stamps = new Int32Array(1024);
let generation = 0;
let queueCents = new Float64Array(256);
let queueDay = new Int32Array(256);

function nextGeneration(size: number): number {
  if (stamps.length < size) stamps = new Int32Array(Math.max(size, stamps.length * 2));
  generation += 1;
  if (generation === 0x7fffffff) { stamps.fill(0); generation = 1; }
  return generation;
}

/** First index of the window of `days` days ending on p.t: (t − days, t]. */
export const windowStart = (p: Punto, days: number) => p.h.lowerBound(p.t - days + 1, 0, p.end);

interface Totals { cents: number; count: number }
const totals: Totals = { cents: 0, count: 0 };

/** Sum (cents) and count of the matching movements in [s, e). */
function sumCount(p: Punto, f: FiltroCompilato, liste: ListeNormalizzate, s: number, e: number): Totals {
  const col = columnsOf(p.h, f, liste);
  if (!f.rapporto) {
    totals.cents = col.sumCents[e]! - col.sumCents[s]!;
    totals.count = col.count[e]! - col.count[s]!;
    return totals;
  }
  let cents = 0;
  let count = 0;
  if (p.rapporto >= 0) {
    const { match } = col;
    const { rap, cents: amounts } = p.h;
    for (let i = s; i < e; i++) if (match[i] === 1 && rap[i] === p.rapporto) { cents += amounts[i]!; count += 1; }
  }
  totals.cents = cents;
  totals.count = count;
  return totals;
}

/** Does movement i match (filter and level)? */
function matches(p: Punto, match: Uint8Array, f: FiltroCompilato, i: number): boolean {
  return match[i] === 1 && (!f.rapporto || p.h.rap[i] === p.rapporto);
}

/** The anchor of days_since_previous: the evaluated movement, or the day's first matching one. */
function anchorOf(p: Punto, match: Uint8Array, f: FiltroCompilato): number {
  if (p.evento >= 0) return matches(p, match, f, p.evento) ? p.evento : -1;
  for (let i = p.h.lowerBound(p.t, 0, p.end); i < p.end; i++) if (matches(p, match, f, i)) return i;
  return -1;
}

function passthrough(p: Punto, match: Uint8Array, f: FiltroCompilato, s: number, e: number, within: number): number | null {
  const { cents, day, flags } = p.h;
  let head = 0;
  let tail = 0;
  let inflow = 0;
  let consumed = 0;
  for (let i = s; i < e; i++) {
    if (!matches(p, match, f, i)) continue;
    if ((flags[i]! & FLAG_ENTRATA) !== 0) {
      if (tail === queueCents.length) {
        const c = new Float64Array(tail * 2); c.set(queueCents); queueCents = c;
        const d = new Int32Array(tail * 2); d.set(queueDay); queueDay = d;
      }
      queueCents[tail] = cents[i]!;
      queueDay[tail] = day[i]!;
      tail += 1;
      inflow += cents[i]!;
      continue;
    }
    // An outflow takes from the oldest inflows still within reach (first in, first out).
    let out = cents[i]!;
    const earliest = day[i]! - within;
    while (head < tail && queueDay[head]! < earliest) head += 1;
    while (out > 0 && head < tail) {
      const take = Math.min(out, queueCents[head]!);
      queueCents[head] = queueCents[head]! - take;
      out -= take;
      consumed += take;
      if (queueCents[head] === 0) head += 1;
    }
  }
  return inflow > 0 ? consumed / inflow : null;
}

/** The aggregate's value at the point (peer_ratio: the caller divides by the peer median; ratio_declared: the kit divides its sum). */
export function computeAggregate(p: Punto, a: Aggregato, liste: ListeNormalizzate): number | null {
  const f = filterOf(a);
  const days = a.finestra_giorni;
  const s = windowStart(p, days);
  const e = p.end;
  switch (a.fn) {
    case 'count': return sumCount(p, f, liste, s, e).count;
    case 'sum': case 'ratio_declared': return sumCount(p, f, liste, s, e).cents / 100;
    case 'avg': { const t = sumCount(p, f, liste, s, e); return t.count > 0 ? t.cents / t.count / 100 : null; }
    case 'peer_ratio': { const t = sumCount(p, f, liste, s, e); return a.misura === 'numero' ? t.count : t.cents / 100; }
    case 'cash_share': {
      const total = sumCount(p, f, liste, s, e).cents;
      if (total <= 0) return null;
      const cash = sumCount(p, filterOf(cashVariant(a)), liste, s, e).cents;
      return cash / total;
    }
    case 'ratio_history': {
      const history = a.storico_giorni ?? DEFAULT_HISTORY_DAYS;
      const hs = p.h.lowerBound(p.t - days - history + 1, 0, s);
      const current = sumCount(p, f, liste, s, e);
      const currentValue = a.misura === 'numero' ? current.count : current.cents;
      const past = sumCount(p, f, liste, hs, s);
      const pastValue = a.misura === 'numero' ? past.count : past.cents;
      return pastValue ? currentValue / (pastValue * days / history) : null;
    }
    case 'ratio_last_year': {
      // The same window one year earlier (or the period centred on it): a seasonal business in its
      // season is compared with its previous season, not with its winter.
      const y = lastYearPeriod(a);
      const ys = p.h.lowerBound(p.t - y.from + 1, 0, s);
      const ye = p.h.lowerBound(p.t - y.to + 1, ys, s);
      const current = sumCount(p, f, liste, s, e);
      const currentValue = a.misura === 'numero' ? current.count : current.cents;
      const past = sumCount(p, f, liste, ys, ye);
      const pastValue = a.misura === 'numero' ? past.count : past.cents;
      return pastValue ? currentValue / (pastValue * days / y.days) : null;
    }
    case 'max': {
      const { match } = columnsOf(p.h, f, liste);
      let max = -1;
      for (let i = s; i < e; i++) if (matches(p, match, f, i) && p.h.cents[i]! > max) max = p.h.cents[i]!;
      return max < 0 ? null : max / 100;
    }
    case 'distinct_counterparties': {
      const { match } = columnsOf(p.h, f, liste);
      const g = nextGeneration(p.h.counterparties);
      let n = 0;
      for (let i = s; i < e; i++) {
        const c = p.h.cp[i]!;
        if (c >= 0 && stamps[c] !== g && matches(p, match, f, i)) { stamps[c] = g; n += 1; }
      }
      return n;
    }
    case 'distinct_countries': {
      const { match } = columnsOf(p.h, f, liste);
      const seen = new Set<string>();
      for (let i = s; i < e; i++) { const k = p.h.country[i]; if (k !== null && matches(p, match, f, i)) seen.add(k); }
      return seen.size;
    }
    case 'distinct_new_counterparties': {
      const { match } = columnsOf(p.h, f, liste);
      const hs = p.h.lowerBound(p.t - days - (a.storico_giorni ?? DEFAULT_HISTORY_DAYS) + 1, 0, s);
      const g = nextGeneration(p.h.counterparties);
      let n = 0;
      for (let i = s; i < e; i++) {
        const c = p.h.cp[i]!;
        if (c < 0 || stamps[c] === g || !matches(p, match, f, i)) continue;
        stamps[c] = g;
        // The first matching occurrence in the window: was there a matching one in the history before it?
        let seenBefore = false;
        for (let j = p.h.prevCp[i]!; j >= hs; j = p.h.prevCp[j]!) if (j < s && matches(p, match, f, j)) { seenBefore = true; break; }
        if (!seenBefore) n += 1;
      }
      return n;
    }
    case 'days_since_previous': {
      const { match } = columnsOf(p.h, f, liste);
      const anchor = anchorOf(p, match, f);
      if (anchor < 0) return null;
      for (let j = anchor - 1; j >= s; j--) if (matches(p, match, f, j)) return p.h.day[anchor]! - p.h.day[j]!;
      return null;
    }
    case 'passthrough_share': {
      const { match } = columnsOf(p.h, f, liste);
      return passthrough(p, match, f, s, e, a.entro_giorni ?? DEFAULT_PASSTHROUGH_DAYS);
    }
  }
}

/** The movements the aggregate counted at the point (the evidence of a hit), appended to `out` as indices. */
export function aggregateMovements(p: Punto, a: Aggregato, liste: ListeNormalizzate, out: number[], limit: number): void {
  const f = filterOf(a);
  const { match } = columnsOf(p.h, f, liste);
  const s = windowStart(p, a.finestra_giorni);
  if (a.fn === 'days_since_previous') {
    const anchor = anchorOf(p, match, f);
    if (anchor < 0) return;
    for (let j = anchor - 1; j >= s; j--) if (matches(p, match, f, j)) { out.push(j); break; }
    out.push(anchor);
    return;
  }
  const cash = a.fn === 'cash_share' ? columnsOf(p.h, filterOf(cashVariant(a)), liste).match : null;
  for (let i = s; i < p.end && out.length < limit; i++) if (matches(p, cash ?? match, f, i)) out.push(i);
}
