import { quota } from '../../../http/share-format';
import { countryName } from '../../onboarding';
import { FORMA_GIURIDICA_LABELS } from '../verifications.vocabulary';
import { DICHIARATI_LABELS, PROFILO_LABELS } from './console.labels';

/**
 * The declared data and the company profile as a reader sees them: Italian labels, dates as
 * dd/mm/yyyy, yes/no, country names. `dati_dichiarati` is free JSON (onboarding's answers or the
 * operator's): a list of objects (the declared owners) becomes a table, anything else a row.
 */

export interface DeclaredRow { label: string; value: string }
export interface DeclaredTable { label: string; columns: { key: string; label: string }[]; rows: Record<string, string>[] }
export interface DeclaredView { rows: DeclaredRow[]; tables: DeclaredTable[] }

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T.*)?$/;
const COUNTRY_KEYS = new Set(['paese', 'nazionalita', 'paese_residenza', 'paese_costituzione', 'paese_rilascio', 'sede_legale.paese']);
const numberIt = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** "codice_attivita" -> "Codice attivita": a key nobody labelled still reads as words. */
const humanise = (key: string) => { const s = key.replace(/[_.]+/g, ' ').trim(); return s.charAt(0).toUpperCase() + s.slice(1); };
export const labelOfKey = (key: string) => DICHIARATI_LABELS[key] ?? PROFILO_LABELS[key] ?? humanise(key);

/** An address in one line (via, CAP città (provincia), paese), whichever names the writer used. */
function addressText(a: Record<string, unknown>): string | undefined {
  const street = a.via ?? a.indirizzo;
  const city = a.citta ?? a.comune;
  if (street === undefined && city === undefined) return undefined;
  const str = (x: unknown) => (x === undefined || x === null ? '' : String(x).trim());
  const place = [str(a.cap), str(city)].filter(Boolean).join(' ') + (str(a.provincia) ? ` (${str(a.provincia)})` : '');
  return [str(street), place, a.paese ? valueText('paese', a.paese) : ''].filter((x) => x.trim()).join(', ');
}

/** The order a reader expects (identity, then addresses, then the rest); PostgreSQL's jsonb keeps its own order. */
const KEY_ORDER = Object.keys(DICHIARATI_LABELS);
const rank = (k: string) => { const i = KEY_ORDER.indexOf(k); return i < 0 ? KEY_ORDER.length : i; };

/** One value in words. */
export function valueText(key: string, v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Sì' : 'No';
  // A declared share goes through the one share formatter: 25.001 must not read "25%".
  if (typeof v === 'number') return key === 'percentuale' ? quota(v) : numberIt.format(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => valueText(key, x)).join(', ') : '—';
  if (isObject(v) && addressText(v)) return addressText(v)!;
  if (isObject(v)) return Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== '').map(([k, x]) => `${labelOfKey(k)}: ${valueText(k, x)}`).join('; ') || '—';
  const s = String(v);
  const d = ISO_DATE.exec(s);
  if (d) return `${d[3]}/${d[2]}/${d[1]}`;
  if (key === 'forma_giuridica' && s in FORMA_GIURIDICA_LABELS) return FORMA_GIURIDICA_LABELS[s as keyof typeof FORMA_GIURIDICA_LABELS];
  const last = key.split('.').pop()!;
  if ((COUNTRY_KEYS.has(key) || COUNTRY_KEYS.has(last)) && /^[A-Z]{2}$/.test(s)) return `${countryName(s)} (${s})`;
  if (key === 'percentuale' && /^\d+([.,]\d+)?$/.test(s)) return quota(s);
  return s;
}

/** The declared data: scalars and small objects as rows, lists of objects (owners, representatives) as tables. */
export function declaredView(data: Record<string, unknown> | null | undefined): DeclaredView {
  const rows: DeclaredRow[] = [];
  const tables: DeclaredTable[] = [];
  for (const [key, v] of Object.entries(data ?? {}).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length && v.every(isObject)) {
      const keys = [...new Set(v.flatMap((o) => Object.keys(o)))];
      tables.push({
        label: labelOfKey(key), columns: keys.map((k) => ({ key: k, label: labelOfKey(k) })),
        rows: v.map((o) => Object.fromEntries(keys.map((k) => [k, valueText(k, o[k])]))),
      });
    } else rows.push({ label: labelOfKey(key), value: valueText(key, v) });
  }
  return { rows, tables };
}

/** The KYB company profile in the profile's own order, with the registered address in one line. */
export function profileRows(p: Record<string, unknown> | null | undefined): DeclaredRow[] {
  if (!p) return [];
  const sede = isObject(p.sede_legale) ? p.sede_legale : {};
  const address = [sede.indirizzo, [sede.cap, sede.comune].filter(Boolean).join(' ') + (sede.provincia ? ` (${String(sede.provincia)})` : ''),
    sede.paese ? valueText('paese', sede.paese) : ''].map((x) => (x === undefined || x === null ? '' : String(x))).filter((x) => x.trim()).join(', ');
  const capitale = typeof p.capitale_sociale === 'number' ? new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(p.capitale_sociale) : valueText('capitale_sociale', p.capitale_sociale);
  return [
    { label: PROFILO_LABELS.forma_giuridica!, value: valueText('forma_giuridica', p.forma_giuridica) },
    { label: PROFILO_LABELS.numero_registro!, value: valueText('numero_registro', p.numero_registro) },
    { label: PROFILO_LABELS.registro!, value: valueText('registro', p.registro) },
    { label: PROFILO_LABELS.codice_ateco!, value: valueText('codice_ateco', p.codice_ateco) },
    { label: PROFILO_LABELS.paese_costituzione!, value: valueText('paese_costituzione', p.paese_costituzione) },
    { label: PROFILO_LABELS.data_costituzione!, value: valueText('data_costituzione', p.data_costituzione) },
    { label: 'Sede legale', value: address || '—' },
    { label: PROFILO_LABELS.capitale_sociale!, value: capitale },
  ];
}

/** The profile as the form's flat values ("sede_legale.cap"), for the edit form's first drawing. */
export function profileFormValues(p: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p ?? {})) {
    if (isObject(v)) for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = v2 === null || v2 === undefined ? '' : String(v2);
    else out[k] = v === null || v === undefined ? '' : String(v);
  }
  return out;
}

/** The form's flat fields back into the profile's shape ("sede_legale.cap" -> { sede_legale: { cap } }). */
export function profileFromForm(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === '_csrf') continue;
    const [head, tail] = k.split('.', 2) as [string, string | undefined];
    if (tail) out[head] = { ...(isObject(out[head]) ? out[head] : {}), [tail]: v };
    else out[head] = v;
  }
  return out;
}
