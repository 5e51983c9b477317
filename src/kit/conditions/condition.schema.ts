import { z } from 'zod';
import {
  FILTRI_AGGREGATO, FORBIDDEN_SEGMENTS, FUNZIONI_AGGREGATO, LIST_NAME_PATTERN, MAX_CODE_LENGTH, MAX_DEPTH, MAX_LITERAL_VALUES, MAX_NODES,
  MAX_PATH_LENGTH, MAX_STRING_LENGTH, MAX_WINDOW_DAYS, MIN_WINDOW_DAYS, OPERATORI, OPERATORI_AGGREGATO, PATH_PATTERN,
} from './condition.limits';
import { LAST_YEAR_DAYS, WITH_HISTORY, WITH_MEASURE } from './condition.keys';
import type { Condizione } from './condition.types';

/**
 * Validation of a stored condition. Written by hand rather than as a zod union: a union of node
 * shapes answers "invalid input" at the node, while rule authors need the exact place and reason
 * (`tutti.2.op: operatore sconosciuto`). conditionSchema wraps it for routes and forms.
 */

export interface ConditionIssue { path: (string | number)[]; message: string }
export interface ValidateOptions {
  /** Known field paths (e.g. the risk profile's catalogue): any other path is refused. Omitted: any well-formed path. */
  campi?: ReadonlySet<string>;
  /** Known named lists: any other `{ lista }` is refused. Omitted: any well-formed name. */
  liste?: ReadonlySet<string>;
  /**
   * The aggregate functions the caller computes (risk: FUNZIONI_AGGREGATO_BASE, what its SQL
   * loader computes): any other is refused. Omitted: every function of the language.
   */
  funzioni?: ReadonlySet<string>;
  /** The aggregate filters and options the caller computes (risk: FILTRI_AGGREGATO_BASE). Omitted: all. */
  filtri?: ReadonlySet<string>;
}

type Path = (string | number)[];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** What ordering comparisons accept: numbers, or ISO days (compared as text, which orders them). */
const isOrderable = (v: unknown) => isFiniteNumber(v) || (typeof v === 'string' && ISO_DAY.test(v));
const GROUPS = ['tutti', 'almeno_uno'] as const;
const AGGREGATE_KEYS: ReadonlySet<string> = new Set(['fn', 'finestra_giorni', ...FILTRI_AGGREGATO]);
const COUNTRY = /^[A-Za-z]{2}$/;
const MAX_AMOUNT = 1_000_000_000_000;

export function validateCondition(input: unknown, options: ValidateOptions = {}): ConditionIssue[] {
  const issues: ConditionIssue[] = [];
  let nodes = 0;
  const add = (path: Path, message: string) => { issues.push({ path, message }); };

  const listRef = (v: Record<string, unknown>, path: Path) => {
    const extra = Object.keys(v).filter((k) => k !== 'lista');
    if (extra.length) add([...path, extra[0]!], 'Chiave non ammessa: indica solo { lista }');
    if (typeof v.lista !== 'string' || !LIST_NAME_PATTERN.test(v.lista)) add([...path, 'lista'], 'Nome di lista non valido');
    else if (options.liste && !options.liste.has(v.lista)) add([...path, 'lista'], `Lista sconosciuta: ${v.lista}`);
  };
  const scalar = (v: unknown, path: Path) => {
    if (typeof v === 'string') { if (v.length > MAX_STRING_LENGTH) add(path, `Al massimo ${MAX_STRING_LENGTH} caratteri`); return; }
    if (typeof v === 'boolean' || isFiniteNumber(v)) return;
    add(path, 'Valore non valido: un testo, un numero o vero/falso (per un valore assente usa exists/not_exists)');
  };
  const arrayOrList = (v: unknown, path: Path) => {
    if (isRecord(v)) { listRef(v, path); return; }
    if (!Array.isArray(v)) { add(path, 'Indica un elenco di valori o una lista ({ lista })'); return; }
    if (v.length === 0) add(path, 'Indica almeno un valore');
    if (v.length > MAX_LITERAL_VALUES) add(path, `Al massimo ${MAX_LITERAL_VALUES} valori: per elenchi più lunghi usa una lista`);
    v.forEach((x, i) => {
      if (typeof x === 'string' ? x.length > MAX_STRING_LENGTH : !isFiniteNumber(x)) add([...path, i], 'Ogni valore è un testo o un numero');
    });
  };

  /** The operator's value: checked against what the operator needs. */
  const operand = (node: Record<string, unknown>, path: Path, numeric: boolean) => {
    const op = node.op as (typeof OPERATORI)[number];
    const vpath = [...path, 'valore'];
    const has = Object.prototype.hasOwnProperty.call(node, 'valore');
    switch (op) {
      case 'exists': case 'not_exists':
        if (has) add(vpath, `${op} non vuole un valore`);
        return;
      case 'between': {
        const v = node.valore;
        if (!Array.isArray(v) || v.length !== 2 || !v.every(isOrderable)) { add(vpath, 'between vuole [minimo, massimo]: due numeri o due date'); return; }
        if (numeric && !v.every(isFiniteNumber)) { add(vpath, 'between vuole due numeri'); return; }
        if (typeof v[0] !== typeof v[1]) add(vpath, 'Minimo e massimo dello stesso tipo');
        else if ((v[0] as number | string) > (v[1] as number | string)) add(vpath, 'Il minimo supera il massimo');
        return;
      }
      case 'gt': case 'gte': case 'lt': case 'lte':
        if (!has) add(vpath, 'Indica il valore');
        else if (numeric ? !isFiniteNumber(node.valore) : !isOrderable(node.valore)) add(vpath, numeric ? 'Indica un numero' : 'Indica un numero o una data (AAAA-MM-GG)');
        return;
      case 'eq': case 'ne':
        if (!has) add(vpath, 'Indica il valore');
        else if (numeric && !isFiniteNumber(node.valore)) add(vpath, 'Indica un numero');
        else scalar(node.valore, vpath);
        return;
      case 'in': case 'not_in': case 'intersects':
        if (!has) add(vpath, 'Indica un elenco di valori o una lista ({ lista })');
        else arrayOrList(node.valore, vpath);
        return;
    }
  };

  /** causali / canali: a list of codes (texts) or a named list. */
  const codes = (v: unknown, path: Path) => {
    if (isRecord(v)) { listRef(v, path); return; }
    if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LITERAL_VALUES) { add(path, `Indica da 1 a ${MAX_LITERAL_VALUES} valori o una lista ({ lista })`); return; }
    v.forEach((c, i) => { if (typeof c !== 'string' || c.trim() === '' || c.length > MAX_CODE_LENGTH) add([...path, i], `Un testo di al massimo ${MAX_CODE_LENGTH} caratteri`); });
  };

  const aggregate = (a: unknown, path: Path) => {
    if (!isRecord(a)) { add(path, 'Indica l\'aggregato ({ fn, finestra_giorni, ... })'); return; }
    for (const k of Object.keys(a)) {
      if (!AGGREGATE_KEYS.has(k)) add([...path, k], 'Chiave non ammessa');
      else if (options.filtri && k !== 'fn' && k !== 'finestra_giorni' && !options.filtri.has(k)) add([...path, k], `Filtro non disponibile qui: ammessi ${[...options.filtri].join(', ')}`);
    }
    const fn = a.fn;
    if (!(FUNZIONI_AGGREGATO as readonly unknown[]).includes(fn)) add([...path, 'fn'], `Funzione sconosciuta: ammesse ${(options.funzioni ? [...options.funzioni] : FUNZIONI_AGGREGATO).join(', ')}`);
    else if (options.funzioni && !options.funzioni.has(fn as string)) add([...path, 'fn'], `Funzione non disponibile qui: ammesse ${[...options.funzioni].join(', ')}`);
    const window = a.finestra_giorni;
    const days = (v: unknown) => Number.isInteger(v) && (v as number) >= MIN_WINDOW_DAYS && (v as number) <= MAX_WINDOW_DAYS;
    if (!days(window)) add([...path, 'finestra_giorni'], `Un numero intero di giorni tra ${MIN_WINDOW_DAYS} e ${MAX_WINDOW_DAYS}`);
    if (a.segno !== undefined && a.segno !== 'entrata' && a.segno !== 'uscita') add([...path, 'segno'], 'Segno: entrata o uscita');
    if (a.segno !== undefined && fn === 'passthrough_share') add([...path, 'segno'], 'La quota in transito confronta già entrate e uscite');
    if (a.contanti !== undefined && typeof a.contanti !== 'boolean') add([...path, 'contanti'], 'Contanti: vero o falso');
    if (a.contanti !== undefined && fn === 'cash_share') add([...path, 'contanti'], 'La quota di contanti considera già contanti e non contanti');
    if (a.paesi_controparte !== undefined) {
      const p = a.paesi_controparte;
      const ppath = [...path, 'paesi_controparte'];
      if (isRecord(p)) listRef(p, ppath);
      else if (!Array.isArray(p) || p.length === 0 || p.length > MAX_LITERAL_VALUES) add(ppath, 'Indica un elenco di codici paese o una lista ({ lista })');
      else p.forEach((c, i) => { if (typeof c !== 'string' || !COUNTRY.test(c)) add([...ppath, i], 'Codice ISO di due lettere'); });
    }
    if (a.storico_giorni !== undefined) {
      if (!WITH_HISTORY.has(fn as string) && fn !== 'ratio_last_year') add([...path, 'storico_giorni'], 'Solo per ratio_history, distinct_new_counterparties e ratio_last_year');
      else if (!days(a.storico_giorni)) add([...path, 'storico_giorni'], `Un numero intero di giorni tra ${MIN_WINDOW_DAYS} e ${MAX_WINDOW_DAYS}`);
      else if ((fn === 'ratio_history' || fn === 'ratio_last_year') && days(window) && (a.storico_giorni as number) < (window as number)) add([...path, 'storico_giorni'], 'Lo storico è almeno lungo quanto la finestra');
      else if (fn === 'ratio_last_year' && (a.storico_giorni as number) > LAST_YEAR_DAYS) add([...path, 'storico_giorni'], `Il periodo di un anno prima è lungo al più ${LAST_YEAR_DAYS} giorni`);
    }
    if (a.causali !== undefined) codes(a.causali, [...path, 'causali']);
    if (a.canali !== undefined) codes(a.canali, [...path, 'canali']);
    const amount = (k: 'importo_min' | 'importo_max') => {
      const v = a[k];
      if (v !== undefined && !(isFiniteNumber(v) && v >= 0 && v <= MAX_AMOUNT)) add([...path, k], 'Un importo in euro, zero o più');
    };
    amount('importo_min');
    amount('importo_max');
    if (isFiniteNumber(a.importo_min) && isFiniteNumber(a.importo_max) && a.importo_min > a.importo_max) add([...path, 'importo_max'], 'L\'importo massimo è minore del minimo');
    if (a.tondi !== undefined && typeof a.tondi !== 'boolean') add([...path, 'tondi'], 'Importi tondi: vero o falso');
    if (a.livello !== undefined && a.livello !== 'cliente' && a.livello !== 'rapporto') add([...path, 'livello'], 'Livello: cliente o rapporto');
    if (a.entro_giorni !== undefined) {
      if (fn !== 'passthrough_share') add([...path, 'entro_giorni'], 'Solo per passthrough_share');
      else if (!days(a.entro_giorni)) add([...path, 'entro_giorni'], `Un numero intero di giorni tra ${MIN_WINDOW_DAYS} e ${MAX_WINDOW_DAYS}`);
    }
    if (a.misura !== undefined) {
      if (!WITH_MEASURE.has(fn as string)) add([...path, 'misura'], 'Solo per ratio_history, peer_ratio e ratio_last_year');
      else if (a.misura !== 'importo' && a.misura !== 'numero') add([...path, 'misura'], 'Misura: importo o numero');
    }
  };

  const field = (campo: unknown, path: Path) => {
    if (typeof campo !== 'string' || campo.length === 0) { add(path, 'Indica il campo'); return; }
    if (campo.length > MAX_PATH_LENGTH || !PATH_PATTERN.test(campo) || campo.split('.').some((s) => FORBIDDEN_SEGMENTS.has(s))) {
      add(path, 'Campo non valido: nomi separati da punti (es. cliente.pep)');
    } else if (options.campi && !options.campi.has(campo)) add(path, `Campo sconosciuto: ${campo}`);
  };

  const visit = (node: unknown, path: Path, depth: number) => {
    nodes += 1;
    // Past the limit the answer is already "too long": stop walking (a hostile body may hold millions).
    if (nodes > MAX_NODES) return;
    if (depth > MAX_DEPTH) { add(path, `Condizione troppo annidata (al massimo ${MAX_DEPTH} livelli)`); return; }
    if (!isRecord(node)) { add(path, 'Indica una condizione (un oggetto)'); return; }
    const keys = Object.keys(node);
    const group = GROUPS.find((g) => g in node);
    if (group) {
      if (keys.length !== 1) add(path, `Un gruppo ha solo la chiave ${group}`);
      const children = node[group];
      if (!Array.isArray(children) || children.length === 0) { add([...path, group], 'Indica almeno una condizione'); return; }
      children.forEach((c, i) => visit(c, [...path, group, i], depth + 1));
      return;
    }
    if ('non' in node) {
      if (keys.length !== 1) add(path, 'La negazione ha solo la chiave non');
      visit(node.non, [...path, 'non'], depth + 1);
      return;
    }
    const isAggregate = 'aggregato' in node;
    if (!isAggregate && !('campo' in node)) { add(path, 'Indica tutti, almeno_uno, non, un campo o un aggregato'); return; }
    const allowed = new Set([isAggregate ? 'aggregato' : 'campo', 'op', 'valore']);
    for (const k of keys) if (!allowed.has(k)) add([...path, k], 'Chiave non ammessa');
    if (isAggregate) aggregate(node.aggregato, [...path, 'aggregato']);
    else field(node.campo, [...path, 'campo']);
    const ops: readonly unknown[] = isAggregate ? OPERATORI_AGGREGATO : OPERATORI;
    if (!ops.includes(node.op)) { add([...path, 'op'], `Operatore non valido: ammessi ${ops.join(', ')}`); return; }
    operand(node, path, isAggregate);
  };

  visit(input, [], 1);
  if (nodes > MAX_NODES) issues.unshift({ path: [], message: `Condizione troppo lunga: al massimo ${MAX_NODES} elementi` });
  return issues;
}

/** The zod face of validateCondition (routes, forms): each issue at its path, the value typed as Condizione. */
export function conditionSchemaWith(options: ValidateOptions = {}) {
  return z.unknown().superRefine((value, ctx) => {
    for (const issue of validateCondition(value, options)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }).transform((value) => value as Condizione)
    .meta({ description: 'A condition of the rule language (docs/conditions.md): { tutti | almeno_uno: [...] }, { non }, { campo, op, valore }, { aggregato, op, valore }' });
}

/** Any well-formed condition (paths and lists not checked against a catalogue). */
export const conditionSchema = conditionSchemaWith();
