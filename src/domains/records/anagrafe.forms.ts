import { z } from 'zod';
import { COUNTRY_OPTIONS } from '../onboarding';
import { testoOpzionale } from '../../http/text-field';
import { fieldErrors } from '../../http/validate';
import { CLASSE_RISCHIO_LABELS, STATO_ANAGRAFE_LABELS, TIPO_SOGGETTO_LABELS } from './anagrafe.labels';
import { CLASSI_RISCHIO, STATI_ANAGRAFE, TIPI_SOGGETTO } from './records.vocabulary';
import { taxIdErrors, type CustomerFields, type CustomerPatch } from './records.commands';

const TAX_FIELDS = ['codice_fiscale', 'partita_iva', 'codice_fiscale_estero', 'paese_fiscale'] as const;
import { isoDate, todayInRome } from './records.dates';

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
    out[k] = v === null || v === undefined ? '' : v instanceof Date ? isoDate(v) ?? '' : String(v);
  }
  const addr = (row.indirizzo && typeof row.indirizzo === 'object' ? row.indirizzo : {}) as Obj;
  for (const k of ADDRESS_KEYS) out[`indirizzo.${k}`] = addr[k] === null || addr[k] === undefined ? '' : String(addr[k]);
  out.pep = row.pep ? 'true' : 'false';
  out.versione = String(row.versione ?? '');
  return out;
}

const ISO2_CODES = new Set(COUNTRY_OPTIONS.map((c) => c.code));
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
const optionalText = (max: number) => testoOpzionale({ max });
const country = z.string().optional().refine((v) => v === undefined || ISO2_CODES.has(v), { message: 'Scegli un paese dall\'elenco' });
const ADDRESS_MAX = { via: 200, cap: 10, citta: 100, provincia: 50 } as const;

/**
 * What the form may get wrong, checked before the command: required names by type of subject,
 * formats (e-mail, dates, countries from the list). The tax ids' check characters and the
 * duplicates are the command's (its 422 and 409 come back next to the field too).
 */
const formSchema = z.object({
  tipo_soggetto: z.enum(TIPI_SOGGETTO, { message: 'Scegli il tipo di soggetto' }),
  stato: z.enum(STATI_ANAGRAFE.filter((x) => x !== 'eliminato') as ['attivo', 'sospeso', 'cessato'], { message: 'Scegli lo stato' }).optional(),
  denominazione: optionalText(200),
  nome: optionalText(100),
  cognome: optionalText(100),
  data_nascita: z.string().optional()
    .refine((v) => v === undefined || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))), { message: 'Scrivi una data valida (giorno, mese, anno)' })
    .refine((v) => v === undefined || v <= todayInRome(), { message: 'La data di nascita non può essere nel futuro' }),
  luogo_nascita: optionalText(100),
  nazionalita: country,
  paese_residenza: country,
  attivita: optionalText(200),
  codice_fiscale: z.string().max(20, 'Massimo 20 caratteri').optional(),
  partita_iva: z.string().max(16, 'Massimo 16 caratteri').optional(),
  codice_fiscale_estero: optionalText(40),
  paese_fiscale: country,
  'indirizzo.via': optionalText(ADDRESS_MAX.via),
  'indirizzo.cap': optionalText(ADDRESS_MAX.cap),
  'indirizzo.citta': optionalText(ADDRESS_MAX.citta),
  'indirizzo.provincia': optionalText(ADDRESS_MAX.provincia),
  'indirizzo.paese': country,
  email: z.email({ message: 'Scrivi un indirizzo e-mail valido' }).max(200).optional(),
  telefono: z.string().max(40, 'Massimo 40 caratteri').regex(/^[+0-9 ()./-]+$/, 'Scrivi solo cifre, spazi e il prefisso internazionale (+39)').optional(),
  pep: z.enum(['true', 'false'], { message: 'Rispondi sì o no' }),
  classe_rischio: z.enum(CLASSI_RISCHIO, { message: 'Scegli una classe dall\'elenco' }).optional(),
}).superRefine((v, ctx) => {
  if (v.tipo_soggetto === 'persona_fisica' || v.tipo_soggetto === 'ditta_individuale') {
    if (!v.nome) ctx.addIssue({ code: 'custom', path: ['nome'], message: 'Scrivi il nome' });
    if (!v.cognome) ctx.addIssue({ code: 'custom', path: ['cognome'], message: 'Scrivi il cognome' });
  }
  if (v.tipo_soggetto !== 'persona_fisica' && !v.denominazione) {
    ctx.addIssue({ code: 'custom', path: ['denominazione'], message: 'Scrivi la denominazione o ragione sociale' });
  }
  if (v.codice_fiscale_estero && !v.paese_fiscale) ctx.addIssue({ code: 'custom', path: ['paese_fiscale'], message: 'Indica il paese che ha rilasciato l\'identificativo estero' });
});

export type ParsedCustomerForm = { ok: true; fields: CustomerFields } | { ok: false; errors: Record<string, string> };

/**
 * The form values as the command's input, or the messages next to the fields. Empty text is
 * null (an edit may clear a field); the address is one object, or null when left empty.
 */
export function parseCustomerForm(values: Record<string, string>, edit: boolean, current: Record<string, string> = {}): ParsedCustomerForm {
  const raw = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, blank(v)]));
  if (!edit) delete raw.stato;
  const parsed = formSchema.safeParse(raw);
  const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
  if (edit && !raw.stato) errors.stato ??= 'Scegli lo stato';
  // The check characters with everything else, so one submission shows every message. An id the
  // edit leaves as it was is not checked again (the command checks only what changes, too).
  const tax = Object.fromEntries(TAX_FIELDS.filter((k) => !(edit && (raw[k] ?? '') === (current[k] ?? ''))).map((k) => [k, raw[k] ?? null]));
  for (const e of taxIdErrors(tax, raw.tipo_soggetto ?? 'persona_fisica')) errors[e.path] ??= e.message;
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const v = parsed.data;
  const address = { via: v['indirizzo.via'], cap: v['indirizzo.cap'], citta: v['indirizzo.citta'], provincia: v['indirizzo.provincia'], paese: v['indirizzo.paese'] };
  const n = <T>(x: T | undefined) => x ?? null;
  return {
    ok: true,
    fields: {
      tipo_soggetto: v.tipo_soggetto, denominazione: n(v.denominazione), nome: n(v.nome), cognome: n(v.cognome), codice_fiscale: n(v.codice_fiscale),
      partita_iva: n(v.partita_iva), codice_fiscale_estero: n(v.codice_fiscale_estero), paese_fiscale: n(v.paese_fiscale), data_nascita: n(v.data_nascita),
      luogo_nascita: n(v.luogo_nascita), nazionalita: n(v.nazionalita), paese_residenza: n(v.paese_residenza), attivita: n(v.attivita),
      indirizzo: Object.values(address).some((x) => x !== undefined) ? Object.fromEntries(Object.entries(address).map(([k, x]) => [k, n(x)])) : null,
      email: n(v.email), telefono: n(v.telefono), pep: v.pep === 'true', classe_rischio: n(v.classe_rischio), ...(v.stato ? { stato: v.stato } : {}),
    },
  };
}

/**
 * The edit's patch: everything but the type of subject (fixed). A person's denominazione left
 * empty, or left as it was, is not sent, so the command composes it again from a changed name.
 */
export function customerPatch(fields: CustomerFields, current: { tipo_soggetto: string; denominazione: string; indirizzo: Obj | null }): CustomerPatch {
  const { tipo_soggetto: _fixed, ...patch } = fields;
  const keepName = patch.denominazione === null || (current.tipo_soggetto === 'persona_fisica' && patch.denominazione === current.denominazione);
  if (keepName) delete patch.denominazione;
  // The stored address comes back from jsonb with its keys in another order: the same address is no change.
  if (sameAddress(patch.indirizzo ?? null, current.indirizzo)) delete patch.indirizzo;
  return patch;
}

const addressKey = (a: Obj | null) => (a ? JSON.stringify(ADDRESS_KEYS.map((k) => a[k] ?? null)) : 'null');
const sameAddress = (a: Obj | null, b: Obj | null) => addressKey(a) === addressKey(b);
