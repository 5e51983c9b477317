import { COUNTRY_OPTIONS } from '../onboarding';
import { CLASSE_RISCHIO_LABELS, STATO_LABELS, TIPO_SOGGETTO_LABELS } from './anagrafe.labels';

/**
 * The customer form (/anagrafe/nuovo and /anagrafe/:cod/modifica), described once: the template
 * draws the fields, the error summary takes its labels from here, and the form body becomes the
 * records area's command input (createCustomer / updateCustomer validate it). Field names are the
 * record's columns (`indirizzo.via` for the address object), so a validation error's path lands
 * next to its field.
 */
export interface Option { value: string; label: string }
export interface FieldDef {
  name: string;
  label: string;
  type?: 'text' | 'date' | 'email' | 'tel' | 'select' | 'yesno';
  options?: Option[];
  required?: boolean;
  help?: string;
  autocomplete?: string;
  /** Bootstrap column width out of 12. */
  col?: number;
}
export interface FieldGroup { id: string; legend: string; hint?: string; fields: FieldDef[] }

const choose: Option = { value: '', label: 'Scegli…' };
const opts = (labels: Record<string, string>, first: Option = choose): Option[] => [first, ...Object.entries(labels).map(([value, label]) => ({ value, label }))];
const COUNTRY_SELECT: Option[] = [choose, ...COUNTRY_OPTIONS.map((c) => ({ value: c.code, label: c.nome }))];

/** The groups of the form; `edit` adds the record's state (a new record is always active). */
export function customerFormGroups(edit: boolean): FieldGroup[] {
  return [
    {
      id: 'soggetto', legend: 'Soggetto', hint: 'Per una persona fisica la denominazione, se vuota, è «Nome Cognome».', fields: [
        { name: 'tipo_soggetto', label: 'Tipo di soggetto', type: 'select', options: opts(TIPO_SOGGETTO_LABELS), required: true, col: 6 },
        ...(edit ? [{ name: 'stato', label: 'Stato', type: 'select' as const, options: opts(Object.fromEntries(Object.entries(STATO_LABELS).filter(([k]) => k !== 'eliminato'))), required: true, col: 6 }] : []),
        { name: 'denominazione', label: 'Denominazione o ragione sociale', autocomplete: 'organization', col: 12 },
        { name: 'nome', label: 'Nome', autocomplete: 'given-name', help: 'Persona fisica e ditta individuale (il titolare).', col: 6 },
        { name: 'cognome', label: 'Cognome', autocomplete: 'family-name', col: 6 },
        { name: 'data_nascita', label: 'Data di nascita', type: 'date', autocomplete: 'bday', col: 6 },
        { name: 'luogo_nascita', label: 'Luogo di nascita', col: 6 },
        { name: 'nazionalita', label: 'Nazionalità (o paese di costituzione)', type: 'select', options: COUNTRY_SELECT, col: 6 },
        { name: 'paese_residenza', label: 'Paese di residenza (o della sede)', type: 'select', options: COUNTRY_SELECT, col: 6 },
        { name: 'attivita', label: 'Attività o professione', col: 12 },
      ],
    },
    {
      id: 'fiscale', legend: 'Identificativi fiscali',
      hint: 'Servono a riconoscere lo stesso soggetto: il codice fiscale e la partita IVA sono controllati con il loro carattere di controllo.',
      fields: [
        { name: 'codice_fiscale', label: 'Codice fiscale', help: '16 caratteri per una persona, 11 cifre per una società.', col: 6 },
        { name: 'partita_iva', label: 'Partita IVA', help: '11 cifre.', col: 6 },
        { name: 'codice_fiscale_estero', label: 'Identificativo fiscale estero', help: 'Per chi non ha un codice fiscale italiano.', col: 6 },
        { name: 'paese_fiscale', label: 'Paese dell\'identificativo estero', type: 'select', options: COUNTRY_SELECT, col: 6 },
      ],
    },
    {
      id: 'indirizzo', legend: 'Indirizzo', fields: [
        { name: 'indirizzo.via', label: 'Via e numero civico', autocomplete: 'street-address', col: 12 },
        { name: 'indirizzo.cap', label: 'CAP', autocomplete: 'postal-code', col: 4 },
        { name: 'indirizzo.citta', label: 'Città', autocomplete: 'address-level2', col: 5 },
        { name: 'indirizzo.provincia', label: 'Provincia', autocomplete: 'address-level1', col: 3 },
        { name: 'indirizzo.paese', label: 'Paese', type: 'select', options: COUNTRY_SELECT, col: 6 },
      ],
    },
    {
      id: 'contatti', legend: 'Contatti', fields: [
        { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', col: 6 },
        { name: 'telefono', label: 'Telefono', type: 'tel', autocomplete: 'tel', col: 6 },
      ],
    },
    {
      id: 'rischio', legend: 'Profilo di rischio', fields: [
        { name: 'pep', label: 'È una persona politicamente esposta?', type: 'yesno', required: true, col: 6 },
        { name: 'classe_rischio', label: 'Classe di rischio', type: 'select', options: opts(CLASSE_RISCHIO_LABELS, { value: '', label: 'Non ancora valutata' }), col: 6 },
      ],
    },
  ];
}

const fieldLabels = (groups: FieldGroup[]) => new Map(groups.flatMap((g) => g.fields.map((f) => [f.name, f.label] as const)));

/** The error summary at the top of the form: each message a link to its field. */
export function errorSummary(groups: FieldGroup[], errors: Record<string, string>): { href: string; text: string }[] {
  const labels = fieldLabels(groups);
  return Object.entries(errors).map(([name, message]) => (labels.has(name)
    ? { href: `#f-${name.replace(/\./g, '-')}`, text: `${labels.get(name)}: ${message}` }
    : { href: '#modulo-anagrafe', text: message }));
}

type Obj = Record<string, unknown>;
const ADDRESS_KEYS = ['via', 'cap', 'citta', 'provincia', 'paese'] as const;
const TEXT_KEYS = [
  'tipo_soggetto', 'stato', 'denominazione', 'nome', 'cognome', 'data_nascita', 'luogo_nascita', 'nazionalita', 'paese_residenza', 'attivita',
  'codice_fiscale', 'partita_iva', 'codice_fiscale_estero', 'paese_fiscale', 'email', 'telefono', 'classe_rischio',
] as const;

const str = (v: unknown): string => (Array.isArray(v) ? str(v[v.length - 1]) : typeof v === 'string' ? v : '');

/**
 * What the person typed, as the flat `name -> text` map the fields read their values from: a
 * form that fails comes back with exactly this. Addresses come nested or dotted, whichever way
 * the body parser delivered them.
 */
export function formValues(body: Obj): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of TEXT_KEYS) out[k] = str(body[k]);
  const nested = (body.indirizzo && typeof body.indirizzo === 'object' ? body.indirizzo : {}) as Obj;
  for (const k of ADDRESS_KEYS) out[`indirizzo.${k}`] = str(nested[k] ?? body[`indirizzo.${k}`]);
  out.pep = str(body.pep);
  out.versione = str(body.versione);
  return out;
}

/** A stored record as form values (the edit form's first view). */
export function recordValues(row: Obj): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of TEXT_KEYS) {
    const v = row[k];
    out[k] = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
  }
  const addr = (row.indirizzo && typeof row.indirizzo === 'object' ? row.indirizzo : {}) as Obj;
  for (const k of ADDRESS_KEYS) out[`indirizzo.${k}`] = addr[k] === null || addr[k] === undefined ? '' : String(addr[k]);
  out.pep = row.pep ? 'true' : 'false';
  out.versione = String(row.versione ?? '');
  return out;
}

/**
 * The form values as the command's input: empty text is "not given" (null, so an edit can clear a
 * field), the address is one object or null, PEP a boolean when answered. Checks are the command's.
 */
export function customerInput(values: Record<string, string>): Obj {
  const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());
  const out: Obj = {};
  for (const k of TEXT_KEYS) out[k] = blank(values[k]);
  const addr = Object.fromEntries(ADDRESS_KEYS.map((k) => [k, blank(values[`indirizzo.${k}`])]));
  out.indirizzo = Object.values(addr).some((v) => v !== null) ? addr : null;
  out.pep = values.pep === 'true' ? true : values.pep === 'false' ? false : undefined;
  return out;
}
