import { fileURLToPath } from 'node:url';
import { createRiskAssessmentActivities } from '../../../activities/risk/risk-assessment.activities';
import { createRiskEventsActivities } from '../../../activities/risk/risk-events.activities';
import { createRiskPortfolioActivities } from '../../../activities/risk/risk-portfolio.activities';
import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { assessmentsList } from './assessment/assessment.list';
import { registerAssessmentRoutes } from './assessment/assessment.routes';
import { registerRiskConfigPages, riskConfigNavigation } from './config-pages/config.pages';
import { registerRiskConfigRoutes } from './risk-config.routes';
import { riskRunResultsList, riskRunsList } from './runs/runs.list';
import { registerRiskRunPages } from './runs/runs.pages';
import { registerRiskRunRoutes } from './runs/runs.routes';
import { registerSelfGovernancePages } from './self/self.governance-pages';
import { registerSelfAssessmentPages } from './self/self.pages';
import { registerRiskAssessmentPage } from './views/views.assessment-page';
import { riskViewsHome } from './views/views.home';
import { riskMatrixCellList } from './views/views.list';
import { registerRiskViewPages } from './views/views.pages';
import { registerRiskViewRoutes } from './views/views.routes';

/**
 * Customer risk (issue 12): the one scoring engine (versioned rule sets over the shared
 * condition language), assessments as durable processes, portfolio runs and dry runs, the
 * portfolio views and the yearly self-assessment. docs/risk.md is the overview.
 */
export const riskArea = defineArea({
  name: 'risk',
  label: 'Rischio',
  routes: [
    // The model: rules, factors, rule sets, policy (API) and their configuration pages.
    registerRiskConfigRoutes, registerRiskConfigPages,
    // Assessments: API, calculate, history, explainability, open-from-assessment.
    registerAssessmentRoutes,
    // Portfolio views and the assessment pages (/rischio/:cod passes on what is not a VAL- code).
    registerRiskViewRoutes, registerRiskViewPages, registerRiskAssessmentPage,
    // Portfolio runs and dry runs: API and /rischio/scenari.
    registerRiskRunRoutes, registerRiskRunPages,
    // The yearly self-assessment, controls, RAF, KRI, decisions.
    registerSelfAssessmentPages, registerSelfGovernancePages,
  ],
  activities: (deps) => ({
    ...createRiskAssessmentActivities(deps), ...createRiskEventsActivities(deps), ...createRiskPortfolioActivities(deps),
  }),
  workflowModules: [
    fileURLToPath(new URL('../../../workflows/risk/risk-assessment.workflow.ts', import.meta.url)),
    fileURLToPath(new URL('../../../workflows/risk/risk-events.workflow.ts', import.meta.url)),
    fileURLToPath(new URL('../../../workflows/risk/risk-portfolio.workflow.ts', import.meta.url)),
  ],
  lists: [assessmentsList, riskRunsList, riskRunResultsList, riskMatrixCellList],
  navigation: [
    { section: 'Rischio', label: 'Panoramica rischio', href: '/rischio', roles: STAFF_READ, order: 10 },
    { section: 'Rischio', label: 'Matrice', href: '/rischio/matrice', roles: STAFF_READ, order: 20 },
    { section: 'Rischio', label: 'Portafoglio', href: '/rischio/portfolio', roles: STAFF_READ, order: 22 },
    { section: 'Rischio', label: 'Heatmap', href: '/rischio/heatmap', roles: STAFF_READ, order: 24 },
    { section: 'Rischio', label: 'Approvazioni', href: '/rischio/approvazioni', roles: STAFF_READ, order: 26 },
    // 'Autovalutazione' (order 30) takes the planned entry's place; the governance pages follow it.
    { section: 'Rischio', label: 'Autovalutazione', href: '/rischio/autovalutazione', roles: STAFF_READ, order: 30 },
    { section: 'Rischio', label: 'Rischio residuo', href: '/rischio/residuo', roles: STAFF_READ, order: 32 },
    { section: 'Rischio', label: 'Controlli AML', href: '/rischio/controlli', roles: STAFF_READ, order: 34 },
    { section: 'Rischio', label: 'RAF', href: '/rischio/raf', roles: STAFF_READ, order: 36 },
    { section: 'Rischio', label: 'KRI', href: '/rischio/kri', roles: STAFF_READ, order: 38 },
    { section: 'Rischio', label: 'Decisioni', href: '/rischio/decisioni', roles: STAFF_READ, order: 39 },
    ...riskConfigNavigation,
    { section: 'Rischio', label: 'Scenari', href: '/rischio/scenari', roles: STAFF_READ, order: 55 },
  ],
  // Overrides waiting for the signed-in compliance officer.
  home: riskViewsHome,
});
