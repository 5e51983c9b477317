import { fileURLToPath } from 'node:url';
import { createScreeningBatchActivities } from '../../../activities/screening/screening-batch.activities';
import { createScreeningImportActivities } from '../../../activities/screening/screening-import.activities';
import { createScreeningRescreenActivities } from '../../../activities/screening/screening-rescreen.activities';
import { defineArea } from '../../kit/area';
import { screeningHome } from './screening.home';
import { STAFF_READ } from '../../kit/roles';
import { registerScreeningPages } from './screening.pages';
import { registerScreeningRoutes } from './screening.routes';
import { importRunsList, matchesList } from './screening.lists';

/** Sanctions lists, their import, screening and the matches' review. */
export const screeningArea = defineArea({
  name: 'screening',
  label: 'Screening',
  routes: [registerScreeningRoutes, registerScreeningPages],
  activities: (deps) => ({ ...createScreeningImportActivities(deps), ...createScreeningBatchActivities(deps), ...createScreeningRescreenActivities(deps) }),
  workflowModules: [fileURLToPath(new URL('../../../workflows/screening/screening-import.workflow.ts', import.meta.url)), fileURLToPath(new URL('../../../workflows/screening/screening-batch.workflow.ts', import.meta.url)),
    fileURLToPath(new URL('../../../workflows/screening/screening-rescreen.workflow.ts', import.meta.url))],
  lists: [matchesList, importRunsList],
  navigation: [
    { section: 'Monitoraggio', label: 'Screening', href: '/screening', roles: STAFF_READ, order: 50 },
    { section: 'Monitoraggio', label: 'Liste e import', href: '/admin/screening', roles: STAFF_READ, order: 60 },
    // List imports touch every tenant: the platform's own page.
    { section: 'Organizzazione', label: 'Importazione liste', href: '/admin/screening/import', roles: ['superadmin'], order: 15 },
  ],
  home: screeningHome,
});
