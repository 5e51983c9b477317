import type { Writable } from 'node:stream';
import { CSV_BOM, csvLine } from '../../lib/csv';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Writes a table page by page to a stream. `page` resolves once the stream (and, for XLSX, the zip
 * behind it) has taken the page in: the exporter reads the next page only then, so what waits in
 * memory is about one page, whatever the row count and however slow the client.
 */
export interface TableWriter {
  header(titles: readonly string[]): void;
  page(rows: readonly (readonly unknown[])[]): Promise<void>;
  end(): Promise<void>;
}

export function csvWriter(out: Writable): TableWriter {
  return {
    header: (titles) => { out.write(CSV_BOM + csvLine(titles)); },
    page: (rows) => {
      // One write per page: one chunk for the socket instead of two thousand small ones.
      let text = '';
      for (const r of rows) text += csvLine(r);
      out.write(text);
      return drained(out);
    },
    end: () => new Promise((resolve) => { out.end(resolve); }),
  };
}

/**
 * XLSX through exceljs's streaming writer: each row is committed (serialised) as soon as it is
 * added, shared strings are off, styles only for the header and dates. exceljs writes the sheet's
 * XML into the zip's entry stream without waiting for it (it ignores write()'s answer), so
 * without a wait the XML piles up ahead of the compression: `page` waits for that entry stream to
 * drain as well as for the output. exceljs is imported on first use (docs/architecture.md, "Memory").
 */
export async function xlsxWriter(out: Writable, sheetName: string): Promise<TableWriter> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName.slice(0, 31));
  // The zip's entry stream the sheet's XML is piped into (exceljs 4.4's WorksheetWriter.stream, a StreamBuf).
  const entry = () => (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];
  return {
    header: (titles) => {
      const r = sheet.addRow([...titles]);
      r.font = { bold: true };
      r.commit();
    },
    page: async (rows) => {
      for (const values of rows) {
        const r = sheet.addRow(values.map(xlsxValue));
        values.forEach((v, i) => { if (v instanceof Date) r.getCell(i + 1).numFmt = 'dd/mm/yyyy hh:mm:ss'; });
        r.commit();
      }
      await drained(entry());
      await drained(out);
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

/**
 * Resolves once the stream can take more (or at once). Also for the streams of archiver's own
 * readable-stream copy, which lack `writableNeedDrain` but keep the flag in their state.
 */
export function drained(out: Writable | undefined): Promise<void> {
  const needDrain = out && (out.writableNeedDrain ?? (out as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain);
  if (!out || !needDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { out.off('drain', done); out.off('close', done); out.off('error', done); resolve(); };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
}
