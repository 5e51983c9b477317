/**
 * ATECO codes (the Italian edition of NACE: ATECO 2007 and ATECO 2025 share the divisions): the
 * economic sector of a customer. A code is a division of two digits, then optionally the group,
 * class, category and subcategory: `NN`, `NN.N`, `NN.NN`, `NN.NN.N`, `NN.NN.NN` (47.11.10). The
 * division must exist, so a typo such as 04 or 34 is refused; finer levels are checked for their
 * shape only (the tables change with each edition).
 */

const FORMAT = /^\d{2}(?:\.\d{1,2}|\.\d{2}\.\d{1,2})?$/;

/** The NACE Rev. 2 / 2.1 divisions (01-99 has gaps: 04, 34, 40, 44, 48, 54, 57, 67, 76, 83, 89). */
const DIVISIONS = new Set([
  '01', '02', '03', '05', '06', '07', '08', '09',
  ...Array.from({ length: 24 }, (_, i) => String(10 + i)),
  '35', '36', '37', '38', '39', '41', '42', '43', '45', '46', '47', '49', '50', '51', '52', '53', '55', '56',
  '58', '59', '60', '61', '62', '63', '64', '65', '66', '68', '69', '70', '71', '72', '73', '74', '75',
  '77', '78', '79', '80', '81', '82', '84', '85', '86', '87', '88', '90', '91', '92', '93', '94', '95', '96', '97', '98', '99',
]);

export const ATECO_FORMAT_MESSAGE = 'Codice ATECO non valido: usa il formato NN, NN.N, NN.NN, NN.NN.N o NN.NN.NN (es. 47.11.10)';
export const ATECO_DIVISION_MESSAGE = 'Codice ATECO non valido: la divisione (le prime due cifre) non esiste';

/** The code as stored (spaces dropped), or the Italian message saying what is wrong. */
export function checkAteco(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const s = raw.replace(/\s+/g, '');
  if (!FORMAT.test(s)) return { ok: false, message: ATECO_FORMAT_MESSAGE };
  if (!DIVISIONS.has(s.slice(0, 2))) return { ok: false, message: ATECO_DIVISION_MESSAGE };
  return { ok: true, value: s };
}

