import type { z } from 'zod';
import { describeMonitoringCondition, CAMPI_MONITORAGGIO, FUNZIONI_MONITORAGGIO, LISTE_MONITORAGGIO } from '../monitoring.conditions';
import { indicatoriUif } from '../monitoring.indicators';
import { AMBITO_LABELS, ESITO_REGOLA_LABELS, LIVELLO_LABELS, TIPOLOGIA_LABELS } from '../monitoring.labels';
import { TIPOLOGIE } from '../monitoring.typologies';
import type { Condizione } from '../../../kit/conditions';
import { validateMonitoringCondition } from '../monitoring.conditions';
import { buildCondition, operatorsFor, placeIssues, type BuilderState } from './rules.builder';
import { AMBITI, createRuleSchema, ESITI_REGOLA, LIVELLI, updateRuleSchema } from './rules.schemas';

/**
 * The rule form as the pages post it: the rule's fields as strings and its condition as the
 * builder's rows (or JSON). Checked by the API's own schemas, so a page and the API refuse the
 * same things with the same words; the condition's problems go next to the row's control.
 */
export const OPERATORE_LABELS: Record<string, string> = {
  eq: 'è uguale a', ne: 'è diverso da', gt: 'è maggiore di', gte: 'è almeno', lt: 'è minore di', lte: 'è al massimo', between: 'è compreso tra',
  in: 'è uno tra', not_in: 'non è tra', intersects: 'ha in comune con', exists: 'è indicato', not_exists: 'non è indicato',
};

const s = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const int = (v: unknown) => (/^-?\d+$/.test(s(v)) ? Number(s(v)) : s(v) || undefined);
const codes = (v: unknown) => (Array.isArray(v) ? v.map(String) : s(v).split(/[\s,;]+/).filter(Boolean));

/** The API's body from the form: numbers where the form typed digits (anything else is left for the schema to refuse). */
export function formToBody(body: Record<string, unknown>, condizione: unknown) {
  return {
    cod_regola: s(body.cod_regola), nome: s(body.nome), tipologia: s(body.tipologia), descrizione: s(body.descrizione),
    ambito: s(body.ambito), livello: s(body.livello), esito: s(body.esito), punteggio: int(body.punteggio),
    finestra_dedup_giorni: int(body.finestra_dedup_giorni), indicatori: codes(body.indicatori), condizione,
  };
}

export type FormCheck<T> =
  | { ok: true; data: T }
  | { ok: false; errors: Record<string, string>; rows: Record<string, string>; general: string[] };

/** The whole form checked: the fields by the API's schema, the condition by the language, each problem in its place. */
export function checkRuleForm<S extends typeof createRuleSchema | typeof updateRuleSchema>(schema: S, body: Record<string, unknown>, state: BuilderState, omit: string[] = []): FormCheck<z.infer<S>> {
  const built = buildCondition(state);
  const input: Record<string, unknown> = formToBody(body, built.condizione);
  for (const k of omit) delete input[k];
  const parsed = schema.safeParse(input);
  const errors: Record<string, string> = {};
  const general: string[] = built.jsonError ? [built.jsonError] : [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === 'condizione') continue;
      errors[String(issue.path[0] ?? '_form')] ??= issue.path.length > 1 ? `${issue.message} (${issue.path.join('.')})` : issue.message;
    }
  }
  const placed = built.jsonError ? { rows: {}, general: [] } : placeIssues(state, validateMonitoringCondition(built.condizione));
  const rows = { ...placed.rows, ...built.errors };
  general.push(...placed.general);
  if (parsed.success && !general.length && !Object.keys(rows).length) return { ok: true, data: parsed.data as z.infer<S> };
  return { ok: false, errors, rows, general };
}

/** The preview under the builder: the condition in Italian, or each problem of it with its path. */
export function preview(state: BuilderState) {
  const built = buildCondition(state);
  if (built.jsonError) return { frase: null, problemi: [built.jsonError] };
  const issues = validateMonitoringCondition(built.condizione);
  // The preview sits under every row: each problem says which condition and control it is about.
  const rowErrors = Object.entries(built.errors).map(([key, message]) => `${rowControlName(key)}: ${message}`);
  if (issues.length || rowErrors.length) {
    return { frase: null, problemi: [...rowErrors, ...issues.map((i) => `${['condizione', ...i.path].join('.')}: ${i.message}`)] };
  }
  return { frase: describeMonitoringCondition(built.condizione as Condizione), problemi: [] as string[] };
}

const CONTROL_NAMES: Record<string, string> = {
  campo: 'dato', op: 'confronto', valore: 'valore', valore2: 'fino a', fn: 'aggregato', finestra: 'ultimi giorni', segno: 'movimenti',
  contanti: 'contanti', paesi: 'paesi di controparte', storico: 'storico (giorni)',
};
/** `r1_valore` as the form names it: "Condizione 2, valore". */
export function rowControlName(key: string): string {
  const m = /^r(\d+)_(.+)$/.exec(key);
  return m ? `Condizione ${Number(m[1]) + 1}, ${CONTROL_NAMES[m[2]!] ?? m[2]}` : key;
}

const opt = (value: string, label: string) => ({ value, label });
/** A text cut at a word before `max` characters. */
const short = (t: string, max: number) => (t.length <= max ? t : `${t.slice(0, t.lastIndexOf(' ', max - 1) > 0 ? t.lastIndexOf(' ', max - 1) : max - 1)}…`);

/** Every choice the form offers: the catalogue of fields, aggregates, operators and lists, and the rule's own fields. */
export function formOptions() {
  return {
    tipologia: [opt('', 'Scegli…'), ...TIPOLOGIE.map((t) => opt(t, TIPOLOGIA_LABELS[t]))],
    ambito: AMBITI.map((a) => opt(a, AMBITO_LABELS[a]!)),
    livello: LIVELLI.map((l) => opt(l, LIVELLO_LABELS[l]!)),
    esito: ESITI_REGOLA.map((e) => opt(e, ESITO_REGOLA_LABELS[e]!)),
    campi: CAMPI_MONITORAGGIO.map((g) => ({ gruppo: g.gruppo, campi: g.campi.map((c) => ({ ...opt(c.path, c.descrizione), tipo: c.tipo, valori: c.valori ?? [] })) })),
    funzioni: FUNZIONI_MONITORAGGIO.map((f) => opt(f.fn, f.descrizione)),
    operatoriCampo: operatorsFor('campo').map((o) => opt(o, OPERATORE_LABELS[o] ?? o)),
    operatoriAggregato: operatorsFor('aggregato').map((o) => opt(o, OPERATORE_LABELS[o] ?? o)),
    segno: [opt('', 'Entrate e uscite'), opt('entrata', 'Solo entrate'), opt('uscita', 'Solo uscite')],
    contanti: [opt('', 'Con e senza contanti'), opt('true', 'Solo in contanti'), opt('false', 'Solo senza contanti')],
    liste: Object.entries(LISTE_MONITORAGGIO).map(([nome, descrizione]) => ({ nome, descrizione })),
    // The opening words of each text: enough to tell them apart in a list; the rule's page shows them whole.
    indicatori: indicatoriUif().map((i) => ({
      gruppo: `${i.numero}. ${short(i.titolo, 100)}`,
      voci: i.sub_indici.map((v) => opt(v.codice, `${v.codice} ${short(v.testo, 80)}`)),
    })),
  };
}
