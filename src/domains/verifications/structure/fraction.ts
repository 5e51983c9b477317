/**
 * Exact rational numbers on BigInt, so that the multiplicative method's cross-holdings are
 * solved exactly ((I − A)⁻¹ by Gaussian elimination without rounding): a regulator can check
 * that 15/22 is 68.1818...% and not 68.18% from a truncated series.
 */
export class Fraction {
  readonly num: bigint;
  readonly den: bigint;

  constructor(num: bigint, den: bigint = 1n) {
    if (den === 0n) throw new RangeError('division by zero');
    if (den < 0n) { num = -num; den = -den; }
    const g = gcd(num < 0n ? -num : num, den);
    this.num = g > 1n ? num / g : num;
    this.den = g > 1n ? den / g : den;
  }

  static readonly ZERO = new Fraction(0n);
  static readonly ONE = new Fraction(1n);

  /** The text toString gives back ("15/22", "1"): a stored result's exact share, for display. */
  static parse(text: string | null | undefined): Fraction | undefined {
    const m = /^(-?\d+)(?:\/(\d+))?$/.exec(text?.trim() ?? '');
    return m && m[2] !== '0' ? new Fraction(BigInt(m[1]!), BigInt(m[2] ?? 1)) : undefined;
  }

  /** A percentage with at most 4 decimals (the columns are numeric(7,4)) as a fraction of 1: 25.5 → 51/200. */
  static fromPercent(p: number): Fraction {
    return new Fraction(BigInt(Math.round(p * 10_000)), 1_000_000n);
  }

  add(o: Fraction) { return new Fraction(this.num * o.den + o.num * this.den, this.den * o.den); }
  sub(o: Fraction) { return new Fraction(this.num * o.den - o.num * this.den, this.den * o.den); }
  mul(o: Fraction) { return new Fraction(this.num * o.num, this.den * o.den); }
  div(o: Fraction) { return new Fraction(this.num * o.den, this.den * o.num); }
  isZero() { return this.num === 0n; }
  cmp(o: Fraction) { const d = this.num * o.den - o.num * this.den; return d < 0n ? -1 : d > 0n ? 1 : 0; }

  /** As a percentage rounded to 4 decimals (what is shown; the fraction stays exact). */
  toPercent(): number {
    const scaled = (this.num * 1_000_000n * 2n + this.den) / (this.den * 2n); // rounded, 10^-4 of a percent
    return Number(scaled) / 10_000;
  }

  /** "15/22" of 1, or "3/10"; integers as themselves. */
  toString() { return this.den === 1n ? String(this.num) : `${this.num}/${this.den}`; }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/**
 * Solves M·x = b exactly (Gauss–Jordan with a non-zero pivot). Returns undefined when M is
 * singular: for I − A that happens only when a group of companies holds 100% of each other
 * with no outside owner, a structure no person ultimately owns.
 */
export function solveExact(m: Fraction[][], b: Fraction[]): Fraction[] | undefined {
  const n = b.length;
  const a = m.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    const pivot = a.findIndex((row, r) => r >= col && !row[col]!.isZero());
    if (pivot < 0) return undefined;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    a[col] = a[col]!.map((v) => v.div(p));
    for (let r = 0; r < n; r++) {
      if (r === col || a[r]![col]!.isZero()) continue;
      const f = a[r]![col]!;
      a[r] = a[r]!.map((v, c) => v.sub(f.mul(a[col]![c]!)));
    }
  }
  return a.map((row) => row[n]!);
}
