import { fileURLToPath } from 'node:url';
import type { AreaDefinition } from '../../../kit/area';
import { createEngineSyncActivities } from '../../../../activities/engine-sync/engine-sync.activities';
import { registerEngineRoutes } from './sync.routes';

const workflow = (path: string) => fileURLToPath(new URL(`../../../../workflows/${path}`, import.meta.url));

/**
 * The decision engine's component (docs/monitoring.md, "The engine process and its sync") added
 * to the monitoring area in one place: the sync of its copy, its routes, activities and workflows.
 */
export function withEngine(area: AreaDefinition): AreaDefinition {
  return {
    ...area,
    routes: [...(area.routes ?? []), registerEngineRoutes],
    activities: (deps) => ({ ...area.activities?.(deps), ...createEngineSyncActivities(deps) }),
    workflowModules: [...(area.workflowModules ?? []), workflow('engine-sync/engine-sync.workflow.ts')],
  };
}
