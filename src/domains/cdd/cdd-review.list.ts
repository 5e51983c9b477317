import { defineList } from '../../kit/list';

/**
 * The periodic reviews (GET /api/cdd/schedules, /cdd/refresh-queue): what is due and overdue.
 * Indexes: cdd_reviews_due, cdd_reviews_cliente (migration 20261204010000) and
 * cdd_reviews_tenant_stato_due (home indexes).
 */
export const cddReviewsList = defineList<{ stato: string; cod_anagrafe: string; scadute: boolean; entro_giorni: number }>({
  name: 'cdd_reviews',
  table: 'cdd_reviews',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['id', 'cod_anagrafe', 'motivo', 'classe_rischio', 'due_at', 'stato', 'workflow_id', 'created_at', 'updated_at'],
  sorts: {
    due_at: [{ column: 'due_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: 'due_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'programmata' },
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    // Overdue: fallen due (the timer marked it) or past its date.
    scadute: {
      apply: (qb, v) => (v
        ? qb.where((w) => w.where('stato', 'scaduta').orWhere((o) => o.where('stato', 'programmata').whereRaw('due_at < now()')))
        : qb.where('stato', 'programmata').whereRaw('due_at >= now()')),
      sample: true,
    },
    // Scheduled and falling due within this many days (overdue included).
    entro_giorni: { apply: (qb, v) => qb.whereIn('stato', ['programmata', 'scaduta']).whereRaw("due_at <= now() + make_interval(days => ?)", [v]), sample: 30 },
  },
  limit: { default: 25, max: 200 },
});
