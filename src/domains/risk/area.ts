import type { ActivityDeps } from '../../../activities/deps';
import { fileURLToPath } from 'node:url';
import { createRiskAssessmentActivities } from '../../../activities/risk/risk-assessment.activities';
import { createRiskEventsActivities } from '../../../activities/risk/risk-events.activities';
import { defineArea } from '../../kit/area';
import { registerRiskConfigPages, riskConfigNavigation } from './config-pages/config.pages';
import { registerRiskConfigRoutes } from './risk-config.routes';
import { assessmentsList } from './assessment/assessment.list';
import { registerAssessmentRoutes } from './assessment/assessment.routes';

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
    registerAssessmentRoutes,
    // views: /rischio, /rischio/:cod, approvazioni, portfolio/heatmap/matrix API and pages
    // batch: runs API, /rischio/scenari
    // self: autovalutazione, residuo, controlli, raf, kri, decisioni
  ],
  // Each part adds its activities here: (deps) => ({ ...createXActivities(deps), ... }).
  activities: (deps) => ({
    ...noActivities(deps),
    // assess
    ...createRiskAssessmentActivities(deps), ...createRiskEventsActivities(deps),
  }),
  workflowModules: [
    // assess
    fileURLToPath(new URL('../../../workflows/risk/risk-assessment.workflow.ts', import.meta.url)),
    fileURLToPath(new URL('../../../workflows/risk/risk-events.workflow.ts', import.meta.url)),
  ],
  lists: [
    // assess
    assessmentsList,
  ],
  navigation: [],
  activities: (deps) => ({ ...noActivities(deps) }),
  workflowModules: [],
  lists: [],
  navigation: [
    // config-pages
    ...riskConfigNavigation,
});
