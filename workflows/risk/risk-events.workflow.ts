import { proxyActivities } from '@temporalio/workflow';
import type { createRiskEventsActivities } from '../../activities/risk/risk-events.activities';
import { BACKGROUND_ACTIVITY } from '../lib/activity-options';
import type { RiskEventsTenantResult } from './risk-events.contract';

const acts = proxyActivities<ReturnType<typeof createRiskEventsActivities>>({ ...BACKGROUND_ACTIVITY, startToCloseTimeout: '10 minutes', heartbeatTimeout: '2 minutes' });

/**
 * One run of the risk events sweep (Schedule `risk-events`): for each active tenant, the events
 * since the last runs that call for a new assessment each start one, once per event.
 */
export async function riskEventsSweepWorkflow(): Promise<RiskEventsTenantResult[]> {
  const results: RiskEventsTenantResult[] = [];
  for (const codAzienda of await acts.listRiskEventTenants()) results.push(await acts.sweepRiskEvents({ codAzienda }));
  return results;
}
