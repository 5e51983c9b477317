import { aggregateKey, ConditionEvaluationError, type Aggregato } from '../../../kit/conditions';
import { FLAG_CONTANTI, FLAG_ENTRATA, FLAG_TONDO, type FilterColumns, type StoricoIndicizzato } from './engine.history';

/**
 * An aggregate's movement filters (segno, contanti, counterparty countries or IBAN countries,
 * causali, canali, amount band, round amounts), compiled once per aggregate node and applied once
 * per history: each movement's match and the prefix sums of the matching ones are columns of the
 * history, so a window's count or sum is two binary searches and two subtractions. The level
 * (`livello: rapporto`) is not part of the columns: it depends on the evaluated relationship and
 * is checked while scanning.
 */

/** Named lists as the engine reads them: upper-cased sets (prepareRules normalises them once). */
export type ListeNormalizzate = Readonly<Record<string, ReadonlySet<string>>>;

type SetRef = { literal: ReadonlySet<string> } | { lista: string };
const ANY = 0;
const YES = 1;
const NO = 2;

export interface FiltroCompilato {
  /** The filter's own key (the aggregate's key without its function, window and options). */
  key: string;
  segno: number;
  contanti: number;
  tondi: number;
  minCents: number;
  maxCents: number;
  paesi: SetRef | null;
  causali: SetRef | null;
  canali: SetRef | null;
  rapporto: boolean;
}

const setRef = (v: readonly string[] | { lista: string } | undefined): SetRef | null => {
  if (v === undefined) return null;
  return 'lista' in v ? { lista: v.lista } : { literal: new Set(v.map((x) => x.trim().toUpperCase())) };
};

const compiled = new WeakMap<Aggregato, FiltroCompilato>();

export function filterOf(a: Aggregato): FiltroCompilato {
  let f = compiled.get(a);
  if (f) return f;
  const key = aggregateKey({
    fn: 'count', finestra_giorni: 1, segno: a.segno, contanti: a.contanti, paesi_controparte: a.paesi_controparte, causali: a.causali,
    canali: a.canali, importo_min: a.importo_min, importo_max: a.importo_max, tondi: a.tondi,
  }).slice('count:1'.length);
  f = {
    key,
    segno: a.segno === undefined ? ANY : a.segno === 'entrata' ? YES : NO,
    contanti: a.contanti === undefined ? ANY : a.contanti ? YES : NO,
    tondi: a.tondi === undefined ? ANY : a.tondi ? YES : NO,
    minCents: a.importo_min === undefined ? -Infinity : Math.round(a.importo_min * 100),
    maxCents: a.importo_max === undefined ? Infinity : Math.round(a.importo_max * 100),
    paesi: setRef(a.paesi_controparte), causali: setRef(a.causali), canali: setRef(a.canali),
    rapporto: a.livello === 'rapporto',
  };
  compiled.set(a, f);
  return f;
}

/** The same filter with contanti forced (cash_share's numerator). */
const cashVariants = new WeakMap<Aggregato, Aggregato>();
export function cashVariant(a: Aggregato): Aggregato {
  let v = cashVariants.get(a);
  if (!v) { v = { ...a, contanti: true }; cashVariants.set(a, v); }
  return v;
}

function resolve(ref: SetRef, liste: ListeNormalizzate): ReadonlySet<string> {
  if ('literal' in ref) return ref.literal;
  const list = Object.prototype.hasOwnProperty.call(liste, ref.lista) ? liste[ref.lista] : undefined;
  if (!list) throw new ConditionEvaluationError('lista_sconosciuta', `unknown list: ${ref.lista}`);
  return list;
}

const bit = (flags: number, mask: number, want: number) => want === ANY || ((flags & mask) !== 0) === (want === YES);

/** The filter's columns for this history: computed on first use, kept with the lists they were computed for. */
export function columnsOf(h: StoricoIndicizzato, f: FiltroCompilato, liste: ListeNormalizzate): FilterColumns {
  const cached = h.filters.get(f.key);
  if (cached && cached.liste === liste) return cached;
  const paesi = f.paesi ? resolve(f.paesi, liste) : null;
  const causali = f.causali ? resolve(f.causali, liste) : null;
  const canali = f.canali ? resolve(f.canali, liste) : null;
  const n = h.n;
  const match = new Uint8Array(n);
  const sumCents = new Float64Array(n + 1);
  const count = new Int32Array(n + 1);
  const { flags, cents, country, ibanCountry, causale, canale } = h;
  let s = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    sumCents[i] = s;
    count[i] = c;
    const fl = flags[i]!;
    const amount = cents[i]!;
    let ok = bit(fl, FLAG_ENTRATA, f.segno) && bit(fl, FLAG_CONTANTI, f.contanti) && bit(fl, FLAG_TONDO, f.tondi)
      && amount >= f.minCents && amount <= f.maxCents;
    if (ok && paesi) {
      const k = country[i];
      const b = ibanCountry[i];
      ok = (k !== null && paesi.has(k)) || (b !== null && paesi.has(b));
    }
    if (ok && causali) { const k = causale[i]; ok = k !== null && causali.has(k); }
    if (ok && canali) { const k = canale[i]; ok = k !== null && canali.has(k); }
    if (ok) { match[i] = 1; s += amount; c += 1; }
  }
  sumCents[n] = s;
  count[n] = c;
  const columns: FilterColumns = { match, sumCents, count, liste };
  h.filters.set(f.key, columns);
  return columns;
}
