import { fileURLToPath } from 'node:url';
import type { AreaDefinition } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { createMonitoringReleaseActivities } from '../../../../activities/monitoring-release/monitoring-release.activities';
import { createMonitoringRunsActivities } from '../../../../activities/monitoring-runs/monitoring-runs.activities';
import { registerKytPages } from '../kyt/kyt.pages';
import { registerKytRoutes } from '../kyt/kyt.routes';
import { kytEventsList } from '../kyt/kyt.list';
import { registerListPages } from '../lists/lists.pages';
import { registerListRoutes } from '../lists/lists.routes';
import { registerReleasePages } from '../release/release.pages';
import { registerReleaseRoutes } from '../release/release.routes';
import { monitoringRunsList } from '../runs/runs.list';
import { registerRunPages } from '../runs/runs.pages';
import { registerRunRoutes } from '../runs/runs.routes';
import { movementEvaluator } from './movement-evaluator';

const workflow = (path: string) => fileURLToPath(new URL(`../../../../workflows/${path}`, import.meta.url));

/**
 * The monitoring area's evaluation paths (docs/monitoring.md, "Evaluation paths"), added to its
 * definition in one place so the area's own file changes by one call: real time (the movements'
 * evaluator, KYT), the daily batch, replays, backtests and the release of drafts, the named lists,
 * their routes, pages, lists, activities and workflows.
 */
export function withEvaluation(area: AreaDefinition): AreaDefinition {
  return {
    ...area,
    routes: [
      ...(area.routes ?? []), registerKytRoutes, registerListRoutes, registerRunRoutes, registerReleaseRoutes,
      registerKytPages, registerListPages, registerRunPages, registerReleasePages,
    ],
    lists: [...(area.lists ?? []), kytEventsList, monitoringRunsList],
    activities: (deps) => ({ ...area.activities?.(deps), ...createMonitoringRunsActivities(deps), ...createMonitoringReleaseActivities(deps) }),
    workflowModules: [
      ...(area.workflowModules ?? []),
      workflow('monitoring-runs/monitoring-runs.workflow.ts'),
      workflow('monitoring-release/monitoring-release.workflow.ts'),
    ],
    navigation: [
      ...(area.navigation ?? []),
      { section: 'Monitoraggio', label: 'Elaborazioni', href: '/monitoraggio/esecuzioni', roles: STAFF_READ, order: 40 },
      { section: 'Monitoraggio', label: 'Liste di riferimento', href: '/monitoraggio/liste', roles: STAFF_READ, order: 45 },
    ],
    evaluators: { ...area.evaluators, movements: movementEvaluator },
  };
}
