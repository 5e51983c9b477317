import type { ActivityDeps } from '../../../activities/deps';
import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
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
    // config-pages: /rischio/configurazione, /rischio/fattori, /rischio/policy
    // assess: assessments API, calculate, history, explainability, open-from-assessment
    // views: /rischio, /rischio/:cod, approvazioni, portfolio/heatmap/matrix API and pages
    // batch: runs API, /rischio/scenari
    // self: autovalutazione, residuo, controlli, raf, kri, decisioni
    registerSelfAssessmentPages, registerSelfGovernancePages,
  ],
  // Each part adds its activities here: (deps) => ({ ...createXActivities(deps), ... }).
  activities: (deps) => ({ ...noActivities(deps) }),
  workflowModules: [],
  lists: [],
  navigation: [
    // self: 'Autovalutazione' (order 30) stays in PLANNED_AREAS' place; the governance pages follow it.
    { section: 'Rischio', label: 'Autovalutazione', href: '/rischio/autovalutazione', roles: STAFF_READ, order: 30 },
    { section: 'Rischio', label: 'Rischio residuo', href: '/rischio/residuo', roles: STAFF_READ, order: 32 },
    { section: 'Rischio', label: 'Controlli', href: '/rischio/controlli', roles: STAFF_READ, order: 34 },
    { section: 'Rischio', label: 'RAF', href: '/rischio/raf', roles: STAFF_READ, order: 36 },
    { section: 'Rischio', label: 'KRI', href: '/rischio/kri', roles: STAFF_READ, order: 38 },
    { section: 'Rischio', label: 'Decisioni', href: '/rischio/decisioni', roles: STAFF_READ, order: 39 },
  ],
});
