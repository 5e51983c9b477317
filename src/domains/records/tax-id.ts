/**
 * Italian tax identifiers and the dedupe key of a subject.
 *
 * - Codice fiscale of a natural person: 16 characters (surname, name, birth year, month letter,
 *   day (+40 for women), place code, check letter). When two people would get the same code the
 *   Agenzia delle Entrate replaces digits with letters (omocodia: 0-9 -> L M N P Q R S T U V),
 *   starting from the right; the substituted code is a different person's code, so it is never
 *   mapped back to the base form for deduplication.
 * - Codice fiscale of an entity, and partita IVA: 11 digits with a Luhn-style check digit; an
 *   entity's numeric codice fiscale and its partita IVA share the same number space.
 */

const ODD_VALUES: Record<string, number> = {
  0: 1, 1: 0, 2: 5, 3: 7, 4: 9, 5: 13, 6: 15, 7: 17, 8: 19, 9: 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18,
  N: 20, O: 11, P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};
const A = 'A'.charCodeAt(0);
const evenValue = (c: string) => (c >= '0' && c <= '9' ? Number(c) : c.charCodeAt(0) - A);

/** Omocodia: the letters standing for the digits 0-9, and the positions (0-based) they may replace. */
const OMOCODIA_LETTERS = 'LMNPQRSTUV';
const OMOCODIA_POSITIONS = [6, 7, 9, 10, 12, 13, 14];
const MONTH_LETTERS = 'ABCDEHLMPRST';
/** Surname(3) name(3) year(2) month(1) day(2) place(letter + 3) check: digits may be omocodia letters. */
const CF_SHAPE = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

/** Upper case without spaces, dots or dashes (how people type and print tax ids). */
export function normaliseTaxId(value: string): string {
  return value.normalize('NFKC').replace(/[\s.\-/]/g, '').toUpperCase();
}

/** The check letter of the first 15 characters of a personal codice fiscale. */
export function codiceFiscaleCheckChar(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = first15[i]!;
    // Positions are counted from 1 in the rule: odd ones (1st, 3rd, ...) are index 0, 2, ...
    sum += i % 2 === 0 ? ODD_VALUES[c]! : evenValue(c);
  }
  return String.fromCharCode(A + (sum % 26));
}

/** The code with every omocodia letter turned back into its digit (to read the birth date and place). */
export function decodeOmocodia(cf: string): string {
  const chars = cf.split('');
  for (const i of OMOCODIA_POSITIONS) {
    const k = OMOCODIA_LETTERS.indexOf(chars[i]!);
    if (k >= 0) chars[i] = String(k);
  }
  return chars.join('');
}

/** A valid personal codice fiscale (16 characters): shape, month, day and check letter, omocodia allowed. */
export function isValidCodiceFiscalePersona(value: string): boolean {
  const cf = normaliseTaxId(value);
  if (!CF_SHAPE.test(cf)) return false;
  const plain = decodeOmocodia(cf);
  const day = Number(plain.slice(9, 11));
  if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71))) return false;
  if (!MONTH_LETTERS.includes(plain[8]!)) return false;
  return codiceFiscaleCheckChar(cf.slice(0, 15)) === cf[15];
}

/** The check digit of the first 10 digits of a partita IVA (or an entity's codice fiscale). */
export function partitaIvaCheckDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const d = Number(first10[i]);
    if (i % 2 === 0) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** A valid partita IVA: 11 digits (an optional IT prefix is dropped), not all zero, with its check digit. */
export function isValidPartitaIva(value: string): boolean {
  const piva = normalisePartitaIva(value);
  if (!/^\d{11}$/.test(piva) || /^0+$/.test(piva.slice(0, 7))) return false;
  return partitaIvaCheckDigit(piva.slice(0, 10)) === Number(piva[10]);
}

/** A partita IVA as stored: digits only, without the VAT prefix "IT". */
export function normalisePartitaIva(value: string): string {
  const v = normaliseTaxId(value);
  return /^IT\d{11}$/.test(v) ? v.slice(2) : v;
}

/** A valid codice fiscale: a person's (16 characters) or an entity's (11 digits). */
export function isValidCodiceFiscale(value: string): boolean {
  const cf = normaliseTaxId(value);
  return cf.length === 11 ? isValidPartitaIva(cf) : isValidCodiceFiscalePersona(cf);
}

/** The identifiers a subject's dedupe key is made from. */
export interface TaxIdentity {
  tipo_soggetto: string;
  codice_fiscale?: string | null;
  partita_iva?: string | null;
  codice_fiscale_estero?: string | null;
  paese_fiscale?: string | null;
}

/**
 * The subject's dedupe key (anagrafe.chiave_fiscale), unique per tenant: one record per real
 * person or company. Only verified identifiers make a key (a typo must not merge two people):
 * - 'CF:<16 characters>' for a natural person and a sole trader (the trader is the person);
 * - 'PIVA:<11 digits>' for an entity: its numeric codice fiscale, else its partita IVA;
 * - 'EST:<country>:<id>' from a foreign tax id with its country;
 * - null when none of them is present and valid (the record is not deduplicated).
 */
export function dedupeKey(s: TaxIdentity): string | null {
  const cf = s.codice_fiscale ? normaliseTaxId(s.codice_fiscale) : '';
  if (cf.length === 16 && isValidCodiceFiscalePersona(cf)) return `CF:${cf}`;
  if (cf.length === 11 && isValidPartitaIva(cf)) return `PIVA:${cf}`;
  const piva = s.partita_iva ? normalisePartitaIva(s.partita_iva) : '';
  if (s.tipo_soggetto !== 'persona_fisica' && piva && isValidPartitaIva(piva)) return `PIVA:${piva}`;
  const foreign = s.codice_fiscale_estero ? normaliseTaxId(s.codice_fiscale_estero) : '';
  const paese = s.paese_fiscale ? s.paese_fiscale.trim().toUpperCase() : '';
  if (foreign && /^[A-Z]{2}$/.test(paese) && paese !== 'IT') return `EST:${paese}:${foreign}`;
  return null;
}
