import type { Knex } from 'knex';
import type { FilingRecord } from '../../../workflows/filing/filing.contract';
import { isUuid } from '../../kit/ids';
import type { ListFilingsQuery } from './filing.schemas';

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

export async function listFilings(trx: Knex.Transaction, q: ListFilingsQuery) {
  const base = trx('filings').modify((b) => {
    if (q.stato) b.where('stato', q.stato);
    if (q.tipo) b.where('tipo', q.tipo);
    if (q.q) b.whereILike('titolo', `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  });
  const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
  const rows = await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(q.limit).offset(q.offset)
    .select([...LIST_COLUMNS, trx.raw('jsonb_array_length(findings) + jsonb_array_length(return_errors) as errori')]);
  return { items: rows.map((r: Record<string, unknown>) => ({ ...r, errori: Number(r.errori) })), total: Number(count) };
}

/** What is due and what waits for whom (the workbench): open filings by due date, and those waiting on someone. */
export async function workbench(trx: Knex.Transaction) {
  const open = await trx('filings').whereNotIn('stato', ['submitted', 'acknowledged', 'returned', 'archived'])
    .orderByRaw('due_at asc nulls last, created_at').limit(200).select(LIST_COLUMNS);
  const returned = await trx('filings').where('stato', 'returned').whereNull('follow_up_id').orderBy('updated_at', 'desc').limit(100).select(LIST_COLUMNS);
  return { open: open as FilingRow[], returned: returned as FilingRow[] };
}
