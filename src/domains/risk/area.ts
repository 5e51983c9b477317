import type { ActivityDeps } from '../../../activities/deps';
import { defineArea } from '../../kit/area';
import { registerRiskConfigPages, riskConfigNavigation } from './config-pages/config.pages';
import { registerRiskConfigRoutes } from './risk-config.routes';

const noActivities = (_deps: ActivityDeps) => ({});

/**
 * Customer risk (issue 12): the one scoring engine (versioned rule sets over the shared
 * condition language), assessments as durable processes, portfolio runs and dry runs, the
 * portfolio views and the yearly self-assessment.
 */
export const riskArea = defineArea({
  name: 'risk',
  label: 'Rischio',
  routes: [
    // engine: rules, factors, rule sets, policy (API)
    registerRiskConfigRoutes,
    // config-pages: /rischio/configurazione, /rischio/fattori, /rischio/policy
    registerRiskConfigPages,
    // assess: assessments API, calculate, history, explainability, open-from-assessment
    // views: /rischio, /rischio/:cod, approvazioni, portfolio/heatmap/matrix API and pages
    // batch: runs API, /rischio/scenari
    // self: autovalutazione, residuo, controlli, raf, kri, decisioni
  ],
  // Each part adds its activities here: (deps) => ({ ...createXActivities(deps), ... }).
  activities: (deps) => ({ ...noActivities(deps) }),
  workflowModules: [],
  lists: [],
  navigation: [
    // config-pages
    ...riskConfigNavigation,
  ],
});
