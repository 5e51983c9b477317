import { fileURLToPath } from 'node:url';
import { createTravelRuleActivities } from '../../../activities/travel-rule/travel-rule.activities';
import { createVerificationActivities } from '../../../activities/verification/verification.activities';
import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { consoleHome, consoleNavigation, registerConsoleActions, registerConsoleDownloads, registerConsolePages } from './console';
import { documentRecordsList, registerDocumentPages, registerDocumentRecordRoutes } from './documents';
import { registerVerificationRoutes, verificationsList } from './kyc-kyb';
import { registerStructurePages, registerStructureRoutes } from './structure';
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
    // KYC and KYB: API (verifications, checks, profile, status) and the admin transition routes.
    registerVerificationRoutes,
    // The corporate structure: struttura, nodi, archi, calcola-ubo; the KYB page's structure forms.
    registerStructureRoutes, registerStructurePages,
    // The /admin/kyc and /admin/kyb consoles and their audited document downloads.
    registerConsolePages, registerConsoleActions, registerConsoleDownloads,
    // Document records: /api/v1/documenti/records and the /documenti pages.
    registerDocumentRecordRoutes, registerDocumentPages,
    // Travel rule: API, admin decision, /admin/travel-rule pages.
    registerTravelRuleRoutes, registerTravelRulePages,
  ],
  activities: (deps) => ({
    ...createVerificationActivities(deps), ...createTravelRuleActivities(deps),
  }),
  workflowModules: [
    fileURLToPath(new URL('../../../workflows/verification/verification.workflow.ts', import.meta.url)),
    fileURLToPath(new URL('../../../workflows/travel-rule/travel-rule.workflow.ts', import.meta.url)),
  ],
  lists: [verificationsList, documentRecordsList, travelRuleList],
  navigation: [
    ...consoleNavigation,
    { section: 'Clienti', label: 'Documenti', href: '/documenti', roles: STAFF_READ, order: 70 },
    { section: 'Monitoraggio', label: 'Travel rule', href: '/admin/travel-rule', roles: STAFF_READ, order: 40 },
  ],
  // The KYC and KYB verifications waiting to be taken in hand.
  home: consoleHome,
});
