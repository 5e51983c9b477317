import type { Knex } from 'knex';
import type { OnboardingStatus } from '../../../workflows/onboarding/onboarding.machine';
import { categoryChart, countByWeek, weeklyTotal, type ChartData } from '../../kit/charts';
import { STATO_LABELS, STATO_TONES } from './onboarding-admin.labels';

export const CHART_WEEKS = 12;
const STATES = Object.keys(STATO_LABELS) as OnboardingStatus[];

/**
 * The onboarding list's charts, inside the tenant transaction: cases by state (every state, 0
 * when none) and new cases per week of creation over the last CHART_WEEKS weeks. The explicit
 * tenant predicate lets both read the tenant's indexes (onboarding_cases_tenant_stato_created,
 * onboarding_cases_tenant_created).
 */
export async function onboardingCharts(trx: Knex.Transaction, codAzienda: string): Promise<{ byState: ChartData; perWeek: ChartData }> {
  const cases = () => trx('onboarding_cases').where('cod_azienda', codAzienda);
  const rows = await cases().groupBy('stato').select('stato').count<{ stato: string; n: string }[]>({ n: '*' });
  const weekly = await countByWeek(trx, cases(), { weeks: CHART_WEEKS });
  return {
    byState: categoryChart(Object.fromEntries(rows.map((r) => [r.stato, Number(r.n)])), STATES, STATO_LABELS, 'Pratiche', STATO_TONES),
    perWeek: weeklyTotal(weekly, 'Nuove pratiche', 'blue'),
  };
}
