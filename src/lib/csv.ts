/**
 * CSV as RFC 4180 writes it (no csv-stringify in the dependencies: this is all it takes). Fields
 * with a comma, a quote, a line break or leading/trailing spaces are quoted, quotes doubled; lines
 * end with CRLF. A field starting with = + - @ (or a tab/CR) gets a leading apostrophe, so a
 * spreadsheet opening the file never runs it as a formula (CSV injection); numbers stay numbers.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s: string;
  if (value instanceof Date) s = value.toISOString();
  else if (typeof value === 'object') s = JSON.stringify(value);
  else s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (values: readonly unknown[]): string => `${values.map(csvField).join(',')}\r\n`;

/** The byte-order mark that makes Excel read a CSV as UTF-8 (accents in names) instead of the system code page. */
export const CSV_BOM = '\uFEFF';
