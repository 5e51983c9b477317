import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

/** One data row of an import file: its 1-based row number in the file (the header is row 1) and its cells by column name. */
export interface SourceRow { riga: number; values: Record<string, string> }

/** Header names compared loosely: "Data operazione", "data_operazione" and "DATA_OPERAZIONE" are one column. */
export const normaliseHeader = (h: string) => h.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/**
 * The data rows of a CSV file from row `from` on, streamed (the file is never in memory). The
 * separator is the header's: ';' (what Italian Excel writes) or ','. A BOM is dropped.
 */
export async function* csvRows(path: string, from: number, onHeader: (h: string[]) => void): AsyncGenerator<SourceRow> {
  const delimiter = await sniffDelimiter(path);
  const parser = createReadStream(path).pipe(parse({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, trim: true }));
  let header: string[] | undefined;
  let riga = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    riga += 1;
    if (!header) { header = record.map(normaliseHeader); onHeader(header); continue; }
    if (riga < from) continue;
    yield { riga, values: Object.fromEntries(header.map((h, i) => [h, record[i] ?? ''])) };
  }
}

async function sniffDelimiter(path: string): Promise<string> {
  const stream = createReadStream(path, { start: 0, end: 4095 });
  let head = '';
  for await (const chunk of stream) head += (chunk as Buffer).toString('utf8');
  const first = head.split(/\r?\n/)[0] ?? '';
  return (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
}

/** The first worksheet of an XLSX file from row `from` on, through exceljs's streaming reader. */
export async function* xlsxRows(path: string, from: number, onHeader: (h: string[]) => void): AsyncGenerator<SourceRow> {
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'emit' });
  for await (const sheet of reader) {
    let header: string[] | undefined;
    for await (const row of sheet as AsyncIterable<import('exceljs').Row>) {
      const cells = (row.values as unknown[]).slice(1).map(cellText);
      if (!header) { header = cells.map(normaliseHeader); onHeader(header); continue; }
      if (row.number < from || cells.every((c) => c === '')) continue;
      yield { riga: row.number, values: Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])) };
    }
    return; // the first sheet only
  }
}

/** Excel's day zero (1899-12-30): a cell holding a time of day alone is a date on it. */
const EXCEL_DAY_ZERO = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/**
 * A cell as the text a CSV would hold: dates as YYYY-MM-DD, times of day alone as HH:MM:SS (to the
 * nearest second: Excel keeps them as fractions of a day), numbers in full, formulas by their result.
 */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    const ms = v.getTime() - EXCEL_DAY_ZERO;
    if (ms < 0 || ms >= DAY_MS) return v.toISOString().slice(0, 10);
    const seconds = Math.round(ms / 1000) % 86_400;
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(Math.floor(seconds / 3600))}:${p(Math.floor(seconds / 60) % 60)}:${p(seconds % 60)}`;
  }
  if (typeof v === 'object') {
    const o = v as { result?: unknown; text?: unknown; richText?: { text: string }[] };
    if (o.result !== undefined) return cellText(o.result);
    if (o.richText) return o.richText.map((t) => t.text).join('').trim();
    if (typeof o.text === 'string') return o.text.trim();
    return '';
  }
  return String(v).trim();
}

export const rowsOf = (formato: 'csv' | 'xlsx', path: string, from: number, onHeader: (h: string[]) => void) =>
  (formato === 'csv' ? csvRows(path, from, onHeader) : xlsxRows(path, from, onHeader));
