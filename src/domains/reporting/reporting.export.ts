import type { ReportRecord } from '../../../workflows/reporting/reporting.contract';
import { monthRange } from '../../../workflows/reporting/rules/period';
import { CSV_BOM, csvLine } from '../../lib/csv';
import { REPORT_TIPO_LABELS, SEGNO_LABELS } from './reporting.labels';
import type { LineRow } from './reporting.repo';

/**
 * The report as a table: a comunicazione oggettiva has one line per subject, relationship and
 * direction (the customer's code and external code, the relationship's code and external code,
 * the month, deposits or withdrawals, the total, the number of operations); an S.AR.A. report one
 * per aggregate. A negative report is its header and one line saying so.
 */
export function reportTable(report: ReportRecord, lines: LineRow[]): { header: string[]; rows: (string | number)[][] } {
  if (report.tipo === 'comunicazione_oggettiva') {
    const header = ['Codice cliente', 'Codice esterno cliente', 'Codice rapporto', 'Codice esterno rapporto', 'Mese', 'Tipo operazioni', 'Ruolo', 'Importo totale (EUR)', 'Numero operazioni'];
    const rows = lines.map((l) => [
      l.cod_anagrafe ?? '', l.anagrafe_codice_esterno ?? '', l.cod_rapporto ?? '', l.rapporto_codice_esterno ?? '', report.periodo,
      SEGNO_LABELS[l.segno] ?? l.segno, (l.ruoli ?? []).join(' e '), Number(l.totale_eur), l.numero,
    ]);
    return { header, rows: rows.length ? rows : [['Comunicazione negativa: nessuna operazione da segnalare', '', '', '', report.periodo, '', '', 0, 0]] };
  }
  const header = ['Mese', 'Causale', 'Residenza cliente', 'Settore (ATECO)', 'Segno', 'Importo totale (EUR)', 'Numero operazioni', 'Di cui contanti (EUR)', 'Numero operazioni in contanti'];
  const rows = lines.map((l) => [report.periodo, l.causale ?? '', l.residenza ?? '', l.settore ?? '', SEGNO_LABELS[l.segno] ?? l.segno, Number(l.totale_eur), l.numero, Number(l.contanti_eur), l.numero_contanti]);
  return { header, rows: rows.length ? rows : [[report.periodo, 'Segnalazione negativa: nessuna operazione da segnalare', '', '', '', 0, 0, 0, 0]] };
}

export const reportFileName = (r: ReportRecord, ext: string) => `${r.tipo === 'sara' ? 'sara' : 'comunicazione-oggettiva'}-${r.periodo}-${r.id.slice(0, 8)}.${ext}`;

export function reportCsv(report: ReportRecord, lines: LineRow[]): string {
  const t = reportTable(report, lines);
  return CSV_BOM + csvLine(t.header) + t.rows.map((r) => csvLine(r)).join('');
}

/** The same table as an Excel workbook (exceljs, loaded on first use), with a sheet describing the report. */
export async function reportXlsx(report: ReportRecord, lines: LineRow[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const t = reportTable(report, lines);
  const sheet = book.addWorksheet(report.tipo === 'sara' ? 'Aggregati' : 'Comunicazione');
  sheet.addRow(t.header).font = { bold: true };
  for (const r of t.rows) sheet.addRow(r);
  sheet.columns.forEach((c) => { c.width = 22; });
  const info = book.addWorksheet('Segnalazione');
  info.addRows([
    ['Tipo', REPORT_TIPO_LABELS[report.tipo]], ['Mese di riferimento', report.periodo], ['Negativa', report.negativa ? 'sì' : 'no'],
    ['Righe', report.righe], ['Operazioni', report.operazioni], ['Importo totale (EUR)', Number(report.totale_eur)],
    ['Scadenza', new Date(report.due_at).toISOString().slice(0, 10)], ['Identificativo', report.id],
  ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** goAML's transmission mode of the UAE lookups for cash at the counter. */
const CASH_MODE = 'OCT';
/** goAML arrays the filing area accepts hold at most 500 items (filing.schemas.ts). */
export const MAX_FILING_LINES = 500;

/**
 * The report as the filing area's content (a goAML report tree, src/domains/filing/goaml):
 * each line becomes one transaction dated the month's last day, with the line's total as
 * `amount_local`, its key in `internal_ref_number` and what it aggregates in
 * `transaction_description`; `reason` says which report and month it is. The parties (t_from /
 * t_to) are not mapped: the filing's validation names them as missing, for the preparer to add.
 */
export function filingContent(report: ReportRecord, lines: LineRow[]): Record<string, unknown> {
  const day = `${monthRange(report.periodo).al}T23:59:59`;
  const what = `${REPORT_TIPO_LABELS[report.tipo]} ${report.periodo}`;
  const transaction = lines.map((l) => ({
    transactionnumber: `${report.tipo === 'sara' ? 'SARA' : 'CO'}-${report.periodo}-${l.n}`,
    internal_ref_number: report.tipo === 'sara' ? [l.causale, l.residenza, l.settore].join('/') : `${l.cod_anagrafe}/${l.cod_rapporto}`,
    transaction_description: report.tipo === 'sara'
      ? `${SEGNO_LABELS[l.segno] ?? l.segno}: ${l.numero} operazioni, di cui ${l.numero_contanti} in contanti per ${l.contanti_eur} EUR`
      : `${SEGNO_LABELS[l.segno] ?? l.segno} in contanti di ${l.cod_anagrafe} sul rapporto ${l.cod_rapporto}: ${l.numero} operazioni`,
    date_transaction: day,
    ...(report.tipo === 'comunicazione_oggettiva' ? { transmode_code: CASH_MODE } : {}),
    amount_local: Number(l.totale_eur).toFixed(2),
  }));
  return {
    reason: report.negativa ? `${what}: comunicazione negativa, nessuna operazione da segnalare` : `${what}: ${lines.length} righe, ${report.operazioni} operazioni`,
    ...(transaction.length ? { transaction } : {}),
  };
}
