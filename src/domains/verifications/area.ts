import { fileURLToPath } from 'node:url';
import { createTravelRuleActivities } from '../../../activities/travel-rule/travel-rule.activities';
import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { registerTravelRulePages, registerTravelRuleRoutes, travelRuleList } from './travel-rule';

/**
 * Verifications (issue 13): KYC and KYB as durable processes with their checks and the company
 * profile; the corporate structure and its beneficial owners (art. 20 d.lgs. 231/2007 and the
 * multiplicative method); versioned document records; travel-rule transfers on IVMS101 data.
 * docs/verifications.md is the overview.
 */
export const verificationsArea = defineArea({
  name: 'verifications',
  label: 'Verifiche',
  routes: [
    // kyc-kyb: API (KYC, KYB, checks, profile, status) and the admin transition routes.
    // structure: struttura, nodi, archi, calcola-ubo.
    // console: /admin/kyc, /admin/kyb pages and the audited document downloads.
    // documents: /api/v1/documenti/records and the /documenti pages.
    // travel-rule: API, admin decision, /admin/travel-rule pages.
    registerTravelRuleRoutes, registerTravelRulePages,
  ],
  activities: (deps) => ({
    ...createTravelRuleActivities(deps),
  }),
  workflowModules: [
    fileURLToPath(new URL('../../../workflows/travel-rule/travel-rule.workflow.ts', import.meta.url)),
  ],
  lists: [travelRuleList],
  navigation: [
    { section: 'Monitoraggio', label: 'Travel rule', href: '/admin/travel-rule', roles: STAFF_READ, order: 40 },
  ],
});
