import type { Knex } from 'knex';
import type { MatchStatus } from '../../../workflows/screening/screening.machine';
import { countByWeek, weeklyChart, type ChartData } from '../../kit/charts';
import { MATCH_STATO_LABELS, MATCH_STATO_TONES } from './screening.labels';
import { listaLabel } from './screening.labels';

export const CHART_WEEKS = 12;
const STATES = Object.keys(MATCH_STATO_LABELS) as MatchStatus[];

/**
 * The screening dashboard's charts, inside the tenant transaction: matches per week of creation
 * (the last CHART_WEEKS weeks, stacked by their state now) and matches per list, every imported
 * list shown even with none. The tenant predicate is explicit so the counts read the tenant's
 * indexes (screening_matches_tenant_created, screening_matches_tenant_list_created).
 */
export async function screeningCharts(trx: Knex.Transaction, codAzienda: string): Promise<{ overTime: ChartData; byList: ChartData }> {
  const matches = () => trx('screening_matches').where('cod_azienda', codAzienda).whereNull('deleted_at');
  const weekly = await countByWeek(trx, matches(), { weeks: CHART_WEEKS, by: 'stato' });
  const counted = await matches().groupBy('list_name').select('list_name').count<{ list_name: string; n: string }[]>({ n: '*' });
  const imported = (await trx.raw('select distinct list_name from screening_list_versions')).rows as { list_name: string }[];
  const perList = new Map<string, number>(imported.map((l) => [l.list_name, 0]));
  for (const r of counted) perList.set(r.list_name, Number(r.n));
  const lists = [...perList].map(([id, n]) => ({ name: listaLabel(id), n }))
    .sort((a, b) => b.n - a.n || a.name.localeCompare(b.name, 'it'));
  return {
    overTime: weeklyChart(weekly, STATES, MATCH_STATO_LABELS, MATCH_STATO_TONES),
    byList: { categories: lists.map((l) => l.name), series: [{ name: 'Corrispondenze', tone: 'blue', data: lists.map((l) => l.n) }] },
  };
}
