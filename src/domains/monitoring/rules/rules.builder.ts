import type { ConditionIssue, Condizione } from '../../../kit/conditions';
import { OPERATORI, OPERATORI_AGGREGATO } from '../../../kit/conditions';
import { CAMPI_PER_PATH } from '../monitoring.conditions';

/**
 * The rule builder's model: a condition as rows of a form (docs/monitoring.md, "Rule pages"). One
 * group (every row, or at least one) of comparisons of a field or of an aggregate of the
 * customer's movements, each possibly negated. A condition with nested groups, or with keys the
 * builder has no control for, is edited as JSON only. Pure: the pages read the form into this
 * model, build the condition, and put the language's problems next to the row's control.
 */
export type Combinatore = 'tutti' | 'almeno_uno';
export interface BuilderRow {
  tipo: 'campo' | 'aggregato';
  non: boolean;
  campo: string;
  fn: string;
  finestra: string;
  segno: string;
  contanti: string;
  paesi: string;
  storico: string;
  op: string;
  valore: string;
  valore2: string;
}
export interface BuilderState { modo: 'costruttore' | 'json'; combinatore: Combinatore; righe: BuilderRow[]; json: string }

export const MAX_ROWS = 32;
const AGGREGATE_KEYS = new Set(['fn', 'finestra_giorni', 'segno', 'contanti', 'paesi_controparte', 'storico_giorni']);

export const emptyRow = (tipo: BuilderRow['tipo'] = 'campo'): BuilderRow => ({
  tipo, non: false, campo: tipo === 'campo' ? 'evento.importo_eur' : '', fn: tipo === 'aggregato' ? 'sum' : '', finestra: tipo === 'aggregato' ? '30' : '',
  segno: '', contanti: '', paesi: '', storico: '', op: 'gte', valore: '', valore2: '',
});

const s = (v: unknown) => (typeof v === 'string' ? v : '');

/** The builder's state from a posted form (rows r0_…, r1_…; at most MAX_ROWS). */
export function readBuilder(body: Record<string, unknown>): BuilderState {
  const n = Math.min(Math.max(Number.parseInt(s(body.righe), 10) || 0, 0), MAX_ROWS);
  const righe = Array.from({ length: n }, (_, i): BuilderRow => {
    const f = (k: string) => s(body[`r${i}_${k}`]).trim();
    return {
      tipo: f('tipo') === 'aggregato' ? 'aggregato' : 'campo', non: f('non') === '1', campo: f('campo'), fn: f('fn'), finestra: f('finestra'),
      segno: f('segno'), contanti: f('contanti'), paesi: f('paesi'), storico: f('storico'), op: f('op'), valore: f('valore'), valore2: f('valore2'),
    };
  });
  return { modo: s(body.modo) === 'json' ? 'json' : 'costruttore', combinatore: s(body.combinatore) === 'almeno_uno' ? 'almeno_uno' : 'tutti', righe, json: s(body.condizione_json) };
}

/** A number as Italians type it ("10.000,50", "0,3") or as JSON writes it ("10000.5"). */
export function parseNumber(text: string): number | undefined {
  const t = text.replace(/\s|€/g, '');
  if (!t) return undefined;
  let normal = t;
  if (t.includes(',')) normal = t.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d{1,3}(\.\d{3})+$/.test(t)) normal = t.replace(/\./g, '');
  const n = Number(normal);
  return /^-?\d+(\.\d+)?$/.test(normal) && Number.isFinite(n) ? n : undefined;
}

const list = (text: string, numeric: boolean): unknown => {
  const t = text.trim();
  if (/^lista:/i.test(t)) return { lista: t.slice(6).trim() };
  const parts = t.split(/[;,]/).map((x) => x.trim()).filter(Boolean);
  return numeric ? parts.map((x) => parseNumber(x) ?? x) : parts;
};

type RowErrors = Record<string, string>;
const YES = new Set(['sì', 'si', 'true', 'vero']);
const NO = new Set(['no', 'false', 'falso']);

/** One row as a node of the language; a value the row's type cannot read is an error on its control. */
function rowNode(r: BuilderRow, i: number, errors: RowErrors): Condizione {
  const key = (c: string) => `r${i}_${c}`;
  const num = (text: string, control: string) => {
    const n = parseNumber(text);
    if (n === undefined) errors[key(control)] ??= 'Indica un numero (es. 10.000 oppure 0,3)';
    return n ?? 0;
  };
  let node: Record<string, unknown>;
  const noValue = r.op === 'exists' || r.op === 'not_exists';
  if (r.tipo === 'aggregato') {
    const a: Record<string, unknown> = { fn: r.fn, finestra_giorni: Number.parseInt(r.finestra, 10) };
    if (!/^\d+$/.test(r.finestra)) errors[key('finestra')] = 'Indica i giorni della finestra: un numero intero';
    if (r.segno) a.segno = r.segno;
    if (r.contanti) a.contanti = r.contanti === 'true';
    // Country codes are upper case whatever was typed; a list keeps its name.
    if (r.paesi) a.paesi_controparte = /^lista:/i.test(r.paesi) ? list(r.paesi, false) : list(r.paesi.toUpperCase(), false);
    if (r.storico) {
      if (/^\d+$/.test(r.storico)) a.storico_giorni = Number(r.storico);
      else errors[key('storico')] = 'Indica i giorni di storico: un numero intero';
    }
    node = { aggregato: a, op: r.op };
    if (!noValue) node.valore = r.op === 'between' ? [num(r.valore, 'valore'), num(r.valore2, 'valore2')] : num(r.valore, 'valore');
  } else {
    const tipo = CAMPI_PER_PATH.get(r.campo)?.tipo;
    node = { campo: r.campo, op: r.op };
    if (!noValue) {
      if (r.op === 'between') node.valore = tipo === 'numero' ? [num(r.valore, 'valore'), num(r.valore2, 'valore2')] : [r.valore, r.valore2];
      else if (r.op === 'in' || r.op === 'not_in' || r.op === 'intersects') node.valore = list(r.valore, tipo === 'numero');
      else if (tipo === 'sì/no') node.valore = YES.has(r.valore.toLowerCase()) ? true : NO.has(r.valore.toLowerCase()) ? false : r.valore;
      else if (tipo === 'numero') node.valore = num(r.valore, 'valore');
      else node.valore = r.valore;
    }
  }
  return (r.non ? { non: node } : node) as Condizione;
}

/**
 * The condition the builder's rows make: always one group, so every node has a stable path
 * (`tutti.1.op`). Errors are keyed by the row's control (`r1_valore`).
 */
export function buildCondition(state: BuilderState): { condizione: unknown; errors: RowErrors; jsonError?: string } {
  if (state.modo === 'json') {
    try {
      return { condizione: JSON.parse(state.json), errors: {} };
    } catch (err) {
      return { condizione: undefined, errors: {}, jsonError: `JSON non valido: ${(err as Error).message}` };
    }
  }
  const errors: RowErrors = {};
  const nodes = state.righe.map((r, i) => rowNode(r, i, errors));
  return { condizione: { [state.combinatore]: nodes }, errors };
}

const CONTROL: Record<string, string> = {
  campo: 'campo', op: 'op', valore: 'valore', fn: 'fn', finestra_giorni: 'finestra', segno: 'segno', contanti: 'contanti',
  paesi_controparte: 'paesi', storico_giorni: 'storico',
};

/**
 * Where each problem of the language goes on the form: next to the row's control, with the path
 * of the node (`condizione.tutti.1.op`) so an expert can find it in the JSON; problems of the whole
 * condition (or of a condition edited as JSON) go above the rows.
 */
export function placeIssues(state: BuilderState, issues: readonly ConditionIssue[]): { rows: RowErrors; general: string[] } {
  const rows: RowErrors = {};
  const general: string[] = [];
  for (const issue of issues) {
    const path = ['condizione', ...issue.path].join('.');
    const [group, index, ...rest] = issue.path;
    if (state.modo === 'costruttore' && group === state.combinatore && typeof index === 'number' && index < state.righe.length) {
      const tail = rest[0] === 'non' ? rest.slice(1) : rest;
      const control = tail[0] === 'aggregato' ? CONTROL[String(tail[1])] : CONTROL[String(tail[0])];
      rows[`r${index}_${control ?? 'riga'}`] ??= `${issue.message} (${path})`;
    } else {
      general.push(`${path}: ${issue.message}`);
    }
  }
  return { rows, general };
}

const text = (v: unknown) => (typeof v === 'boolean' ? (v ? 'sì' : 'no') : typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '');
const listText = (v: unknown) => (Array.isArray(v) ? v.map(text).join(', ') : v && typeof v === 'object' && 'lista' in v ? `lista:${text((v as { lista: unknown }).lista)}` : text(v));

function leafRow(node: Record<string, unknown>, non: boolean): BuilderRow | undefined {
  const op = text(node.op);
  const between = op === 'between' && Array.isArray(node.valore) ? node.valore : undefined;
  const valore = between ? text(between[0]) : listText(node.valore);
  const valore2 = between ? text(between[1]) : '';
  if ('campo' in node) {
    if (Object.keys(node).some((k) => !['campo', 'op', 'valore'].includes(k))) return undefined;
    return { ...emptyRow('campo'), non, campo: text(node.campo), op, valore, valore2 };
  }
  const a = node.aggregato as Record<string, unknown> | undefined;
  if (!a || typeof a !== 'object' || Object.keys(a).some((k) => !AGGREGATE_KEYS.has(k))) return undefined;
  if (Object.keys(node).some((k) => !['aggregato', 'op', 'valore'].includes(k))) return undefined;
  return {
    ...emptyRow('aggregato'), non, fn: text(a.fn), finestra: text(a.finestra_giorni), segno: text(a.segno),
    contanti: a.contanti === undefined ? '' : String(a.contanti), paesi: a.paesi_controparte === undefined ? '' : listText(a.paesi_controparte),
    storico: text(a.storico_giorni), op, valore, valore2,
  };
}

/** The rows of a stored condition, or undefined when the builder cannot show it (nested groups, keys it has no control for). */
export function conditionToRows(c: unknown): { combinatore: Combinatore; righe: BuilderRow[] } | undefined {
  if (!c || typeof c !== 'object') return undefined;
  const o = c as Record<string, unknown>;
  const group = 'tutti' in o ? 'tutti' : 'almeno_uno' in o ? 'almeno_uno' : undefined;
  const children = group ? o[group] : [o];
  if (!Array.isArray(children) || children.length > MAX_ROWS) return undefined;
  const righe: BuilderRow[] = [];
  for (const child of children) {
    if (!child || typeof child !== 'object') return undefined;
    const ch = child as Record<string, unknown>;
    const non = 'non' in ch;
    const leaf = (non ? ch.non : ch) as Record<string, unknown> | undefined;
    if (!leaf || typeof leaf !== 'object' || 'tutti' in leaf || 'almeno_uno' in leaf || 'non' in leaf) return undefined;
    const row = leafRow(leaf, non);
    if (!row) return undefined;
    righe.push(row);
  }
  return { combinatore: (group ?? 'tutti') as Combinatore, righe };
}

/** The operators a row may use: any for a field, the numeric ones for an aggregate. */
export const operatorsFor = (tipo: BuilderRow['tipo']): readonly string[] => (tipo === 'aggregato' ? OPERATORI_AGGREGATO : OPERATORI);
