import { DEFAULT_BUDGET, FORBIDDEN_SEGMENTS, MAX_DEPTH, OPERATORI } from './condition.limits';
import { aggregateKey, loadedAggregate } from './condition.keys';
import {
  COSTI, ConditionBudgetError, ConditionEvaluationError, DEFAULT_DECLARED_DAYS, DEFAULT_DECLARED_FIELD, type ContestoCondizione,
} from './condition.evaluate';
import type { Aggregato, Condizione, EsitoCondizione, Lettura, Operatore, Valore } from './condition.types';

/**
 * The compiled evaluator: the same language, semantics, cost model and explanation as
 * evaluateCondition (the interpreter, condition.evaluate.ts), with the tree walked once.
 * compileCondition turns a condition into a tree of step objects: field paths split and
 * checked once, aggregate keys computed once, literal arrays turned into normalised sets once,
 * each operator resolved to its own comparison. Evaluating it then only reads the data.
 *
 * Identical by construction and by test (test/unit/risk-engine-compiled.test.ts):
 * - the same steps charge the same costs in the same order, so `costo` and the point where a
 *   budget is exceeded (ConditionBudgetError with its costo) are the interpreter's;
 * - AND/OR are lazy in the same order, so `letti` lists the same reads in the same order;
 * - a malformed node throws condizione_non_valida only when the evaluation reaches it, an
 *   unknown list lista_sconosciuta when a comparison needs it, as the interpreter does.
 *
 * Steps are objects with a `kind`, run by module functions (no closure is made per call: under
 * tsx every closure made is named, which costs more than the work). Pure, no eval.
 */

type Scalar = string | number | boolean;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const norm = (v: Scalar): Scalar => (typeof v === 'string' ? v.toUpperCase() : v);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const KNOWN_OPERATORS: ReadonlySet<string> = new Set(OPERATORI);
const hasOwn = Object.prototype.hasOwnProperty;
const INVALID = 'not a valid condition (validate it with conditionSchema)';

/** A field path, split once; `forbidden` marks a path through a prototype name (reads as missing, as in the interpreter). */
interface FieldPath { path: string; segments: readonly string[]; forbiddenAt: number }

function fieldPath(path: string): FieldPath {
  const segments = path.split('.');
  const forbiddenAt = segments.findIndex((s) => FORBIDDEN_SEGMENTS.has(s));
  return { path, segments, forbiddenAt };
}

/** The set a membership operator compares with: a literal array's (built now) or a named list's (looked up in the context). */
type SetSource =
  | { kind: 'literal'; set: ReadonlySet<Scalar> }
  | { kind: 'list'; name: string }
  | { kind: 'invalid' };

type Comparison =
  | { op: 'unknown'; label: string }
  | { op: 'exists' | 'not_exists' }
  | { op: 'eq' | 'ne'; valore: Scalar | null }
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; valore: unknown }
  | { op: 'between'; bounds: readonly [unknown, unknown] | null }
  | { op: 'in' | 'not_in' | 'intersects'; source: SetSource };

type Step =
  | { kind: 'invalid'; message: string }
  | { kind: 'tutti' | 'almeno_uno'; children: Step[] }
  | { kind: 'non'; child: Step }
  | { kind: 'campo'; field: FieldPath; cmp: Comparison }
  | {
    kind: 'aggregato'; aggregate: Aggregato; loaded: string; loadedRead: string; ratio: null | { read: string; days: number }; cmp: Comparison;
  };

/** A compiled condition: evaluate it as often as needed, with any context. */
export interface CondizioneCompilata {
  readonly condizione: Condizione;
  evaluate(ctx: ContestoCondizione): EsitoCondizione;
}

function compileSource(valore: Valore | undefined): SetSource {
  if (Array.isArray(valore)) {
    return { kind: 'literal', set: new Set((valore as unknown[]).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(norm)) };
  }
  if (isRecord(valore) && typeof valore.lista === 'string') return { kind: 'list', name: valore.lista };
  return { kind: 'invalid' };
}

function compileComparison(op: Operatore, valore: Valore | undefined): Comparison {
  if (!KNOWN_OPERATORS.has(op)) return { op: 'unknown', label: String(op) };
  switch (op) {
    case 'exists': case 'not_exists': return { op };
    case 'eq': case 'ne': return { op, valore: isScalar(valore) ? norm(valore) : null };
    case 'gt': case 'gte': case 'lt': case 'lte': return { op, valore };
    case 'between': return { op, bounds: Array.isArray(valore) && valore.length === 2 ? [valore[0], valore[1]] : null };
    case 'in': case 'not_in': case 'intersects': return { op, source: compileSource(valore) };
  }
}

function compileStep(node: Condizione, depth: number): Step {
  if (depth > MAX_DEPTH || !isRecord(node)) return { kind: 'invalid', message: INVALID };
  if ('tutti' in node) return Array.isArray(node.tutti) ? { kind: 'tutti', children: node.tutti.map((c) => compileStep(c, depth + 1)) } : { kind: 'invalid', message: 'tutti needs an array' };
  if ('almeno_uno' in node) {
    return Array.isArray(node.almeno_uno)
      ? { kind: 'almeno_uno', children: node.almeno_uno.map((c) => compileStep(c, depth + 1)) } : { kind: 'invalid', message: 'almeno_uno needs an array' };
  }
  if ('non' in node) return { kind: 'non', child: compileStep(node.non, depth + 1) };
  if ('aggregato' in node) {
    const a: Aggregato = node.aggregato;
    if (!isRecord(a)) return { kind: 'invalid', message: INVALID };
    const aggregate = loadedAggregate(a);
    const loaded = aggregateKey(aggregate);
    return {
      kind: 'aggregato', aggregate, loaded, loadedRead: `aggregato:${loaded}`,
      ratio: a.fn === 'ratio_declared' ? { read: `aggregato:${aggregateKey(a)}`, days: a.finestra_giorni } : null,
      cmp: compileComparison(node.op, node.valore),
    };
  }
  if ('campo' in node && typeof node.campo === 'string') return { kind: 'campo', field: fieldPath(node.campo), cmp: compileComparison(node.op, node.valore) };
  return { kind: 'invalid', message: INVALID };
}

interface State {
  ctx: ContestoCondizione;
  budget: number;
  costo: number;
  /** Reads in order, each path once (a rule reads a handful: a list is cheaper than a Map). */
  letti: Lettura[];
}

function charge(st: State, n: number) {
  st.costo += n;
  if (st.costo > st.budget) throw new ConditionBudgetError(st.costo, st.budget);
}

function record(st: State, path: string, valore: unknown) {
  const letti = st.letti;
  for (let i = 0; i < letti.length; i++) if (letti[i]!.path === path) return;
  letti.push({ path, valore });
}

function readPath(st: State, f: FieldPath): unknown {
  const segments = f.segments;
  charge(st, segments.length * COSTI.segmento);
  let v: unknown = st.ctx.dati;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (i === f.forbiddenAt || typeof v !== 'object' || v === null || !hasOwn.call(v, s)) { v = undefined; break; }
    v = (v as Record<string, unknown>)[s];
  }
  record(st, f.path, v === undefined ? null : v);
  return v;
}

/** The declared-volume path of a context: the default one split once, any other split when met. */
const DEFAULT_DECLARED = fieldPath(DEFAULT_DECLARED_FIELD);
const declaredPaths = new Map<string, FieldPath>();
function declaredPath(ctx: ContestoCondizione): FieldPath {
  const p = ctx.campoDichiarato;
  if (p === undefined || p === DEFAULT_DECLARED_FIELD) return DEFAULT_DECLARED;
  let f = declaredPaths.get(p);
  if (!f) { f = fieldPath(p); if (declaredPaths.size < 100) declaredPaths.set(p, f); }
  return f;
}

function readAggregate(st: State, s: Extract<Step, { kind: 'aggregato' }>): number | null {
  charge(st, COSTI.aggregato);
  const { aggregati, fonte } = st.ctx;
  const raw = fonte ? fonte.valore(s.aggregate, s.loaded) : hasOwn.call(aggregati, s.loaded) ? aggregati[s.loaded] : undefined;
  const value = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
  record(st, s.loadedRead, value);
  if (s.ratio === null) return value;
  charge(st, COSTI.rapporto_dichiarato);
  const declared = readPath(st, declaredPath(st.ctx));
  const ratio = value !== null && typeof declared === 'number' && Number.isFinite(declared) && declared > 0
    ? (value * (st.ctx.giorniDichiarato ?? DEFAULT_DECLARED_DAYS) / s.ratio.days) / declared : null;
  record(st, s.ratio.read, ratio);
  return ratio;
}

/** Named lists normalised once per list object (the contexts of a run share theirs). */
const listSets = new WeakMap<ReadonlySet<string>, ReadonlySet<Scalar>>();
function setOf(st: State, source: SetSource): ReadonlySet<Scalar> {
  if (source.kind === 'literal') return source.set;
  if (source.kind === 'list') {
    const liste = st.ctx.liste;
    const list = hasOwn.call(liste, source.name) ? liste[source.name] : undefined;
    if (!list) throw new ConditionEvaluationError('lista_sconosciuta', `unknown list: ${source.name}`);
    let set = listSets.get(list);
    if (!set) {
      set = new Set([...list as Iterable<unknown>].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(norm));
      listSets.set(list, set);
    }
    return set;
  }
  throw new ConditionEvaluationError('condizione_non_valida', 'in/not_in/intersects need an array or { lista }');
}

function orderable(a: unknown, b: unknown): boolean {
  return (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b))
    || (typeof a === 'string' && typeof b === 'string' && ISO_DAY.test(a) && ISO_DAY.test(b));
}

function compare(st: State, v: unknown, c: Comparison): boolean {
  if (c.op === 'unknown') throw new ConditionEvaluationError('condizione_non_valida', `unknown operator: ${c.label}`);
  const absent = v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
  if (c.op === 'exists') return !absent;
  if (c.op === 'not_exists') return absent;
  if (v === undefined || v === null) return false;
  switch (c.op) {
    case 'eq': case 'ne': {
      if (!isScalar(v) || c.valore === null) return false;
      const equal = norm(v) === c.valore;
      return c.op === 'eq' ? equal : !equal;
    }
    case 'gt': case 'gte': case 'lt': case 'lte': {
      if (!orderable(v, c.valore)) return false;
      const x = v as number | string;
      const y = c.valore as number | string;
      return c.op === 'gt' ? x > y : c.op === 'gte' ? x >= y : c.op === 'lt' ? x < y : x <= y;
    }
    case 'between': {
      if (c.bounds === null) throw new ConditionEvaluationError('condizione_non_valida', 'between needs [min, max]');
      const [lo, hi] = c.bounds;
      return orderable(v, lo) && orderable(v, hi) && (v as number | string) >= (lo as number | string) && (v as number | string) <= (hi as number | string);
    }
    case 'in': case 'not_in': {
      const set = setOf(st, c.source);
      if (!(typeof v === 'string' || typeof v === 'number')) return false;
      charge(st, COSTI.appartenenza);
      const member = set.has(norm(v));
      return c.op === 'in' ? member : !member;
    }
    case 'intersects': {
      const set = setOf(st, c.source);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          charge(st, COSTI.elemento);
          const x: unknown = v[i];
          if ((typeof x === 'string' || typeof x === 'number') && set.has(norm(x))) return true;
        }
        return false;
      }
      charge(st, COSTI.elemento);
      return (typeof v === 'string' || typeof v === 'number') && set.has(norm(v));
    }
  }
}

function run(st: State, s: Step): boolean {
  charge(st, COSTI.nodo);
  switch (s.kind) {
    case 'tutti': {
      const children = s.children;
      for (let i = 0; i < children.length; i++) if (!run(st, children[i]!)) return false;
      return true;
    }
    case 'almeno_uno': {
      const children = s.children;
      for (let i = 0; i < children.length; i++) if (run(st, children[i]!)) return true;
      return false;
    }
    case 'non': return !run(st, s.child);
    case 'aggregato': return compare(st, readAggregate(st, s), s.cmp);
    case 'campo': return compare(st, readPath(st, s.field), s.cmp);
    case 'invalid': throw new ConditionEvaluationError('condizione_non_valida', s.message);
  }
}

class Compiled implements CondizioneCompilata {
  private readonly step: Step;
  constructor(readonly condizione: Condizione) { this.step = compileStep(condizione, 1); }
  evaluate(ctx: ContestoCondizione): EsitoCondizione {
    const st: State = { ctx, budget: ctx.budget ?? DEFAULT_BUDGET, costo: 0, letti: [] };
    const vero = run(st, this.step);
    return { vero, letti: st.letti, costo: st.costo };
  }
}

/**
 * Compiles a condition once (it should have passed validateCondition; a malformed part throws
 * when an evaluation reaches it, as in the interpreter). The condition must not change afterwards.
 */
export function compileCondition(c: Condizione): CondizioneCompilata {
  return new Compiled(c);
}
