import { fileURLToPath } from 'node:url';
import { createVerificationActivities } from '../../../activities/verification/verification.activities';
import { defineArea } from '../../kit/area';
import { consoleHome, consoleNavigation, registerConsoleActions, registerConsoleDownloads, registerConsolePages } from './console';
import { STAFF_READ } from '../../kit/roles';
import { documentRecordsList, registerDocumentPages, registerDocumentRecordRoutes } from './documents';
import { registerVerificationRoutes, verificationsList } from './kyc-kyb';
import { registerStructurePages, registerStructureRoutes } from './structure';

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
    registerVerificationRoutes,
    // structure: struttura, nodi, archi, calcola-ubo; the KYB page's structure forms.
    registerStructureRoutes, registerStructurePages,
    // console: /admin/kyc, /admin/kyb pages and the audited document downloads.
    registerConsolePages, registerConsoleActions, registerConsoleDownloads,
    // documents: /api/v1/documenti/records and the /documenti pages.
    registerDocumentRecordRoutes, registerDocumentPages,
    // travel-rule: API, admin decision, /admin/travel-rule pages.
  ],
  activities: (deps) => ({
    ...createVerificationActivities(deps),
  }),
  workflowModules: [
    fileURLToPath(new URL('../../../workflows/verification/verification.workflow.ts', import.meta.url)),
  ],
  lists: [verificationsList, documentRecordsList],
  navigation: [
    ...consoleNavigation,
    { section: 'Clienti', label: 'Documenti', href: '/documenti', roles: STAFF_READ, order: 70 },
  ],
  // The KYC and KYB verifications waiting to be taken in hand.
  home: consoleHome,
});
