import type { Knex } from 'knex';
import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../kit/list';
import { reportMachine, type ReportStatus } from '../../../workflows/reporting/reporting.machine';
import type { ReportTipo } from '../../../workflows/reporting/reporting.contract';
import { REPORT_READERS } from './reporting.access';
import { reportsList } from './reporting.list';

type Filters = { stato?: ReportStatus; overdue?: boolean; tipo?: ReportTipo };
const reportsWhere = (trx: Knex.Transaction, tenant: string, filters: Filters) =>
  listBaseQuery(trx, reportsList, tenantScope(tenant), { ...filters, sort: reportsList.defaultSort, limit: 1, offset: 0 } as ListRequest);

const APPROVERS = reportMachine.transitions.find((t) => t.action === 'approve')!.roles;

/**
 * The reports' tiles: the reports whose deadline has passed without a submission (the overdue
 * flag the deadline timer sets, cleared in effect once sent: the tile counts the unsent ones),
 * and, for the officers, the reports a colleague generated that wait for their approval.
 */
export const reportingHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, REPORT_READERS)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    if (APPROVERS.some((r) => (user.roles as readonly string[]).includes(r))) {
      const q = reportsWhere(trx, tenant, { stato: 'generated' }).whereNot('generated_by', user.id);
      tiles.push({
        area: 'reporting', kind: 'four-eyes', label: 'Segnalazioni periodiche da approvare', ...(await tileCount(trx, q)), tone: 'yellow', href: '/reporting?stato=generated',
        hint: 'Comunicazioni oggettive e S.AR.A. generate da un collega: l’approvazione spetta a un responsabile diverso', empty: 'Nessuna segnalazione in attesa della tua approvazione',
      });
    }
    const late = await tileCount(trx, reportsWhere(trx, tenant, { overdue: true }).whereIn('stato', ['generating', 'generated', 'approved']));
    tiles.push({
      area: 'reporting', kind: 'due', label: 'Segnalazioni periodiche scadute', ...late, tone: late.count > 0 ? 'red' : 'green', href: '/reporting?overdue=true',
      hint: 'Comunicazioni oggettive e S.AR.A. non inviate entro il termine', empty: 'Nessuna segnalazione periodica scaduta',
    });
    return tiles;
  });
};
