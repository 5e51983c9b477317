import { defineList } from '../../kit/list';
import type { ReportTipo } from '../../../workflows/reporting/reporting.contract';
import type { ReportStatus } from '../../../workflows/reporting/reporting.machine';

/**
 * The regulatory reports list. Each sort and filter has its tenant-first index
 * (migrations/20261216000100_create_reporting.ts); the overdue filter reads a partial index.
 */
export const reportsList = defineList<{ tipo: ReportTipo; stato: ReportStatus; periodo: string; overdue: boolean }>({
  name: 'reporting',
  table: 'reporting_reports',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    periodo: [{ column: 'periodo', type: 'text' }, { column: 'id', type: 'uuid' }],
    due_at: [{ column: 'due_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'sara' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'approved' },
    periodo: { apply: (qb, v) => qb.where('periodo', v), sample: '2026-01' },
    overdue: { apply: (qb, v) => qb.where('overdue', v), sample: true },
  },
  limit: { default: 25, max: 200 },
});
