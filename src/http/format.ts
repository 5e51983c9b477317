/**
 * Italian formatting of what pages show: one implementation for every page (registered as
 * Nunjucks filters in views.ts) and for the few texts composed in code. Values are stored in UTC
 * and shown in Europe/Rome. A missing value shows as a dash, never as an empty cell.
 */

export const VUOTO = '—';
const ZONE = 'Europe/Rome';

const numberFmt = new Map<number, Intl.NumberFormat>();
const numFmt = (decimals: number | undefined) => {
  const key = decimals ?? -1;
  let f = numberFmt.get(key);
  if (!f) {
    // useGrouping 'always': it-IT leaves four-digit numbers ungrouped by default (4686 beside 14.965).
    f = new Intl.NumberFormat('it-IT', {
      useGrouping: 'always', ...(decimals === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
    } as Intl.NumberFormatOptions);
    numberFmt.set(key, f);
  }
  return f;
};
const dateFmt = new Intl.DateTimeFormat('it-IT', { timeZone: ZONE, day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeFmt = new Intl.DateTimeFormat('it-IT', { timeZone: ZONE, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A number as a number, or undefined when the value is not one (a string of digits is one). */
function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/** 14965 → "14.965", 0 → "0", null → "—" (or what the caller says, e.g. numero(v, '0') for counters). */
export function numero(v: unknown, vuoto: string = VUOTO, decimali?: number): string {
  if (blank(v)) return vuoto;
  const n = asNumber(v);
  return n === undefined ? String(v) : numFmt(decimali).format(n);
}

const currencyFmt = new Map<string, Intl.NumberFormat>();
/** 1234.5 → "1.234,50 €"; another currency by its ISO code: importo(v, 'USD') → "1.234,50 USD". */
export function importo(v: unknown, valuta = 'EUR', vuoto: string = VUOTO): string {
  if (blank(v)) return vuoto;
  const n = asNumber(v);
  if (n === undefined) return String(v);
  const code = valuta.toUpperCase();
  let f = currencyFmt.get(code);
  if (!f) {
    f = new Intl.NumberFormat('it-IT', { style: 'currency', currency: code, currencyDisplay: code === 'EUR' ? 'symbol' : 'code', useGrouping: 'always' } as Intl.NumberFormatOptions);
    currencyFmt.set(code, f);
  }
  return f.format(n);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// Partial dates of birth, as sanctions lists and the screening form give them: a year, a month of a year.
const YEAR_ONLY = /^\d{4}$/;
const MONTH_ONLY = /^(\d{4})-(\d{2})$/;

/**
 * A calendar date ("1984-01-08", a date of birth) is a day, not an instant: it is shown as written,
 * never moved through a time zone. A Date at local midnight is what the driver makes of a `date`
 * column: its local day is the day meant.
 */
function calendarDay(v: unknown): string | undefined {
  if (typeof v === 'string') {
    const s = v.trim();
    const m = DATE_ONLY.exec(s);
    if (m) return `${m[3]}/${m[2]}/${m[1]}`;
    if (YEAR_ONLY.test(s)) return s;
    const ym = MONTH_ONLY.exec(s);
    return ym ? `${ym[2]}/${ym[1]}` : undefined;
  }
  if (v instanceof Date && !Number.isNaN(v.getTime()) && v.getHours() === 0 && v.getMinutes() === 0 && v.getSeconds() === 0 && v.getMilliseconds() === 0
    && v.getTimezoneOffset() !== 0) {
    return `${String(v.getDate()).padStart(2, '0')}/${String(v.getMonth() + 1).padStart(2, '0')}/${v.getFullYear()}`;
  }
  return undefined;
}

function toInstant(v: unknown): Date | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v;
  if (typeof v === 'string' || typeof v === 'number') {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  return undefined;
}

/** dd/mm/yyyy in Europe/Rome; a date-only value keeps its day. */
export function data(v: unknown, vuoto: string = VUOTO): string {
  if (blank(v)) return vuoto;
  const day = calendarDay(v);
  if (day) return day;
  const d = toInstant(v);
  return d ? dateFmt.format(d) : String(v);
}

/** dd/mm/yyyy hh:mm in Europe/Rome; a date-only value has no time and shows as a date. */
export function dataora(v: unknown, vuoto: string = VUOTO): string {
  if (blank(v)) return vuoto;
  if (typeof v === 'string' && DATE_ONLY.test(v.trim())) return data(v);
  const d = toInstant(v);
  return d ? dateTimeFmt.format(d).replace(',', '') : String(v);
}

const UNITS = [
  { ms: 86_400_000, one: 'giorno', many: 'giorni' },
  { ms: 3_600_000, one: 'ora', many: 'ore' },
  { ms: 60_000, one: 'minuto', many: 'minuti' },
  { ms: 1_000, one: 'secondo', many: 'secondi' },
] as const;
const UNIT_MS: Record<string, number> = { ms: 1, secondi: 1_000, minuti: 60_000, ore: 3_600_000, giorni: 86_400_000 };

/**
 * A duration in Italian words, its two largest units: 259200000 → "3 giorni", 7500000 → "2 ore 5 minuti".
 * The value is in milliseconds unless the unit says otherwise: durata(giorni, 'giorni').
 */
export function durata(v: unknown, unita: keyof typeof UNIT_MS | string = 'ms', vuoto: string = VUOTO): string {
  if (blank(v)) return vuoto;
  const n = asNumber(v);
  if (n === undefined) return String(v);
  let rest = Math.round(Math.abs(n) * (UNIT_MS[unita] ?? 1));
  if (rest < 1_000) return rest === 0 ? '0 secondi' : 'meno di un secondo';
  // The largest unit and the next one when it is not zero: "1 giorno 4 ore", "3 giorni", never "3 giorni 0 ore".
  const i = UNITS.findIndex((u) => rest >= u.ms);
  const words = (k: number, u: (typeof UNITS)[number]) => `${k} ${k === 1 ? u.one : u.many}`;
  const first = Math.floor(rest / UNITS[i]!.ms);
  rest -= first * UNITS[i]!.ms;
  const next = UNITS[i + 1];
  const second = next ? Math.floor(rest / next.ms) : 0;
  return second && next ? `${words(first, UNITS[i]!)} ${words(second, next)}` : words(first, UNITS[i]!);
}

/**
 * A percentage: percentuale(25) → "25%", percentuale(33.333, 1) → "33,3%". A score between 0 and 1
 * is a fraction: percentuale(0.92, 0, true) → "92%".
 */
export function percentuale(v: unknown, decimali = 0, frazione = false, vuoto: string = VUOTO): string {
  if (blank(v)) return vuoto;
  const n = asNumber(v);
  if (n === undefined) return String(v);
  return `${numFmt(decimali).format(frazione ? n * 100 : n)}%`;
}

/**
 * The label of an enumerated value from the dictionary the page was given:
 * {{ c.stato | etichetta(labels.stato) }}. A value the dictionary does not know shows as it is
 * (the page-format test fails on known keys shown raw, so a missing label is found, not hidden).
 */
export function etichetta(v: unknown, dizionario: Record<string, string> | ((key: string) => string) | undefined, vuoto: string = VUOTO): string {
  if (blank(v)) return vuoto;
  const key = String(v);
  // A family of values with a pattern (the dated OFAC lists) is named by a function.
  if (typeof dizionario === 'function') return dizionario(key);
  return (dizionario && Object.hasOwn(dizionario, key) ? dizionario[key] : undefined) ?? key;
}
