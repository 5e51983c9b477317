import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../config';

/**
 * The checks of single cells shared by every kind of import: each returns the value in the form
 * the database stores, or an Italian message saying what is wrong and what is expected.
 */
export type Cell<T> = { ok: true; value: T } | { ok: false; messaggio: string };

const ISO2 = new Set((JSON.parse(readFileSync(join(projectRoot, 'data', 'reference', 'iso3166-alpha2.json'), 'utf8')) as { codes: string[] }).codes);

/** A date as YYYY-MM-DD or DD/MM/YYYY (also with '-' or '.'), checked on the calendar. */
export function parseDate(raw: string): Cell<string> {
  const s = raw.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  let y: number; let mo: number; let d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s))) [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else return { ok: false, messaggio: `Data non valida "${s}": usa GG/MM/AAAA o AAAA-MM-GG` };
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 1900 || y > 2099) {
    return { ok: false, messaggio: `Data inesistente "${s}"` };
  }
  return { ok: true, value: `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

/**
 * An amount as Italian or international writing has it: 1.234,56 / 1234,56 / 1234.56 / 1,234.56.
 * The last separator followed by one or two digits is the decimal one. At most two decimals.
 */
export function parseAmount(raw: string, opts: { zero?: boolean } = {}): Cell<string> {
  const s = raw.trim().replace(/\s|€/g, '');
  // Thousands (one separator, used consistently) or plain digits, then the decimals after the other separator.
  const m = /^(?:(\d{1,3}(?:([.,])\d{3})(?:\2\d{3})*)|(\d+))(?:([.,])(\d{1,2}))?$/.exec(s);
  if (!m || (m[2] && m[4] && m[2] === m[4])) return { ok: false, messaggio: `Importo non valido "${raw.trim()}": usa per esempio 1234,56` };
  const whole = (m[1] ?? m[3]!).replace(/[.,]/g, '');
  const value = `${whole}.${(m[5] ?? '').padEnd(2, '0')}`;
  if (whole.length > 16) return { ok: false, messaggio: 'Importo troppo grande' };
  if (Number(value) < 0 || (Number(value) === 0 && !opts.zero)) return { ok: false, messaggio: 'L\'importo deve essere maggiore di zero' };
  return { ok: true, value };
}

/** A time of day as HH:MM or HH:MM:SS (24 hours; one digit for the hour is read too), as HH:MM:SS. */
export function parseTime(raw: string): Cell<string> {
  const s = raw.trim();
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) {
    return { ok: false, messaggio: `Ora non valida "${s}": usa HH:MM o HH:MM:SS (da 00:00 a 23:59:59)` };
  }
  return { ok: true, value: `${m[1]!.padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}` };
}

export function parseCountry(raw: string): Cell<string> {
  const s = raw.trim().toUpperCase();
  return ISO2.has(s) ? { ok: true, value: s } : { ok: false, messaggio: `Paese non valido "${raw.trim()}": usa il codice ISO a due lettere (IT, FR, DE...)` };
}

export function parseCurrency(raw: string): Cell<string> {
  const s = raw.trim().toUpperCase() || 'EUR';
  return /^[A-Z]{3}$/.test(s) ? { ok: true, value: s } : { ok: false, messaggio: `Valuta non valida "${raw.trim()}": usa il codice ISO a tre lettere (EUR, USD...)` };
}

const YES = new Set(['si', 'sì', 's', 'true', '1', 'x', 'yes', 'y']);
const NO = new Set(['no', 'n', 'false', '0', '']);
export function parseBool(raw: string): Cell<boolean> {
  const s = raw.trim().toLowerCase();
  if (YES.has(s)) return { ok: true, value: true };
  if (NO.has(s)) return { ok: true, value: false };
  return { ok: false, messaggio: `Valore non valido "${raw.trim()}": usa sì oppure no` };
}

export function parseText(raw: string, max: number): Cell<string | null> {
  const s = raw.trim();
  if (!s) return { ok: true, value: null };
  // A NUL or another control character cannot be stored in a text column and has no meaning in a record.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s)) return { ok: false, messaggio: 'Contiene caratteri non ammessi' };
  return s.length <= max ? { ok: true, value: s } : { ok: false, messaggio: `Testo troppo lungo: al massimo ${max} caratteri` };
}

/**
 * Collects the cells of one row: `take(column, check)` runs a check on the cell and remembers its
 * error; a required empty cell is an error of its own.
 */
export function rowChecker(values: Record<string, string>) {
  const errors: { colonna: string; messaggio: string }[] = [];
  function take<T>(colonna: string, check: (raw: string) => Cell<T>, required: true): T;
  function take<T>(colonna: string, check: (raw: string) => Cell<T>, required?: false): T | null;
  function take<T>(colonna: string, check: (raw: string) => Cell<T>, required = false): T | null {
    const raw = values[colonna] ?? '';
    if (!raw.trim()) {
      if (required) errors.push({ colonna, messaggio: 'Campo obbligatorio' });
      return null;
    }
    const r = check(raw);
    if (r.ok) return r.value;
    errors.push({ colonna, messaggio: r.messaggio });
    return null;
  }
  return { take, errors };
}
