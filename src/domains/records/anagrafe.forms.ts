import { COUNTRY_OPTIONS } from '../onboarding';
import { fieldErrors } from '../../http/validate';
import { CLASSE_RISCHIO_LABELS, STATO_ANAGRAFE_LABELS, TIPO_SOGGETTO_LABELS, USO_CONTANTI_LABELS } from './anagrafe.labels';
import { taxIdErrors, type CustomerPatch } from './records.commands';
import { createCustomerSchema, type CreateCustomerBody } from './records.schemas';

const TAX_FIELDS = ['codice_fiscale', 'partita_iva', 'codice_fiscale_estero', 'paese_fiscale'] as const;
import { isoDate } from './records.dates';

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
  type?: 'text' | 'date' | 'email' | 'tel' | 'select' | 'yesno' | 'number';
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
export function customerFormGroups(edit: boolean, tipo?: string): FieldGroup[] {
  const groups: FieldGroup[] = [
    {
      id: 'soggetto', legend: 'Soggetto', hint: 'Per una persona fisica la denominazione, se vuota, è «Nome Cognome».', fields: [
        // The type of subject is fixed once recorded (the command keeps it): the edit form shows the state instead.
        edit
          ? { name: 'stato', label: 'Stato', type: 'select', options: opts(Object.fromEntries(Object.entries(STATO_ANAGRAFE_LABELS).filter(([k]) => k !== 'eliminato'))), required: true, col: 6 }
          : { name: 'tipo_soggetto', label: 'Tipo di soggetto', type: 'select', options: opts(TIPO_SOGGETTO_LABELS), required: true, col: 6 },
        { name: 'denominazione', label: 'Denominazione o ragione sociale', autocomplete: 'organization', col: 12 },
        { name: 'nome', label: 'Nome', autocomplete: 'given-name', help: 'Persona fisica e ditta individuale (il titolare).', col: 6 },
        { name: 'cognome', label: 'Cognome', autocomplete: 'family-name', col: 6 },
        { name: 'data_nascita', label: 'Data di nascita', type: 'date', autocomplete: 'bday', col: 6 },
        { name: 'luogo_nascita', label: 'Luogo di nascita', col: 6 },
        { name: 'nazionalita', label: 'Nazionalità (o paese di costituzione)', type: 'select', options: COUNTRY_SELECT, col: 6 },
        { name: 'paese_residenza', label: 'Paese di residenza (o della sede)', type: 'select', options: COUNTRY_SELECT, col: 6 },
        { name: 'attivita', label: 'Attività svolta', help: 'Come il cliente descrive la sua attività.', col: 12 },
      ],
    },
    {
      id: 'profilo', legend: 'Attività e profilo dichiarato',
      hint: 'Il monitoraggio delle operazioni confronta i movimenti del cliente con quanto ha dichiarato.',
      fields: [
        { name: 'codice_esterno', label: 'Codice esterno', help: 'Il codice del cliente nel sistema di origine: le importazioni di rapporti e movimenti possono indicarlo al posto del codice anagrafe.', col: 6 },
        { name: 'data_onboarding', label: 'Cliente dal', type: 'date', help: 'Data di inizio del rapporto con il cliente.', col: 6 },
        { name: 'ateco', label: 'Codice ATECO', help: 'Settore di attività economica, es. 47.11.10.', col: 6 },
        { name: 'professione', label: 'Professione', col: 6 },
        { name: 'volume_mensile_atteso_eur', label: 'Volume mensile atteso (euro)', type: 'number', help: 'Quanto il cliente prevede di movimentare in un mese, es. 2.500,00.', col: 6 },
        { name: 'uso_contanti_atteso', label: 'Uso del contante atteso', type: 'select', options: opts(USO_CONTANTI_LABELS, { value: '', label: 'Non dichiarato' }), col: 6 },
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
  // Editing, the type is known: a company has no first name, birth or occupation, a person no partita IVA (the
  // create form, whose type is chosen on it, shows every field: it works without JavaScript).
  const hidden = new Set(tipo === 'societa' ? ['nome', 'cognome', 'data_nascita', 'luogo_nascita', 'professione'] : tipo === 'persona_fisica' ? ['partita_iva'] : []);
  return groups.map((g) => ({ ...g, fields: g.fields.filter((f) => !hidden.has(f.name)) }));
}

/** The names of the fields a form shows (an edit clears only what the person could see and empty). */
export const shownFields = (groups: FieldGroup[]) => new Set(groups.flatMap((g) => g.fields.map((f) => f.name)));

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
  'codice_esterno', 'ateco', 'professione', 'data_onboarding', 'volume_mensile_atteso_eur', 'uso_contanti_atteso',
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
    out[k] = v === null || v === undefined ? '' : v instanceof Date ? isoDate(v) ?? '' : String(v);
  }
  // Euro as an Italian types it (2500,5 -> "2500,50"), which the schema reads back as it was.
  const volume = row.volume_mensile_atteso_eur;
  if (typeof volume === 'number') out.volume_mensile_atteso_eur = Number.isInteger(volume) ? String(volume) : volume.toFixed(2).replace('.', ',');
  const addr = (row.indirizzo && typeof row.indirizzo === 'object' ? row.indirizzo : {}) as Obj;
  for (const k of ADDRESS_KEYS) out[`indirizzo.${k}`] = addr[k] === null || addr[k] === undefined ? '' : String(addr[k]);
  out.pep = row.pep ? 'true' : 'false';
  out.versione = String(row.versione ?? '');
  return out;
}

const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());

/** The form's values as the API's body: the address nested, empty fields left out, PEP as the API reads it. */
function formBody(values: Record<string, string>, keys: readonly string[]): Obj {
  const body: Obj = {};
  for (const k of keys) if (blank(values[k]) !== undefined) body[k] = blank(values[k]);
  const address = Object.fromEntries(ADDRESS_KEYS.filter((k) => blank(values[`indirizzo.${k}`]) !== undefined).map((k) => [k, blank(values[`indirizzo.${k}`])]));
  if (Object.keys(address).length) body.indirizzo = address;
  if (values.pep === 'true' || values.pep === 'false') body.pep = values.pep;
  return body;
}

/**
 * The form checked with the API's own schema (records.schemas.ts: the same rules and messages as
 * /api/anagrafe, each next to its field), plus the tax ids' check characters, so one submission
 * shows every message. On an edit, an id left as it was is not checked again (the command checks
 * only what changes too), and the type of subject is the record's.
 */
function check(values: Record<string, string>, body: Obj, edit: boolean, current: Record<string, string>) {
  const parsed = createCustomerSchema.safeParse(body);
  const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
  if (values.pep !== 'true' && values.pep !== 'false') errors.pep ??= 'Rispondi sì o no';
  if (edit && !blank(values.stato)) errors.stato ??= 'Scegli lo stato';
  const tax = Object.fromEntries(TAX_FIELDS.filter((k) => !(edit && (values[k] ?? '') === (current[k] ?? ''))).map((k) => [k, blank(values[k]) ?? null]));
  for (const e of taxIdErrors(tax, String(body.tipo_soggetto ?? 'persona_fisica'))) errors[e.path] ??= e.message;
  return { parsed, errors };
}

export type ParsedCreate = { ok: true; body: CreateCustomerBody } | { ok: false; errors: Record<string, string> };

/** The create form as the API's create body, or the messages next to the fields. */
export function parseCreateForm(values: Record<string, string>): ParsedCreate {
  const body = formBody(values, ['tipo_soggetto', ...TEXT_KEYS.filter((k) => k !== 'stato' && k !== 'tipo_soggetto')]);
  const { parsed, errors } = check(values, body, false, {});
  return parsed.success && !Object.keys(errors).length ? { ok: true, body: parsed.data } : { ok: false, errors };
}

export type ParsedEdit = { ok: true; patch: CustomerPatch } | { ok: false; errors: Record<string, string> };

/**
 * The edit form as the command's patch. A field the person emptied is cleared (null): the API
 * leaves out what it is not given, a form sends every field. A person's denominazione left
 * empty, or left as it was, is not sent, so the command composes it again from a changed name;
 * the address typed again as it was is no change (jsonb gives its keys back in another order).
 */
export function parseEditForm(
  values: Record<string, string>, current: Record<string, string>, record: { tipo_soggetto: string; denominazione: string; indirizzo: Obj | null }, shown: Set<string>,
): ParsedEdit {
  const body = formBody({ ...values, tipo_soggetto: record.tipo_soggetto }, ['tipo_soggetto', ...TEXT_KEYS.filter((k) => k !== 'tipo_soggetto')]);
  const { parsed, errors } = check(values, body, true, current);
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const { tipo_soggetto: _fixed, ...given } = parsed.data;
  const patch: Obj = { ...given };
  for (const k of TEXT_KEYS) if (shown.has(k) && patch[k] === undefined && blank(current[k]) !== undefined) patch[k] = null;
  if (patch.indirizzo === undefined && record.indirizzo) patch.indirizzo = null;
  const keepName = patch.denominazione === null || (record.tipo_soggetto === 'persona_fisica' && patch.denominazione === record.denominazione);
  if (keepName) delete patch.denominazione;
  if (sameAddress((patch.indirizzo as Obj | null | undefined) ?? null, record.indirizzo)) delete patch.indirizzo;
  return { ok: true, patch: patch as CustomerPatch };
}

const addressKey = (a: Obj | null) => (a ? JSON.stringify(ADDRESS_KEYS.map((k) => a[k] ?? null)) : 'null');
const sameAddress = (a: Obj | null, b: Obj | null) => addressKey(a) === addressKey(b);
