import { defineList } from '../../kit/list';
import type { CASE_PRIORITA } from '../../../workflows/case/case.contract';
import type { CaseStatus } from '../../../workflows/case/case.machine';

/**
 * The cases list. Priority sorts by priorita_rank, a stored generated column (critica 4 ... bassa 1),
 * so the order has an index like every other sort.
 */
export const casesList = defineList<{ stato: CaseStatus; priorita: (typeof CASE_PRIORITA)[number]; overdue: boolean; assegnatario: string; aperti: boolean }>({
  name: 'cases',
  table: 'cases',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    sla_due_at: [{ column: 'sla_due_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    priorita: [{ column: 'priorita_rank', type: 'integer' }, { column: 'id', type: 'uuid' }],
    titolo: [{ column: 'titolo', type: 'text' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'open' },
    priorita: { apply: (qb, v) => qb.where('priorita', v), sample: 'alta' },
    overdue: { apply: (qb, v) => qb.where('overdue', v), sample: true },
    // A user id: the pages and the API turn `me` into the caller's before the list is read.
    assegnatario: { apply: (qb, v) => qb.where('assegnatario', v), sample: '00000000-0000-4000-8000-000000000001' },
    // Still being worked: what the home counts as waiting (a closed case keeps its overdue flag).
    aperti: { apply: (qb, v) => (v ? qb.whereNot('stato', 'closed') : qb.where('stato', 'closed')), sample: true },
  },
  search: {
    apply: (qb, like) => qb.where((w) => w.whereILike('titolo', like).orWhereILike('descrizione', like).orWhereILike('cod_anagrafe', like)),
    sample: 'riciclaggio',
  },
  limit: { default: 25, max: 200 },
});
