import type { Knex } from 'knex';
import type { ReportRecord } from '../../../workflows/reporting/reporting.contract';
import { isUuid } from '../../kit/ids';
import { runList, tenantScope } from '../../kit/list';
import { reportsList } from './reporting.list';
import type { ListReportsQuery } from './reporting.schemas';

export interface SubmissionRow {
  id: string; n: number; riferimento: string | null; inviata_da: string; inviata_at: string | Date;
  esito: 'in_attesa' | 'accettata' | 'scartata'; protocollo: string | null; note: string | null; esito_da: string | null; esito_at: string | Date | null;
}

export interface LineRow {
  id: string; n: number; cod_anagrafe: string | null; anagrafe_codice_esterno: string | null; cod_rapporto: string | null; rapporto_codice_esterno: string | null;
  ruoli: string[] | null; causale: string | null; residenza: string | null; settore: string | null; segno: string;
  totale_eur: number; numero: number; contanti_eur: number; numero_contanti: number;
}

export interface LineOperation {
  line_id: string; id: string; data_operazione: string; cod_rapporto: string; cod_anagrafe: string; cod_anagrafe_esecutore: string | null;
  segno: string; importo_eur: number; valuta: string; importo: number; contanti: boolean; causale: string | null; ruolo: string | null;
}

/** Reads run inside a tenant transaction: row-level security hides other tenants' reports (so: undefined, a 404). */
export async function getReport(trx: Knex.Transaction, id: string): Promise<ReportRecord | undefined> {
  if (!isUuid(id)) return undefined;
  return trx('reporting_reports').where({ id }).first() as Promise<ReportRecord | undefined>;
}

export const listReports = (trx: Knex.Transaction, codAzienda: string, q: ListReportsQuery) => runList<ReportRecord>(trx, reportsList, tenantScope(codAzienda), q);

export const reportSubmissions = (trx: Knex.Transaction, id: string): Promise<SubmissionRow[]> =>
  trx('reporting_submissions').where({ report_id: id }).orderBy('n')
    .select('id', 'n', 'riferimento', 'inviata_da', 'inviata_at', 'esito', 'protocollo', 'note', 'esito_da', 'esito_at');

/** The reports of these months that are not failed: a month has one live report per type. */
export const liveReports = (trx: Knex.Transaction, tipo: string, months: string[]): Promise<{ id: string; periodo: string }[]> =>
  trx('reporting_reports').where({ tipo }).whereIn('periodo', months).whereNot('stato', 'failed').select('id', 'periodo');

/** A page of a report's lines, in order. */
export const reportLines = (trx: Knex.Transaction, id: string, limit = 10_000, offset = 0): Promise<LineRow[]> =>
  trx('reporting_lines').where({ report_id: id }).orderBy('n').limit(limit).offset(offset)
    .select('id', 'n', 'cod_anagrafe', 'anagrafe_codice_esterno', 'cod_rapporto', 'rapporto_codice_esterno', 'ruoli', 'causale', 'residenza', 'settore',
      'segno', 'totale_eur', 'numero', 'contanti_eur', 'numero_contanti');

/**
 * The operations behind these lines, each read back from movimenti by its key and date (the date
 * prunes to the month's partition, the primary key finds the row).
 */
export async function lineOperations(trx: Knex.Transaction, reportId: string, lineIds: string[], perLine = 200): Promise<LineOperation[]> {
  if (!lineIds.length) return [];
  const rows = await trx.raw(`
    select o.line_id, m.id, m.data_operazione::text as data_operazione, m.cod_rapporto, m.cod_anagrafe, m.cod_anagrafe_esecutore, m.segno,
      m.importo_eur, m.importo, m.valuta::text as valuta, m.contanti, m.causale, o.ruolo
    from (select o.*, row_number() over (partition by o.line_id order by o.data_operazione, o.movimento_id) as k
          from reporting_line_operations o where o.report_id = ? and o.line_id = any(?::uuid[])) o
    join movimenti m on m.cod_azienda = o.cod_azienda and m.id = o.movimento_id and m.data_operazione = o.data_operazione
    where o.k <= ?
    order by o.line_id, m.data_operazione, m.id`, [reportId, lineIds, perLine]);
  return rows.rows as LineOperation[];
}
