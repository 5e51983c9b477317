import type { Knex } from 'knex';
import type { FilingRecord } from '../../../workflows/filing/filing.contract';
import { isUuid } from '../../kit/ids';
import type { ListFilingsQuery } from './filing.schemas';
import { runList, tenantScope } from '../../kit/list';
import { filingsList } from './filing.list';

export type FilingRow = FilingRecord & { package_xml?: string | null };

const LIST_COLUMNS = [
  'id', 'cod_azienda', 'titolo', 'tipo', 'periodo_riferimento', 'jurisdiction', 'report_code', 'stato', 'package_sha256',
  'submission_ref', 'fiu_ref_number', 'reject_reason', 'created_by', 'prepared_by', 'approved_by', 'ceremony_id', 'signed_at',
  'parent_id', 'follow_up_id', 'due_at', 'overdue', 'workflow_id', 'created_at', 'updated_at',
];

/** Reads run inside a tenant transaction: row-level security hides other tenants' filings. */
export async function getFiling(trx: Knex.Transaction, id: string): Promise<FilingRow | undefined> {
  if (!isUuid(id)) return undefined;
  return trx('filings').where({ id }).first() as Promise<FilingRow | undefined>;
}

export async function filingEvents(trx: Knex.Transaction, id: string) {
  return trx('filing_events').where({ filing_id: id }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('id', 'tipo', 'testo', 'actor', 'created_at');
}

/** One page of the filings list (the list kit); run under the caller's principal (reserved filings). */
export async function listFilings(trx: Knex.Transaction, codAzienda: string, q: ListFilingsQuery) {
  return runList<FilingRow & { errori: number }>(trx, filingsList, tenantScope(codAzienda), q);
}

/**
 * The SOS a filing was made from (docs/sos.md, "From an SOS to a goAML filing"), or null. The link is
 * the SOS area's table, read here by name (not through the area, which imports this one) under the
 * caller's principal: its `sos_confidential` policy answers only to who may see the report, so for
 * every other role the filing has no SOS, by the database's decision.
 */
export async function linkedSos(trx: Knex.Transaction, filingId: string): Promise<{ id: string; cod_segnalazione: string } | null> {
  const row = await trx('sos_filings as l').join('sos_reports as r', 'r.id', 'l.sos_id').where('l.filing_id', filingId).first('r.id', 'r.cod_segnalazione');
  return (row as { id: string; cod_segnalazione: string } | undefined) ?? null;
}

/** What is due and what waits for whom (the workbench): open filings by due date, and those waiting on someone. */
export async function workbench(trx: Knex.Transaction) {
  const open = await trx('filings').whereNotIn('stato', ['submitted', 'acknowledged', 'returned', 'archived'])
    .orderByRaw('due_at asc nulls last, created_at').limit(200).select(LIST_COLUMNS);
  const returned = await trx('filings').where('stato', 'returned').whereNull('follow_up_id').orderBy('updated_at', 'desc').limit(100).select(LIST_COLUMNS);
  return { open: open as FilingRow[], returned: returned as FilingRow[] };
}
