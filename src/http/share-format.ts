import { VUOTO } from './format';

/**
 * Shares of capital or votes as every page, export and composed text shows them (docs/ui.md,
 * "Formatting"). The beneficial-owner test is strict ("superiore al 25 per cento") and runs on
 * exact fractions, so a share a hair above the threshold is an owner and one a hair below is not:
 * neither may read as the threshold itself. Arithmetic is on BigInt, so no float rounding can
 * decide which side of the threshold a value falls on.
 */

/** The legal threshold of art. 20, comma 2, d.lgs. 231/2007, in percent points. */
export const SOGLIA_TITOLARE = 25;

/** An exact share as a fraction of 1 (the UBO engine's Fraction fits): 15/22 is 68,1818...%. */
export interface ExactShare { num: bigint; den: bigint }

/** Shares have at most 4 decimals where they are typed and stored (numeric(7,4)): the usual precision. */
const DECIMALI = 4;
/** Past this many decimals a difference from the threshold is said, not spelt out. */
const MAX_DECIMALI = 12;

/** A rational number of percent points, den > 0. */
interface Rational { n: bigint; d: bigint }

const DECIMAL = /^\s*(-?)(\d+)(?:[.,](\d+))?(?:e([+-]?\d+))?\s*$/i;

/** A number or a numeric text as the exact decimal it spells ("25.0000125", 2.5e-7): what was stored is what is read. */
function decimal(v: number | string): Rational | undefined {
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  const m = DECIMAL.exec(String(v));
  if (!m) return undefined;
  const frac = m[3] ?? '';
  const exp = Number(m[4] ?? 0) - frac.length;
  const digits = BigInt(`${m[2]}${frac}`) * (m[1] ? -1n : 1n);
  return exp >= 0 ? { n: digits * 10n ** BigInt(exp), d: 1n } : { n: digits, d: 10n ** BigInt(-exp) };
}

function percentOf(v: unknown): Rational | undefined {
  if (v !== null && typeof v === 'object' && typeof (v as ExactShare).num === 'bigint' && typeof (v as ExactShare).den === 'bigint') {
    const { num, den } = v as ExactShare;
    return den === 0n ? undefined : den < 0n ? { n: -num * 100n, d: -den } : { n: num * 100n, d: den };
  }
  if (typeof v === 'number' || typeof v === 'string') return decimal(v);
  if (typeof v === 'bigint') return { n: v, d: 1n };
  return undefined;
}

/** The value at `k` decimals as an integer of 10^-k, half away from zero (as Intl rounds). */
function scaled(r: Rational, k: number): bigint {
  const p = 10n ** BigInt(k);
  const abs = r.n < 0n ? -r.n : r.n;
  const q = (abs * p * 2n + r.d) / (r.d * 2n);
  return r.n < 0n ? -q : q;
}

const cmp = (a: Rational, b: Rational) => { const x = a.n * b.d - b.n * a.d; return x < 0n ? -1 : x > 0n ? 1 : 0; };

/** An integer of 10^-k in it-IT: comma for decimals, trailing zeros dropped ("25,0000125", "50"). */
function digits(q: bigint, k: number): string {
  const sign = q < 0n ? '-' : '';
  const s = (q < 0n ? -q : q).toString().padStart(k + 1, '0');
  const int = s.slice(0, s.length - k);
  const dec = s.slice(s.length - k).replace(/0+$/, '');
  return `${sign}${int}${dec ? `,${dec}` : ''}`;
}

/**
 * A share in percent points, it-IT, up to 4 decimals: 33.3333 → "33,3333%", 50 → "50%", an exact
 * fraction of 1 such as 15/22 → "68,1818%". When those 4 decimals would make it read as the
 * threshold while it is not, it shows its exact decimals if they end within 12 (25.0000125 →
 * "25,0000125%", 24.9999999 → "24,9999999%"), else the decimals that tell it apart (25 + 1/3·10^-7
 * → "25,00000003%"); exactly 25 stays "25%". A difference beyond 12 decimals reads "> 25%" or
 * "< 25%". `soglia` is the calculation's threshold (25 by law).
 */
export function quota(v: unknown, soglia: number = SOGLIA_TITOLARE, vuoto: string = VUOTO): string {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return vuoto;
  const r = percentOf(v);
  if (!r) return String(v);
  const t = decimal(soglia);
  const q = scaled(r, DECIMALI);
  if (!t || q !== scaled(t, DECIMALI) || cmp(r, t) === 0) return `${digits(q, DECIMALI)}%`;
  // Rounded, it would read as the threshold. Its exact digits when they end soon enough (25,0000125%),
  // else as many decimals as tell it apart (the threshold has at most 4).
  for (let k = DECIMALI + 1; k <= MAX_DECIMALI; k++) {
    if ((r.n * 10n ** BigInt(k)) % r.d === 0n) return `${digits(scaled(r, k), k)}%`;
  }
  for (let k = DECIMALI + 1; k <= MAX_DECIMALI; k++) {
    const x = scaled(r, k);
    if (x !== scaled(t, k)) return `${digits(x, k)}%`;
  }
  return `${cmp(r, t) > 0 ? '>' : '<'} ${digits(scaled(t, DECIMALI), DECIMALI)}%`;
}
