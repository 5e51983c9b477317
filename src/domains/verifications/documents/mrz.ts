/**
 * The machine-readable zone (MRZ) of travel documents, ICAO Doc 9303 (8th edition, 2021):
 * part 3 (common specifications: character set, check digits, dates), part 4 (TD3, passports:
 * 2 lines of 44), part 5 (TD1, identity cards: 3 lines of 30), part 6 (TD2: 2 lines of 36).
 *
 * Pure: no I/O. `parseMrz` reads the fields and recomputes every check digit, the composite one
 * included; a document whose digits do not match was mistyped, badly read, or forged.
 */

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

/** One check digit of the zone: what it covers, the digit printed and the one computed. */
export interface MrzCheck {
  campo: 'numero_documento' | 'data_nascita' | 'data_scadenza' | 'dati_facoltativi' | 'composito';
  /** The characters the digit is computed over (fillers included). */
  valore: string;
  atteso: string;
  letto: string;
  ok: boolean;
}

export interface MrzFields {
  formato: MrzFormat;
  /** P, I, A, C, ID...: the first one or two characters, fillers dropped. */
  codice_documento: string;
  stato_emittente: string;
  numero_documento: string;
  nazionalita: string;
  /** 'YYYY-MM-DD', or null when the zone gives no valid date (unknown parts are '<'). */
  data_nascita: string | null;
  sesso: 'M' | 'F' | 'X';
  data_scadenza: string | null;
  cognome: string;
  nome: string;
  /** The optional data (personal number on a TD3), fillers dropped. */
  dati_facoltativi: string;
}

export type MrzResult =
  | { ok: true; campi: MrzFields; controlli: MrzCheck[]; valido: boolean }
  | { ok: false; errore: string };

const WEIGHTS = [7, 3, 1] as const;

/** The value of one MRZ character in a check digit: digits as they are, A-Z 10-35, the filler 0. */
function charValue(c: string): number {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'A' && c <= 'Z') return c.charCodeAt(0) - 55;
  if (c === '<') return 0;
  throw new Error(`not an MRZ character: ${c}`);
}

/** The check digit of a field (Doc 9303 part 3, 4.9): weights 7, 3, 1 repeated, sum modulo 10. */
export function checkDigit(value: string): string {
  let sum = 0;
  for (let i = 0; i < value.length; i++) sum += charValue(value[i]!) * WEIGHTS[i % 3]!;
  return String(sum % 10);
}

/**
 * The lines of a zone as people paste it: upper case, spaces dropped, one line per row (a zone
 * pasted on one row is cut at the lengths of its format). Unknown lengths come back as they are.
 */
export function normaliseMrz(text: string): string[] {
  const rows = text.toUpperCase().replace(/\r/g, '').split('\n').map((l) => l.replace(/[\s]/g, '')).filter((l) => l.length > 0);
  if (rows.length === 1) {
    const one = rows[0]!;
    if (one.length === 90) return [one.slice(0, 30), one.slice(30, 60), one.slice(60)];
    if (one.length === 88) return [one.slice(0, 44), one.slice(44)];
    if (one.length === 72) return [one.slice(0, 36), one.slice(36)];
  }
  return rows;
}

const strip = (s: string) => s.replace(/<+$/g, '').replace(/</g, ' ').trim();

/** Surname and given names: primary and secondary identifiers separated by '<<', names by '<'. */
function names(field: string): { cognome: string; nome: string } {
  const [primary = '', ...rest] = field.split('<<');
  return { cognome: strip(primary), nome: strip(rest.join('<<')) };
}

/**
 * A YYMMDD date. The century is not in the zone: a birth date is in the past (a year above the
 * current one belongs to the previous century); an expiry date is within 50 years of today.
 */
function mrzDate(yymmdd: string, kind: 'nascita' | 'scadenza', today: Date): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  const thisYear = today.getUTCFullYear();
  const century = Math.floor(thisYear / 100) * 100;
  let year = century + yy;
  if (kind === 'nascita' && year > thisYear) year -= 100;
  if (kind === 'scadenza' && year > thisYear + 50) year -= 100;
  if (kind === 'scadenza' && year < thisYear - 50) year += 100;
  const d = new Date(Date.UTC(year, mm - 1, dd));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== mm - 1 || d.getUTCDate() !== dd) return null;
  return d.toISOString().slice(0, 10);
}

const sexOf = (c: string): 'M' | 'F' | 'X' => (c === 'M' || c === 'F' ? c : 'X');

function check(campo: MrzCheck['campo'], valore: string, letto: string): MrzCheck {
  const atteso = checkDigit(valore);
  return { campo, valore, atteso, letto, ok: atteso === letto };
}

/**
 * TD3 (part 4): line 2 is number(9) check, nationality(3), birth(6) check, sex, expiry(6) check,
 * personal number(14) check, composite over number+check, birth+check, expiry+check, personal+check.
 */
function parseTd3(l1: string, l2: string, today: Date): MrzResult {
  const personal = l2.slice(28, 42);
  const controlli = [
    check('numero_documento', l2.slice(0, 9), l2[9]!),
    check('data_nascita', l2.slice(13, 19), l2[19]!),
    check('data_scadenza', l2.slice(21, 27), l2[27]!),
    // An empty personal number may carry '<' as its check digit (part 4, 4.2.2.2).
    ...(/^<+$/.test(personal) && l2[42] === '<' ? [] : [check('dati_facoltativi', personal, l2[42]!)]),
    check('composito', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43), l2[43]!),
  ];
  return result(controlli, {
    formato: 'TD3', codice_documento: strip(l1.slice(0, 2)), stato_emittente: strip(l1.slice(2, 5)), numero_documento: strip(l2.slice(0, 9)),
    nazionalita: strip(l2.slice(10, 13)), data_nascita: mrzDate(l2.slice(13, 19), 'nascita', today), sesso: sexOf(l2[20]!),
    data_scadenza: mrzDate(l2.slice(21, 27), 'scadenza', today), ...names(l1.slice(5)), dati_facoltativi: strip(personal),
  });
}

/** TD2 (part 6): like TD3 with 36 characters, 7 of optional data and no check digit of their own. */
function parseTd2(l1: string, l2: string, today: Date): MrzResult {
  const long = longNumber(l2.slice(0, 9), l2[9]!, l2.slice(28, 35));
  const controlli = [
    check('numero_documento', long.valore, long.letto),
    check('data_nascita', l2.slice(13, 19), l2[19]!),
    check('data_scadenza', l2.slice(21, 27), l2[27]!),
    check('composito', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 35), l2[35]!),
  ];
  return result(controlli, {
    formato: 'TD2', codice_documento: strip(l1.slice(0, 2)), stato_emittente: strip(l1.slice(2, 5)), numero_documento: long.numero,
    nazionalita: strip(l2.slice(10, 13)), data_nascita: mrzDate(l2.slice(13, 19), 'nascita', today), sesso: sexOf(l2[20]!),
    data_scadenza: mrzDate(l2.slice(21, 27), 'scadenza', today), ...names(l1.slice(5)), dati_facoltativi: strip(long.resto),
  });
}

/**
 * A document number longer than 9 characters (parts 5 and 6, note j): the first 9 in the number
 * field, '<' in its check digit's place, the rest at the start of the optional data followed by
 * the check digit of the whole number.
 */
function longNumber(first9: string, digit: string, optional: string): { numero: string; valore: string; letto: string; resto: string } {
  if (digit !== '<') return { numero: strip(first9), valore: first9, letto: digit, resto: optional };
  const m = /^([0-9A-Z]*?)(\d)(<.*|)$/.exec(optional);
  if (!m) return { numero: strip(first9), valore: first9, letto: digit, resto: optional };
  const numero = first9 + m[1]!;
  return { numero: strip(numero), valore: numero, letto: m[2]!, resto: m[3]! };
}

/**
 * TD1 (part 5): line 1 code(2) state(3) number(9) check optional(15); line 2 birth(6) check, sex,
 * expiry(6) check, nationality(3), optional(11), composite over line 1 from the number to the end,
 * birth+check, expiry+check and line 2's optional data; line 3 the name.
 */
function parseTd1(l1: string, l2: string, l3: string, today: Date): MrzResult {
  const long = longNumber(l1.slice(5, 14), l1[14]!, l1.slice(15, 30));
  const controlli = [
    check('numero_documento', long.valore, long.letto),
    check('data_nascita', l2.slice(0, 6), l2[6]!),
    check('data_scadenza', l2.slice(8, 14), l2[14]!),
    check('composito', l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29), l2[29]!),
  ];
  return result(controlli, {
    formato: 'TD1', codice_documento: strip(l1.slice(0, 2)), stato_emittente: strip(l1.slice(2, 5)), numero_documento: long.numero,
    nazionalita: strip(l2.slice(15, 18)), data_nascita: mrzDate(l2.slice(0, 6), 'nascita', today), sesso: sexOf(l2[7]!),
    data_scadenza: mrzDate(l2.slice(8, 14), 'scadenza', today), ...names(l3),
    dati_facoltativi: [strip(long.resto), strip(l2.slice(18, 29))].filter(Boolean).join(' '),
  });
}

function result(controlli: MrzCheck[], campi: MrzFields): MrzResult {
  return { ok: true, campi, controlli, valido: controlli.every((c) => c.ok) };
}

const LAYOUTS: Record<string, { lines: number; length: number }> = { TD1: { lines: 3, length: 30 }, TD2: { lines: 2, length: 36 }, TD3: { lines: 2, length: 44 } };

/**
 * Reads a zone (TD1, TD2 or TD3 by its shape) and recomputes its check digits. A zone of another
 * shape, or with characters outside the MRZ set (A-Z, 0-9, '<'), is an error in Italian.
 */
export function parseMrz(text: string, today = new Date()): MrzResult {
  const lines = normaliseMrz(text);
  const shape = Object.entries(LAYOUTS).find(([, l]) => l.lines === lines.length && lines.every((x) => x.length === l.length));
  if (!shape) {
    const found = lines.length === 0 ? 'è vuota' : `ha ${lines.length === 1 ? '1 riga' : `${lines.length} righe`} di ${lines.map((l) => l.length).join(', ')} caratteri`;
    return { ok: false, errore: `La zona a lettura ottica deve avere 3 righe di 30 caratteri (carta d'identità), 2 di 36 o 2 di 44 (passaporto): questa ${found}` };
  }
  const bad = lines.join('').match(/[^A-Z0-9<]/);
  if (bad) return { ok: false, errore: `Carattere non ammesso nella zona a lettura ottica: «${bad[0]}» (solo lettere maiuscole, cifre e il riempitivo <)` };
  const [l1, l2, l3] = lines as [string, string, string?];
  if (shape[0] === 'TD1') return parseTd1(l1, l2, l3!, today);
  if (shape[0] === 'TD2') return parseTd2(l1, l2, today);
  return parseTd3(l1, l2, today);
}
