import type { Knex } from 'knex';
import type { CaseStatus } from '../../../workflows/case/case.machine';
import { categoryChart, type ChartData } from '../../kit/charts';
import { STATO_LABELS, STATO_TONES } from './cases.labels';

const STATES = Object.keys(STATO_LABELS) as CaseStatus[];
const SLA_KEYS = ['overdue', 'in_time'] as const;
const SLA_LABELS: Record<(typeof SLA_KEYS)[number], string> = { overdue: 'In ritardo', in_time: 'Nei termini' };
const SLA_TONES: Record<(typeof SLA_KEYS)[number], string> = { overdue: 'red', in_time: 'green' };

/**
 * The cases list's charts, inside the tenant transaction, from one grouped count (state by SLA
 * flag, at most eight rows): cases by state, every state shown, and the cases still open
 * (every state but closed) in time or overdue. The tenant predicate is explicit so the count
 * reads the tenant's index (cases_tenant_stato_created).
 */
export async function caseCharts(trx: Knex.Transaction, codAzienda: string): Promise<{ byState: ChartData; sla: ChartData }> {
  const rows = await trx('cases').where('cod_azienda', codAzienda).groupBy('stato', 'overdue').select('stato', 'overdue')
    .count<{ stato: CaseStatus; overdue: boolean; n: string }[]>({ n: '*' });
  const byState: Record<string, number> = {};
  const sla = { overdue: 0, in_time: 0 };
  for (const r of rows) {
    byState[r.stato] = (byState[r.stato] ?? 0) + Number(r.n);
    if (r.stato !== 'closed') sla[r.overdue ? 'overdue' : 'in_time'] += Number(r.n);
  }
  return {
    byState: categoryChart(byState, STATES, STATO_LABELS, 'Casi', STATO_TONES),
    sla: categoryChart(sla, SLA_KEYS, SLA_LABELS, 'Casi non chiusi', SLA_TONES),
  };
}
