import { fileURLToPath } from 'node:url';
import type { ActivityDeps } from '../../../activities/deps';
import { createRiskAssessmentActivities } from '../../../activities/risk/risk-assessment.activities';
import { createRiskEventsActivities } from '../../../activities/risk/risk-events.activities';
import { createRiskPortfolioActivities } from '../../../activities/risk/risk-portfolio.activities';
import { defineArea } from '../../kit/area';
import { registerRiskConfigPages, riskConfigNavigation } from './config-pages/config.pages';
import { registerRiskConfigRoutes } from './risk-config.routes';
import { STAFF_READ } from '../../kit/roles';
import { assessmentsList } from './assessment/assessment.list';
import { registerAssessmentRoutes } from './assessment/assessment.routes';
import { riskRunResultsList, riskRunsList } from './runs/runs.list';
import { registerRiskRunPages } from './runs/runs.pages';
import { registerRiskRunRoutes } from './runs/runs.routes';
import { registerRiskAssessmentPage } from './views/views.assessment-page';
import { riskViewsHome } from './views/views.home';
import { riskMatrixCellList } from './views/views.list';
import { registerRiskViewPages } from './views/views.pages';
import { registerRiskViewRoutes } from './views/views.routes';
import { registerSelfAssessmentPages } from './self/self.pages';
import { registerSelfGovernancePages } from './self/self.governance-pages';

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
    // (the fixed /rischio/<page> paths before /rischio/:cod, which passes on what is not an assessment code)
    registerRiskViewRoutes, registerRiskViewPages, registerRiskAssessmentPage,
    // batch: runs API, /rischio/scenari
    registerRiskRunRoutes, registerRiskRunPages,
    // self: autovalutazione, residuo, controlli, raf, kri, decisioni
    registerSelfAssessmentPages, registerSelfGovernancePages,
  ],
  // Each part adds its activities here: (deps) => ({ ...createXActivities(deps), ... }).
  activities: (deps) => ({
    ...noActivities(deps),
    // assess
    ...createRiskAssessmentActivities(deps), ...createRiskEventsActivities(deps),
    // batch
    ...createRiskPortfolioActivities(deps),
  }),
  workflowModules: [
    // assess
    fileURLToPath(new URL('../../../workflows/risk/risk-assessment.workflow.ts', import.meta.url)),
    fileURLToPath(new URL('../../../workflows/risk/risk-events.workflow.ts', import.meta.url)),
    // batch
    fileURLToPath(new URL('../../../workflows/risk/risk-portfolio.workflow.ts', import.meta.url)),
  ],
  lists: [
    // assess
    assessmentsList,
    // batch
    riskRunsList, riskRunResultsList,
  ],
  navigation: [
    // batch
    { section: 'Rischio', label: 'Scenari', href: '/rischio/scenari', roles: STAFF_READ, order: 60 },
  ],
  navigation: [],
  activities: (deps) => ({ ...noActivities(deps) }),
  workflowModules: [],
  lists: [],
  navigation: [
    // config-pages
    ...riskConfigNavigation,
    // views
    riskMatrixCellList,
    // views
    { section: 'Rischio', label: 'Panoramica rischio', href: '/rischio', roles: STAFF_READ, order: 10 },
    { section: 'Rischio', label: 'Matrice', href: '/rischio/matrice', roles: STAFF_READ, order: 20 },
    { section: 'Rischio', label: 'Portafoglio', href: '/rischio/portfolio', roles: STAFF_READ, order: 22 },
    { section: 'Rischio', label: 'Heatmap', href: '/rischio/heatmap', roles: STAFF_READ, order: 24 },
    { section: 'Rischio', label: 'Approvazioni', href: '/rischio/approvazioni', roles: STAFF_READ, order: 26 },
  // views: overrides waiting for the signed-in compliance officer
  home: riskViewsHome,
    // self: 'Autovalutazione' (order 30) stays in PLANNED_AREAS' place; the governance pages follow it.
    { section: 'Rischio', label: 'Autovalutazione', href: '/rischio/autovalutazione', roles: STAFF_READ, order: 30 },
    { section: 'Rischio', label: 'Rischio residuo', href: '/rischio/residuo', roles: STAFF_READ, order: 32 },
    { section: 'Rischio', label: 'Controlli', href: '/rischio/controlli', roles: STAFF_READ, order: 34 },
    { section: 'Rischio', label: 'RAF', href: '/rischio/raf', roles: STAFF_READ, order: 36 },
    { section: 'Rischio', label: 'KRI', href: '/rischio/kri', roles: STAFF_READ, order: 38 },
    { section: 'Rischio', label: 'Decisioni', href: '/rischio/decisioni', roles: STAFF_READ, order: 39 },
  ],
});
