import { fileURLToPath } from 'node:url';
import type { AreaDefinition } from '../../../kit/area';
import { createMonitoringSeedActivities } from '../../../../activities/monitoring-seed/monitoring-seed.activities';
import { registerSeedRoutes } from './seed.routes';

/** The demo year's seed (POST /api/engine/seed), added to the monitoring area's definition in one call: its routes, activities and workflow. */
export function withSeed(area: AreaDefinition): AreaDefinition {
  return {
    ...area,
    routes: [...(area.routes ?? []), registerSeedRoutes],
    activities: (deps) => ({ ...area.activities?.(deps), ...createMonitoringSeedActivities(deps) }),
    workflowModules: [...(area.workflowModules ?? []), fileURLToPath(new URL('../../../../workflows/monitoring-seed/monitoring-seed.workflow.ts', import.meta.url))],
  };
}
