import { defineList } from '../../kit/list';
import type { FilingTipo } from '../../../workflows/filing/filing.deadlines';
import type { FilingStatus } from '../../../workflows/filing/filing.machine';

/** A day (YYYY-MM-DD) at midnight in Rome: a constant the index range reads. */
const romeDay = (offset: 0 | 1) => `((?::date + ${offset})::timestamp at time zone 'Europe/Rome')`;

/**
 * The filings list (/filing, GET /api/filing, the export). A filing made from an SOS is reserved:
 * the restrictive policy `filings_riservate` hides it from every principal without `sos` or `co`,
 * so the list is read under the caller's principal.
 */
export const filingsList = defineList<{ stato: FilingStatus; tipo: FilingTipo; cod_anagrafe: string; dal: string; al: string }>({
  name: 'filings',
  table: 'filings',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: (db) => [
    'id', 'cod_azienda', 'titolo', 'tipo', 'periodo_riferimento', 'jurisdiction', 'report_code', 'stato', 'package_sha256',
    'submission_ref', 'fiu_ref_number', 'reject_reason', 'created_by', 'prepared_by', 'approved_by', 'ceremony_id', 'signed_at',
    'parent_id', 'follow_up_id', 'due_at', 'overdue', 'workflow_id', 'created_at', 'updated_at', 'cod_anagrafe', 'riservata',
    db.raw('(jsonb_array_length(findings) + jsonb_array_length(return_errors))::int as errori'),
  ],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    due_at: [{ column: 'due_at', type: 'timestamp', nullable: true }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'draft' },
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'str' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'FILANA-00007' },
    dal: { apply: (qb, v) => qb.whereRaw(`created_at >= ${romeDay(0)}`, [v]), sample: '2026-06-01' },
    al: { apply: (qb, v) => qb.whereRaw(`created_at < ${romeDay(1)}`, [v]), sample: '2025-01-31' },
  },
  search: { apply: (qb, like) => qb.whereILike('titolo', like), sample: 'Segnalazione' },
  limit: { default: 25, max: 200 },
});
