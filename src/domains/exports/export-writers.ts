import type { Writable } from 'node:stream';
import { CSV_BOM, csvLine } from '../../lib/csv';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Writes a table row by row to a stream; nothing but the current row is kept. */
export interface TableWriter {
  header(titles: readonly string[]): void;
  row(values: readonly unknown[]): void;
  end(): Promise<void>;
}

export function csvWriter(out: Writable): TableWriter {
  return {
    header: (titles) => { out.write(CSV_BOM + csvLine(titles)); },
    row: (values) => { out.write(csvLine(values)); },
    end: () => new Promise((resolve) => { out.end(resolve); }),
  };
}

/**
 * XLSX through exceljs's streaming writer: each row is committed (serialised into the zip) as soon
 * as it is added, and shared strings are off, so memory does not grow with the row count. exceljs
 * is imported on first use (docs/architecture.md, "Memory").
 */
export async function xlsxWriter(out: Writable, sheetName: string): Promise<TableWriter> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName.slice(0, 31));
  return {
    header: (titles) => {
      const r = sheet.addRow([...titles]);
      r.font = { bold: true };
      r.commit();
    },
    row: (values) => {
      const r = sheet.addRow(values.map(xlsxValue));
      values.forEach((v, i) => { if (v instanceof Date) r.getCell(i + 1).numFmt = 'dd/mm/yyyy hh:mm:ss'; });
      r.commit();
    },
    end: async () => {
      sheet.commit();
      await book.commit();
    },
  };
}

/** A cell's value: numbers, booleans and dates as themselves, objects (jsonb) as their JSON. */
function xlsxValue(v: unknown): string | number | boolean | Date | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** Resolves once the stream can take more (or at once): the next page is read only then. */
export function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { out.off('drain', done); out.off('close', done); resolve(); };
    out.on('drain', done);
    out.on('close', done);
  });
}
