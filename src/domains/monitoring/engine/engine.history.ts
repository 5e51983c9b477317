import { ibanCountry, isRoundAmount } from '../../../kit/conditions';
import { dayNumber } from './engine.dates';
import type { MovimentoMonitorato } from './engine.types';

/**
 * A customer's movement history in columns: the days as an Int32Array (windows are binary
 * searches), amounts in cents (sums of cents are exact, so a total of exactly 10,000.00 EUR is
 * never 9,999.999…), flags, counterparties numbered per history with a link to each one's previous
 * movement, relationships numbered. Built once per customer (a replay walks it day by day with a
 * cursor; real time builds it from the stored history plus the event) and never changed: filters'
 * per-movement matches and prefix sums are added lazily by the aggregates (engine.aggregates.ts).
 */

export const FLAG_ENTRATA = 1;
export const FLAG_CONTANTI = 2;
export const FLAG_TONDO = 4;

/** The history's order: day, then time of day (none first), then id. */
export function compareMovements(a: MovimentoMonitorato, b: MovimentoMonitorato): number {
  if (a.data_operazione !== b.data_operazione) return a.data_operazione < b.data_operazione ? -1 : 1;
  const ta = a.ora_operazione ?? '';
  const tb = b.ora_operazione ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A counterparty's identity: the account, else the crypto address, else the name (case-insensitive), as the SQL loader's. */
function counterpartyKey(m: MovimentoMonitorato): string | null {
  if (m.controparte_conto) return `c:${m.controparte_conto}`;
  if (m.indirizzo_controparte) return `a:${m.indirizzo_controparte.toLowerCase()}`;
  if (m.controparte_nome) return `n:${m.controparte_nome.toLowerCase()}`;
  return null;
}

const upper = (s: string | null | undefined) => (s ? s.trim().toUpperCase() || null : null);

/** Per-filter columns, added on first use: which movements match, and prefix sums over those. */
export interface FilterColumns {
  match: Uint8Array;
  /** sumCents[i] = cents of matching movements before index i. */
  sumCents: Float64Array;
  count: Int32Array;
  /** The lists the columns were computed with (another rule set's lists compute them again). */
  liste: object;
}

export class StoricoIndicizzato {
  readonly n: number;
  readonly day: Int32Array;
  readonly cents: Float64Array;
  readonly flags: Uint8Array;
  /** Counterparty number within this history, -1 without one. */
  readonly cp: Int32Array;
  /** Index of the previous movement with the same counterparty, -1 when none. */
  readonly prevCp: Int32Array;
  readonly counterparties: number;
  /** Relationship number within this history. */
  readonly rap: Int32Array;
  readonly country: readonly (string | null)[];
  readonly ibanCountry: readonly (string | null)[];
  readonly causale: readonly (string | null)[];
  readonly canale: readonly (string | null)[];
  private readonly rapporti = new Map<string, number>();
  /** Relationship codes by number. */
  readonly codiciRapporto: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Filter key → columns (engine.aggregates.ts fills it). */
  readonly filters = new Map<string, FilterColumns>();

  /** `movimenti` must be in compareMovements order (fromMovements sorts when needed). */
  constructor(readonly movimenti: readonly MovimentoMonitorato[]) {
    const n = movimenti.length;
    this.n = n;
    this.day = new Int32Array(n);
    this.cents = new Float64Array(n);
    this.flags = new Uint8Array(n);
    this.cp = new Int32Array(n);
    this.prevCp = new Int32Array(n);
    this.rap = new Int32Array(n);
    const country: (string | null)[] = new Array<string | null>(n);
    const iban: (string | null)[] = new Array<string | null>(n);
    const causale: (string | null)[] = new Array<string | null>(n);
    const canale: (string | null)[] = new Array<string | null>(n);
    const cps = new Map<string, number>();
    const lastOfCp: number[] = [];
    let lastDay = '';
    let lastDayNumber = 0;
    for (let i = 0; i < n; i++) {
      const m = movimenti[i]!;
      if (m.data_operazione !== lastDay) { lastDay = m.data_operazione; lastDayNumber = dayNumber(lastDay); }
      this.day[i] = lastDayNumber;
      this.cents[i] = Math.round(m.importo_eur * 100);
      this.flags[i] = (m.segno === 'entrata' ? FLAG_ENTRATA : 0) | (m.contanti ? FLAG_CONTANTI : 0) | (isRoundAmount(m.importo_eur) ? FLAG_TONDO : 0);
      const key = counterpartyKey(m);
      if (key === null) { this.cp[i] = -1; this.prevCp[i] = -1; } else {
        let c = cps.get(key);
        if (c === undefined) { c = cps.size; cps.set(key, c); lastOfCp.push(-1); }
        this.cp[i] = c;
        this.prevCp[i] = lastOfCp[c]!;
        lastOfCp[c] = i;
      }
      let r = this.rapporti.get(m.cod_rapporto);
      if (r === undefined) { r = this.rapporti.size; this.rapporti.set(m.cod_rapporto, r); this.codiciRapporto.push(m.cod_rapporto); }
      this.rap[i] = r;
      if (!this.ids.has(m.id)) this.ids.set(m.id, i);
      country[i] = upper(m.controparte_paese);
      iban[i] = ibanCountry(m.controparte_conto);
      causale[i] = upper(m.causale);
      canale[i] = upper(m.canale);
    }
    this.counterparties = cps.size;
    this.country = country;
    this.ibanCountry = iban;
    this.causale = causale;
    this.canale = canale;
  }

  /** The history in order (sorted copy when the input is not). */
  static fromMovements(movimenti: readonly MovimentoMonitorato[]): StoricoIndicizzato {
    for (let i = 1; i < movimenti.length; i++) {
      if (compareMovements(movimenti[i - 1]!, movimenti[i]!) > 0) return new StoricoIndicizzato([...movimenti].sort(compareMovements));
    }
    return new StoricoIndicizzato(movimenti);
  }

  /** The relationship's number in this history, -1 when it has no movement. */
  rapportoIndex(codRapporto: string | null | undefined): number {
    return codRapporto ? this.rapporti.get(codRapporto) ?? -1 : -1;
  }

  indexOf(id: string): number { return this.ids.get(id) ?? -1; }

  /** First index in [lo, hi) whose day is ≥ d (hi when none). */
  lowerBound(d: number, lo = 0, hi = this.n): number {
    const day = this.day;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (day[mid]! < d) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
}
