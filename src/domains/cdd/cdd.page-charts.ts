import type { Knex } from 'knex';
import { CDD_OPEN_STATES, CDD_TASK_STATES, type CddTaskStatus } from '../../../workflows/cdd/cdd-task.machine';
import { CDD_LIVELLI, CDD_MOTIVI } from '../../../workflows/cdd/cdd-task.contract';
import { categoryChart, countByWeek, weeklyChart, type ChartData } from '../../kit/charts';
import { LIVELLO_LABELS, LIVELLO_TONES, MOTIVO_LABELS, STATO_LABELS, STATO_TONES } from './cdd.labels';

const MOTIVO_TONES: Record<string, string> = {
  manuale: 'blue', onboarding: 'cyan', revisione_periodica: 'green', nuovo_match_screening: 'red', cambio_classe_rischio: 'orange', documento_in_scadenza: 'yellow',
};

export interface CddCounts {
  byState: Record<CddTaskStatus, number>;
  byLevel: Record<string, number>;
  /** Open tasks past their due date. */
  overdue: number;
}

/**
 * The tenant's tasks counted three ways, each read from one of the list's indexes alone (the
 * tenant predicate is explicit): by state (cdd_pratiche_stato), by level (cdd_pratiche_livello),
 * and the open ones past their due date (the partial index cdd_pratiche_scadute).
 */
export async function cddCounts(trx: Knex.Transaction, codAzienda: string): Promise<CddCounts> {
  const tasks = () => trx('cdd_pratiche').where('cod_azienda', codAzienda);
  const [states, levels, late] = await Promise.all([
    tasks().groupBy('stato').select('stato').count<{ stato: CddTaskStatus; n: string }[]>({ n: '*' }),
    tasks().groupBy('livello').select('livello').count<{ livello: string; n: string }[]>({ n: '*' }),
    tasks().whereIn('stato', CDD_OPEN_STATES).whereRaw('due_at < now()').count<{ n: string }[]>({ n: '*' }),
  ]);
  const byState = Object.fromEntries(CDD_TASK_STATES.map((s) => [s, 0])) as Record<CddTaskStatus, number>;
  for (const r of states) byState[r.stato] = Number(r.n);
  const byLevel: Record<string, number> = Object.fromEntries(CDD_LIVELLI.map((l) => [l, 0]));
  for (const r of levels) byLevel[r.livello] = Number(r.n);
  return { byState, byLevel, overdue: Number(late[0]?.n ?? 0) };
}

/** Tasks still being worked: the sum of the open states. */
export const openCount = (c: CddCounts) => CDD_OPEN_STATES.reduce((sum, s) => sum + c.byState[s], 0);

/** The list's and the overview's two charts: tasks by state and by level (every state and level shown). */
export function cddCharts(c: CddCounts): { byState: ChartData; byLevel: ChartData } {
  return {
    byState: categoryChart(c.byState, CDD_TASK_STATES, STATO_LABELS, 'Verifiche', STATO_TONES),
    byLevel: categoryChart(c.byLevel, CDD_LIVELLI, LIVELLO_LABELS, 'Verifiche', LIVELLO_TONES),
  };
}

/** Tasks opened in each of the last 12 weeks, by why they were opened. */
export async function cddWeeklyChart(trx: Knex.Transaction, codAzienda: string): Promise<ChartData> {
  const w = await countByWeek(trx, trx('cdd_pratiche').where('cod_azienda', codAzienda), { weeks: 12, by: 'motivo' });
  return weeklyChart(w, CDD_MOTIVI, MOTIVO_LABELS, MOTIVO_TONES);
}
