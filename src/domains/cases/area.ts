import { fileURLToPath } from 'node:url';
import { createCaseActivities } from '../../../activities/case/case.activities';
import { defineArea } from '../../kit/area';
import { casesHome } from './cases.home';
import { STAFF_READ } from '../../kit/roles';
import { registerCasePages } from './cases.pages';
import { registerCaseRoutes } from './cases.routes';
import { casesListWithExport } from './cases.export';

/** Investigation cases: one durable workflow per case. */
export const casesArea = defineArea({
  name: 'cases',
  label: 'Casi',
  routes: [registerCaseRoutes, registerCasePages],
  activities: createCaseActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/case/case.workflow.ts', import.meta.url))],
  lists: [casesListWithExport],
  navigation: [{ section: 'Indagini', label: 'Casi', href: '/casi', roles: STAFF_READ, order: 10 }],
  home: casesHome,
});
