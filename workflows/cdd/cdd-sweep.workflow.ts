import { proxyActivities } from '@temporalio/workflow';
import type { createCddSweepActivities } from '../../activities/cdd/cdd-sweep.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import type { CddSweepTenantResult } from './cdd-sweep.contract';

const acts = proxyActivities<ReturnType<typeof createCddSweepActivities>>({ ...BACKGROUND_ACTIVITY, startToCloseTimeout: '10 minutes' });

/**
 * One run of the CDD sweep (Schedule `cdd-sweep`): for each active tenant, the periodic
 * reviews fallen due, the documents about to expire and the new screening matches each open
 * a CDD task (or join the customer's open one), once per event.
 */
export async function cddSweepWorkflow(): Promise<CddSweepTenantResult[]> {
  const results: CddSweepTenantResult[] = [];
  for (const codAzienda of await acts.listCddSweepTenants()) results.push(await acts.sweepCddTenant({ codAzienda }));
  return results;
}
