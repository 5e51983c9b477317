import type { Knex } from 'knex';
import { CDD_OPEN_STATES, CDD_TASK_STATES, type CddTaskStatus } from '../../../workflows/cdd/cdd-task.machine';
import { CDD_LIVELLI, CDD_MOTIVI } from '../../../workflows/cdd/cdd-task.contract';
import { categoryChart, countByWeek, weeklyChart, type ChartData } from '../../kit/charts';
import { LIVELLO_LABELS, LIVELLO_TONES, MOTIVO_LABELS, STATO_LABELS, STATO_TONES } from './cdd.labels';

const OPEN = new Set<string>(CDD_OPEN_STATES);
const MOTIVO_TONES: Record<string, string> = {
  manuale: 'blue', onboarding: 'cyan', revisione_periodica: 'green', nuovo_match_screening: 'red', cambio_classe_rischio: 'orange', documento_in_scadenza: 'yellow',
};

export interface CddCounts {
  /** tasks by state and level (every pair present, 0 when none). */
  byStateLevel: Record<CddTaskStatus, Record<string, number>>;
  /** open tasks past their due date. */
  overdue: number;
}

/**
 * One grouped count of the tenant's tasks (state x level x overdue, at most 36 rows), read through
 * the tenant's index on state (the tenant predicate is explicit).
 */
export async function cddCounts(trx: Knex.Transaction, codAzienda: string): Promise<CddCounts> {
  const rows = await trx('cdd_pratiche').where('cod_azienda', codAzienda).groupBy('stato', 'livello', 'late')
    .select('stato', 'livello', trx.raw('due_at < now() as late'))
    .count<{ stato: CddTaskStatus; livello: string; late: boolean; n: string }[]>({ n: '*' });
  const byStateLevel = Object.fromEntries(CDD_TASK_STATES.map((s) => [s, Object.fromEntries(CDD_LIVELLI.map((l) => [l, 0]))])) as CddCounts['byStateLevel'];
  let overdue = 0;
  for (const r of rows) {
    byStateLevel[r.stato][r.livello] = (byStateLevel[r.stato][r.livello] ?? 0) + Number(r.n);
    if (r.late && OPEN.has(r.stato)) overdue += Number(r.n);
  }
  return { byStateLevel, overdue };
}

/** The list's and the overview's two charts: tasks by state (every state), open tasks by level. */
export function cddCharts(c: CddCounts): { byState: ChartData; byLevel: ChartData } {
  const byState: Record<string, number> = {};
  const byLevel: Record<string, number> = {};
  for (const s of CDD_TASK_STATES) {
    for (const l of CDD_LIVELLI) {
      const n = c.byStateLevel[s][l] ?? 0;
      byState[s] = (byState[s] ?? 0) + n;
      if (OPEN.has(s)) byLevel[l] = (byLevel[l] ?? 0) + n;
    }
  }
  return {
    byState: categoryChart(byState, CDD_TASK_STATES, STATO_LABELS, 'Verifiche', STATO_TONES),
    byLevel: categoryChart(byLevel, CDD_LIVELLI, LIVELLO_LABELS, 'Verifiche in corso', LIVELLO_TONES),
  };
}

/** Tasks opened in each of the last 12 weeks, by why they were opened. */
export async function cddWeeklyChart(trx: Knex.Transaction, codAzienda: string): Promise<ChartData> {
  const w = await countByWeek(trx, trx('cdd_pratiche').where('cod_azienda', codAzienda), { weeks: 12, by: 'motivo' });
  return weeklyChart(w, CDD_MOTIVI, MOTIVO_LABELS, MOTIVO_TONES);
}
