import type { z } from 'zod';
import type { SubjectType } from '../../../workflows/onboarding/onboarding.contract';
import { COUNTRY_OPTIONS } from './countries';
import { DOCUMENT_TYPES, RETI, RUOLI_PAESE, TIPI_CONTROLLO } from './onboarding.schemas';

/**
 * The wizard's form fields, described once: the templates render them, the error summary
 * takes its labels from them. Field names are dotted paths of the section's object
 * (`sede.via`, `titolari.0.nome`), so zod's issue paths land next to the right field.
 */
export interface Option { value: string; label: string }
export interface FieldDef {
  name: string;
  label: string;
  type?: 'text' | 'date' | 'email' | 'tel' | 'select' | 'textarea' | 'yesno' | 'number';
  options?: Option[];
  required?: boolean;
  help?: string;
  autocomplete?: string;
  /** Bootstrap column width out of 12. */
  col?: number;
}
export interface FieldGroup { id: string; legend: string; hint?: string; fields: FieldDef[] }

const choose: Option = { value: '', label: 'Scegli…' };
const opts = (labels: Record<string, string>): Option[] => [choose, ...Object.entries(labels).map(([value, label]) => ({ value, label }))];
export const COUNTRY_SELECT: Option[] = [choose, ...COUNTRY_OPTIONS.map((c) => ({ value: c.code, label: c.nome }))];

export const SUBJECT_TYPE_LABELS: Record<SubjectType, string> = {
  persona_fisica: 'Persona fisica',
  ditta_individuale: 'Ditta individuale (impresa individuale)',
  societa: 'Società',
};
export const SUBJECT_TYPE_HINTS: Record<SubjectType, string> = {
  persona_fisica: 'Apri il rapporto a tuo nome, come privato.',
  ditta_individuale: 'Sei titolare di un\'impresa individuale con partita IVA.',
  societa: 'Rappresenti una società di persone o di capitali: ti chiederemo anche i titolari effettivi.',
};
export const FORMA_GIURIDICA_LABELS = { srl: 'S.r.l.', spa: 'S.p.A.', sapa: 'S.a.p.A.', snc: 'S.n.c.', sas: 'S.a.s.', coop: 'Società cooperativa', altro: 'Altra forma' };
export const TIPO_CONTROLLO_LABELS: Record<(typeof TIPI_CONTROLLO)[number], string> = {
  proprieta_diretta: 'Proprietà diretta', proprieta_indiretta: 'Proprietà indiretta', controllo: 'Controllo con altri mezzi', rappresentanza: 'Poteri di rappresentanza o direzione',
};
export const RUOLO_PAESE_LABELS: Record<(typeof RUOLI_PAESE)[number], string> = {
  sede_operativa: 'Sede operativa', clienti: 'Paese dei clienti', fornitori: 'Paese dei fornitori', origine_fondi: 'Origine dei fondi',
};
export const DOCUMENTO_TIPO_LABELS = { carta_identita: 'Carta d\'identità', passaporto: 'Passaporto', patente: 'Patente di guida' };
export const RETE_LABELS: Record<(typeof RETI)[number], string> = {
  BTC: 'Bitcoin (BTC)', ETH: 'Ethereum (ETH)', ERC20: 'Token ERC-20 su Ethereum', TRX: 'Tron (TRX)', SOL: 'Solana (SOL)', LTC: 'Litecoin (LTC)', XRP: 'XRP Ledger', altro: 'Altra rete',
};
export { DOCUMENT_TYPES };

const address = (legend: string, id: string, prefix: string): FieldGroup => ({
  id, legend, fields: [
    { name: `${prefix}.via`, label: 'Via e numero civico', required: true, autocomplete: 'street-address', col: 12 },
    { name: `${prefix}.cap`, label: 'CAP', required: true, autocomplete: 'postal-code', col: 4 },
    { name: `${prefix}.citta`, label: 'Città', required: true, autocomplete: 'address-level2', col: 5 },
    { name: `${prefix}.provincia`, label: 'Provincia', autocomplete: 'address-level1', col: 3 },
    { name: `${prefix}.paese`, label: 'Paese', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
  ],
});
const identityDocument = (legend: string, id: string, prefix: string): FieldGroup => ({
  id, legend, hint: 'Gli estremi del documento che caricherai al passo «Documenti d\'identità».', fields: [
    { name: `${prefix}.tipo`, label: 'Tipo di documento', type: 'select', options: opts(DOCUMENTO_TIPO_LABELS), required: true, col: 6 },
    { name: `${prefix}.numero`, label: 'Numero', required: true, col: 6 },
    { name: `${prefix}.rilasciato_da`, label: 'Rilasciato da', required: true, help: 'Ad esempio: Comune di Milano', col: 6 },
    { name: `${prefix}.scadenza`, label: 'Data di scadenza', type: 'date', required: true, col: 6 },
  ],
});
const pep = (legend: string, id: string, prefix: string): FieldGroup => ({
  id, legend, hint: 'Persona che ricopre o ha ricoperto nell\'ultimo anno importanti cariche pubbliche, o suo familiare o stretto collaboratore (art. 1 d.lgs. 231/2007).', fields: [
    { name: `${prefix}pep`, label: 'È una persona politicamente esposta?', type: 'yesno', required: true, col: 12 },
    { name: `${prefix}pep_dettaglio`, label: 'Carica pubblica ricoperta', type: 'textarea', help: 'Obbligatorio se hai risposto sì.', col: 12 },
  ],
});

const personGroups = (legend: string): FieldGroup[] => [
  {
    id: 'persona', legend, fields: [
      { name: 'nome', label: 'Nome', required: true, autocomplete: 'given-name', col: 6 },
      { name: 'cognome', label: 'Cognome', required: true, autocomplete: 'family-name', col: 6 },
      { name: 'codice_fiscale', label: 'Codice fiscale', help: 'Se ne hai uno italiano.', col: 6 },
      { name: 'data_nascita', label: 'Data di nascita', type: 'date', required: true, autocomplete: 'bday', col: 6 },
      { name: 'luogo_nascita', label: 'Luogo di nascita', required: true, col: 6 },
      { name: 'nazionalita', label: 'Cittadinanza', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
      { name: 'paese_residenza', label: 'Paese di residenza', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
      { name: 'telefono', label: 'Telefono', type: 'tel', autocomplete: 'tel', col: 6 },
      { name: 'professione', label: 'Professione', required: true, col: 12 },
    ],
  },
  address('Indirizzo di residenza', 'residenza', 'residenza'),
  identityDocument('Documento d\'identità', 'documento', 'documento'),
  pep('Persona politicamente esposta', 'pep', ''),
];

const ANAGRAFE_GROUPS: Record<SubjectType, FieldGroup[]> = {
  persona_fisica: personGroups('Dati personali'),
  ditta_individuale: [
    {
      id: 'impresa', legend: 'Impresa', fields: [
        { name: 'denominazione', label: 'Denominazione', required: true, autocomplete: 'organization', col: 12 },
        { name: 'partita_iva', label: 'Partita IVA', required: true, help: '11 cifre', col: 6 },
        { name: 'attivita', label: 'Attività svolta', required: true, col: 6 },
      ],
    },
    address('Sede dell\'impresa', 'sede', 'sede'),
    ...personGroups('Titolare dell\'impresa'),
  ],
  societa: [
    {
      id: 'societa', legend: 'Società', fields: [
        { name: 'denominazione', label: 'Ragione sociale', required: true, autocomplete: 'organization', col: 12 },
        { name: 'forma_giuridica', label: 'Forma giuridica', type: 'select', options: opts(FORMA_GIURIDICA_LABELS), required: true, col: 6 },
        { name: 'data_costituzione', label: 'Data di costituzione', type: 'date', required: true, col: 6 },
        { name: 'codice_fiscale', label: 'Codice fiscale', required: true, col: 6 },
        { name: 'partita_iva', label: 'Partita IVA', required: true, help: '11 cifre', col: 6 },
        { name: 'paese_costituzione', label: 'Paese di costituzione', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
        { name: 'email_pec', label: 'PEC', type: 'email', col: 6 },
        { name: 'attivita', label: 'Attività svolta', required: true, col: 12 },
      ],
    },
    address('Sede legale', 'sede', 'sede'),
    {
      id: 'legale_rappresentante', legend: 'Legale rappresentante', fields: [
        { name: 'legale_rappresentante.nome', label: 'Nome', required: true, col: 6 },
        { name: 'legale_rappresentante.cognome', label: 'Cognome', required: true, col: 6 },
        { name: 'legale_rappresentante.codice_fiscale', label: 'Codice fiscale', help: 'Se ne ha uno italiano.', col: 6 },
        { name: 'legale_rappresentante.data_nascita', label: 'Data di nascita', type: 'date', required: true, col: 6 },
        { name: 'legale_rappresentante.nazionalita', label: 'Cittadinanza', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
      ],
    },
    identityDocument('Documento del legale rappresentante', 'legale_rappresentante-documento', 'legale_rappresentante.documento'),
    pep('Legale rappresentante: persona politicamente esposta', 'legale_rappresentante-pep', 'legale_rappresentante.'),
  ],
};

export const anagrafeGroups = (t: SubjectType): FieldGroup[] => ANAGRAFE_GROUPS[t];

/** One beneficial owner's fields; `prefix` is `titolari.<i>.`. */
export const uboFields = (prefix: string): FieldDef[] => [
  { name: `${prefix}nome`, label: 'Nome', required: true, col: 6 },
  { name: `${prefix}cognome`, label: 'Cognome', required: true, col: 6 },
  { name: `${prefix}codice_fiscale`, label: 'Codice fiscale', help: 'Se ne ha uno italiano.', col: 6 },
  { name: `${prefix}data_nascita`, label: 'Data di nascita', type: 'date', required: true, col: 6 },
  { name: `${prefix}luogo_nascita`, label: 'Luogo di nascita', col: 6 },
  { name: `${prefix}nazionalita`, label: 'Cittadinanza', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
  { name: `${prefix}paese_residenza`, label: 'Paese di residenza', type: 'select', options: COUNTRY_SELECT, required: true, col: 6 },
  { name: `${prefix}percentuale`, label: 'Quota di partecipazione (%)', type: 'number', required: true, col: 6 },
  { name: `${prefix}tipo_controllo`, label: 'Tipo di controllo', type: 'select', options: opts(TIPO_CONTROLLO_LABELS), required: true, col: 12 },
  { name: `${prefix}pep`, label: 'È una persona politicamente esposta?', type: 'yesno', required: true, col: 12 },
  { name: `${prefix}pep_dettaglio`, label: 'Carica pubblica ricoperta', type: 'textarea', help: 'Obbligatorio se hai risposto sì.', col: 12 },
];
export const UBO_KEYS = uboFields('').map((f) => f.name);

export const countryFields = (prefix: string): FieldDef[] => [
  { name: `${prefix}paese`, label: 'Paese', type: 'select', options: COUNTRY_SELECT, required: true, col: 7 },
  { name: `${prefix}ruolo`, label: 'Ruolo', type: 'select', options: opts(RUOLO_PAESE_LABELS), required: true, col: 5 },
];

// ---- form bodies <-> section objects ----

const CONTROL_KEYS = new Set(['_csrf', 'azione', 'token']);
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const isIndex = (s: string) => /^\d{1,3}$/.test(s);

/**
 * Nested values as the body parser may already give them (it reads `a.0.b` as nesting and
 * turns long lists into objects keyed by position): lists become arrays again, and a field
 * left blank is left out, so an optional field never arrives as an empty string.
 */
function normalize(v: unknown): unknown {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([k]) => !UNSAFE_KEYS.has(k));
    if (entries.length && entries.every(([k]) => isIndex(k))) {
      const arr: unknown[] = [];
      for (const [k, x] of entries) arr[Number(k)] = normalize(x);
      return arr;
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of entries) { const n = normalize(x); if (n !== undefined) out[k] = n; }
    return out;
  }
  return v;
}

function merge(target: Record<string, unknown>, key: string, value: unknown) {
  const cur = target[key];
  if (cur && value && typeof cur === 'object' && typeof value === 'object') {
    for (const [k, x] of Object.entries(value)) merge(cur as Record<string, unknown>, k, x);
  } else if (value !== undefined) {
    target[key] = value;
  }
}

/**
 * A form body with dotted names (`sede.via`, `titolari.0.nome`) as the nested object they
 * describe, whether the parser has nested it already or not (multipart bodies are not).
 */
export function unflatten(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(body)) {
    if (CONTROL_KEYS.has(key) || key.startsWith('_')) continue;
    const parts = key.split('.');
    if (parts.some((p) => p === '' || UNSAFE_KEYS.has(p))) continue;
    let node: Record<string, unknown> = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const p = parts[i]!;
      if (!node[p] || typeof node[p] !== 'object') node[p] = isIndex(parts[i + 1]!) ? [] : {};
      node = node[p] as Record<string, unknown>;
    }
    merge(node, parts[parts.length - 1]!, normalize(raw));
  }
  return compactArrays(out) as Record<string, unknown>;
}

function compactArrays(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== undefined && x !== null).map(compactArrays);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, compactArrays(x)]));
  return v;
}

/** A stored section as the flat `name -> string` map the form fields read their values from. */
export function flatten(v: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (v === null || v === undefined) return out;
  if (Array.isArray(v)) v.forEach((x, i) => flatten(x, `${prefix}${i}.`, out));
  else if (typeof v === 'object') for (const [k, x] of Object.entries(v)) flatten(x, `${prefix}${k}.`, out);
  else out[prefix.slice(0, -1)] = String(v);
  return out;
}

/** True when a repeated row was left empty (the fixed spare rows of a no-JavaScript form). */
export const isBlankRow = (row: Record<string, unknown>, ignore: string[] = ['id']) =>
  Object.entries(row).every(([k, v]) => ignore.includes(k) || v === undefined || v === null || (typeof v === 'string' && v.trim() === ''));

// ---- errors ----

export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** Field-keyed messages of a zod error (first message per field). */
export function zodErrors(err: z.ZodError, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of err.issues) {
    const k = prefix + (i.path.join('.') || '_form');
    out[k] ??= i.message;
  }
  return out;
}

/** The error summary at the top of a form: each message links to its field (or to its section when it has none). */
export function errorSummary(errors: Record<string, string>, labels: Record<string, string>, anchors: Record<string, string> = {}) {
  return Object.entries(errors).map(([path, message]) => {
    const label = labels[path];
    const href = labels[path] ? `#${fieldId(path)}` : `#${anchors[path] ?? anchors._form ?? 'modulo'}`;
    return { href, text: label ? `${label}: ${message}` : message };
  });
}

/** Summary labels: the field's label after its section's, so two «Nome» fields stay apart. */
export function labelsOf(groups: { legend: string; fields: FieldDef[] }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of groups) for (const f of g.fields) out[f.name] = `${g.legend} – ${f.label}`;
  return out;
}
