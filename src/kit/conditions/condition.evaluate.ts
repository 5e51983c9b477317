import { DEFAULT_BUDGET, FORBIDDEN_SEGMENTS, MAX_DEPTH, OPERATORI } from './condition.limits';
import { aggregateKey, loadedAggregate } from './condition.keys';
import type { Aggregato, Condizione, EsitoCondizione, Lettura, Operatore, Valore } from './condition.types';

/**
 * The safe evaluator. It interprets the tree (no eval, no Function, no dynamic property access
 * beyond own properties of plain data), charges a cost for each step against a budget, and stops
 * an AND at its first false child and an OR at its first true one.
 *
 * Semantics (docs/conditions.md):
 * - A field is read by its dotted path through own properties; a missing path reads as missing.
 * - A comparison with a missing or null value is false, whatever the operator (ne and not_in too):
 *   "unknown" never fires a rule. `exists`/`not_exists` test presence: null, undefined, '' and []
 *   are absent. `non` negates the answer, so `non` of a comparison with a missing value is true.
 * - Strings compare case-insensitively (country codes arrive as 'it' or 'IT'; codes never differ
 *   by case alone). No coercion between types: the number 1 is not the text '1'.
 * - gt/gte/lt/lte/between order numbers, or ISO days ('YYYY-MM-DD') against ISO days; between is inclusive.
 * - in/not_in: a scalar field in a literal array or a named list. intersects: an array field (a
 *   scalar reads as an array of one) with at least one element in it.
 * - Aggregates read ctx.aggregati by canonical key, or ask ctx.fonte when the caller computes them
 *   on demand (monitoring's engine); a null, absent or non-finite value is missing.
 *   ratio_declared = the window's `sum` × ctx.giorniDichiarato (default 365) / finestra_giorni ÷ the
 *   declared volume read at ctx.campoDichiarato (default `dichiarato.volume_annuo_eur`); missing
 *   when either is missing or the declared volume is not positive.
 */

/**
 * Aggregates computed when a condition reads them (monitoring's engine): asked with the loaded
 * aggregate (loadedAggregate) and its canonical key, in the order the evaluation reaches them.
 * One object serves many evaluations (no closure per evaluation); it may remember values per point.
 */
export interface FonteAggregati {
  valore(aggregato: Aggregato, chiave: string): number | null | undefined;
}

export interface ContestoCondizione {
  /** The subject's data, read by dotted paths (the risk profile, a transaction...). */
  dati: unknown;
  /** The loader's values by aggregateKey (movementAggregates); not read when `fonte` is given. */
  aggregati: Readonly<Record<string, number | null>>;
  /** Computes aggregates on demand instead of `aggregati` (lazy: only those the evaluation reaches). */
  fonte?: FonteAggregati;
  /** Named lists, e.g. country lists by code. */
  liste: Readonly<Record<string, ReadonlySet<string>>>;
  /** The evaluation day (YYYY-MM-DD): the day the aggregates' windows end. */
  oggi: string;
  /** Cost units the evaluation may spend (default DEFAULT_BUDGET). */
  budget?: number;
  /** Where ratio_declared reads the declared volume. */
  campoDichiarato?: string;
  /** The period, in days, the declared volume covers: 365 (a yearly volume, the default) or 30 (monitoring's monthly one). */
  giorniDichiarato?: number;
}

export type CodiceErroreCondizione = 'budget_superato' | 'lista_sconosciuta' | 'condizione_non_valida';

export class ConditionEvaluationError extends Error {
  constructor(public readonly codice: CodiceErroreCondizione, message: string) {
    super(message);
    this.name = 'ConditionEvaluationError';
  }
}

/** The evaluation spent more than its budget: the rule is too expensive (or the data hostile). */
export class ConditionBudgetError extends ConditionEvaluationError {
  constructor(public readonly costo: number, public readonly budget: number) {
    super('budget_superato', `condition evaluation cost exceeds its budget (${costo} > ${budget})`);
    this.name = 'ConditionBudgetError';
  }
}

/**
 * The cost model: what each step charges. A node is 1, a field read 1 per path segment, an
 * aggregate read 2 (ratio_declared 3 plus its field read), a membership test 1, intersects 1 per
 * element of the field's array. Literal arrays are turned into sets once per array and cached.
 */
export const COSTI = { nodo: 1, segmento: 1, aggregato: 2, rapporto_dichiarato: 3, appartenenza: 1, elemento: 1 } as const;

export const DEFAULT_DECLARED_FIELD = 'dichiarato.volume_annuo_eur';
export const DEFAULT_DECLARED_DAYS = 365;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const KNOWN_OPERATORS: ReadonlySet<string> = new Set(OPERATORI);

type Scalar = string | number | boolean;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const norm = (v: Scalar): Scalar => (typeof v === 'string' ? v.toUpperCase() : v);

/** Literal arrays and named lists as sets of normalised values, built once per array/set object. */
const literalSets = new WeakMap<readonly unknown[], ReadonlySet<Scalar>>();
const listSets = new WeakMap<ReadonlySet<string>, ReadonlySet<Scalar>>();
function normalisedSet<K extends object>(cache: WeakMap<K, ReadonlySet<Scalar>>, key: K, values: Iterable<unknown>): ReadonlySet<Scalar> {
  let set = cache.get(key);
  if (!set) {
    set = new Set([...values].filter((v): v is Scalar => typeof v === 'string' || typeof v === 'number').map(norm));
    cache.set(key, set);
  }
  return set;
}

/** Aggregate keys by node: a rule set is evaluated for every customer of a run, its nodes stay the same objects. */
const keyCache = new WeakMap<Aggregato, { loaded: string; own: string; aggregate: Aggregato }>();
function keysOf(a: Aggregato) {
  let k = keyCache.get(a);
  if (!k) { const aggregate = loadedAggregate(a); k = { loaded: aggregateKey(aggregate), own: aggregateKey(a), aggregate }; keyCache.set(a, k); }
  return k;
}

/**
 * One evaluation's state. The steps are module functions over it rather than closures made per
 * call: a run evaluates millions of conditions, and the loader (tsx) names every closure it makes.
 */
interface State {
  ctx: ContestoCondizione;
  budget: number;
  costo: number;
  reads: Map<string, unknown>;
}

function charge(st: State, n: number) {
  st.costo += n;
  if (st.costo > st.budget) throw new ConditionBudgetError(st.costo, st.budget);
}

function record(st: State, path: string, valore: unknown) { if (!st.reads.has(path)) st.reads.set(path, valore); }

function readField(st: State, path: string): unknown {
  const segments = path.split('.');
  charge(st, segments.length * COSTI.segmento);
  let v: unknown = st.ctx.dati;
  for (const s of segments) {
    if (FORBIDDEN_SEGMENTS.has(s) || typeof v !== 'object' || v === null || !Object.prototype.hasOwnProperty.call(v, s)) { v = undefined; break; }
    v = (v as Record<string, unknown>)[s];
  }
  record(st, path, v === undefined ? null : v);
  return v;
}

function readAggregate(st: State, a: Aggregato): number | null {
  charge(st, COSTI.aggregato);
  const keys = keysOf(a);
  const { aggregati, fonte } = st.ctx;
  const raw = fonte ? fonte.valore(keys.aggregate, keys.loaded)
    : Object.prototype.hasOwnProperty.call(aggregati, keys.loaded) ? aggregati[keys.loaded] : undefined;
  const value = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
  record(st, `aggregato:${keys.loaded}`, value);
  if (a.fn !== 'ratio_declared') return value;
  charge(st, COSTI.rapporto_dichiarato);
  const declared = readField(st, st.ctx.campoDichiarato ?? DEFAULT_DECLARED_FIELD);
  const ratio = value !== null && typeof declared === 'number' && Number.isFinite(declared) && declared > 0
    ? (value * (st.ctx.giorniDichiarato ?? DEFAULT_DECLARED_DAYS) / a.finestra_giorni) / declared : null;
  record(st, `aggregato:${keys.own}`, ratio);
  return ratio;
}

function setOf(st: State, valore: Valore | undefined): ReadonlySet<Scalar> {
  if (Array.isArray(valore)) return normalisedSet(literalSets, valore, valore);
  if (isRecord(valore) && typeof valore.lista === 'string') {
    const liste = st.ctx.liste;
    const list = Object.prototype.hasOwnProperty.call(liste, valore.lista) ? liste[valore.lista] : undefined;
    if (!list) throw new ConditionEvaluationError('lista_sconosciuta', `unknown list: ${valore.lista}`);
    return normalisedSet(listSets, list, list);
  }
  throw new ConditionEvaluationError('condizione_non_valida', 'in/not_in/intersects need an array or { lista }');
}

function orderable(a: unknown, b: unknown): boolean {
  return (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b))
    || (typeof a === 'string' && typeof b === 'string' && ISO_DAY.test(a) && ISO_DAY.test(b));
}

const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function compare(st: State, v: unknown, op: Operatore, valore: Valore | undefined): boolean {
  if (!KNOWN_OPERATORS.has(op)) throw new ConditionEvaluationError('condizione_non_valida', `unknown operator: ${String(op)}`);
  const absent = v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
  if (op === 'exists') return !absent;
  if (op === 'not_exists') return absent;
  if (v === undefined || v === null) return false;
  switch (op) {
    case 'eq': case 'ne': {
      if (!isScalar(v) || !isScalar(valore)) return false;
      const equal = norm(v) === norm(valore);
      return op === 'eq' ? equal : !equal;
    }
    case 'gt': case 'gte': case 'lt': case 'lte': {
      if (!orderable(v, valore)) return false;
      const [x, y] = [v as number | string, valore as number | string];
      return op === 'gt' ? x > y : op === 'gte' ? x >= y : op === 'lt' ? x < y : x <= y;
    }
    case 'between': {
      if (!Array.isArray(valore) || valore.length !== 2) throw new ConditionEvaluationError('condizione_non_valida', 'between needs [min, max]');
      const lo: unknown = valore[0];
      const hi: unknown = valore[1];
      return orderable(v, lo) && orderable(v, hi) && (v as number | string) >= (lo as number | string) && (v as number | string) <= (hi as number | string);
    }
    case 'in': case 'not_in': {
      const set = setOf(st, valore);
      if (!(typeof v === 'string' || typeof v === 'number')) return false;
      charge(st, COSTI.appartenenza);
      const member = set.has(norm(v));
      return op === 'in' ? member : !member;
    }
    case 'intersects': {
      const set = setOf(st, valore);
      const items: readonly unknown[] = Array.isArray(v) ? v : [v];
      for (const x of items) {
        charge(st, COSTI.elemento);
        if ((typeof x === 'string' || typeof x === 'number') && set.has(norm(x))) return true;
      }
      return false;
    }
    default:
      throw new ConditionEvaluationError('condizione_non_valida', `unknown operator: ${String(op)}`);
  }
}

function visit(st: State, node: Condizione, depth: number): boolean {
  charge(st, COSTI.nodo);
  if (depth > MAX_DEPTH || !isRecord(node)) throw new ConditionEvaluationError('condizione_non_valida', 'not a valid condition (validate it with conditionSchema)');
  if ('tutti' in node) {
    if (!Array.isArray(node.tutti)) throw new ConditionEvaluationError('condizione_non_valida', 'tutti needs an array');
    for (const child of node.tutti) if (!visit(st, child, depth + 1)) return false;
    return true;
  }
  if ('almeno_uno' in node) {
    if (!Array.isArray(node.almeno_uno)) throw new ConditionEvaluationError('condizione_non_valida', 'almeno_uno needs an array');
    for (const child of node.almeno_uno) if (visit(st, child, depth + 1)) return true;
    return false;
  }
  if ('non' in node) return !visit(st, node.non, depth + 1);
  if ('aggregato' in node) return compare(st, readAggregate(st, node.aggregato), node.op, node.valore);
  if ('campo' in node && typeof node.campo === 'string') return compare(st, readField(st, node.campo), node.op, node.valore);
  throw new ConditionEvaluationError('condizione_non_valida', 'not a valid condition (validate it with conditionSchema)');
}

export function evaluateCondition(c: Condizione, ctx: ContestoCondizione): EsitoCondizione {
  const st: State = { ctx, budget: ctx.budget ?? DEFAULT_BUDGET, costo: 0, reads: new Map() };
  const vero = visit(st, c, 1);
  const letti: Lettura[] = [];
  for (const [path, valore] of st.reads) letti.push({ path, valore });
  return { vero, letti, costo: st.costo };
}
