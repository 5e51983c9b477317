import { fileURLToPath } from 'node:url';
import { createReportingActivities } from '../../../activities/reporting/reporting.activities';
import { defineArea } from '../../kit/area';
import { REPORT_READERS } from './reporting.access';
import { reportingHome } from './reporting.home';
import { reportsList } from './reporting.list';
import { registerReportingPages } from './reporting.pages';
import { registerReportingRoutes } from './reporting.routes';

/** Regulatory reports generated from the movements: comunicazioni oggettive and S.AR.A. (docs/reporting.md). */
export const reportingArea = defineArea({
  name: 'reporting',
  label: 'Segnalazioni periodiche',
  routes: [registerReportingRoutes, registerReportingPages],
  activities: createReportingActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/reporting/reporting.workflow.ts', import.meta.url))],
  lists: [reportsList],
  navigation: [{ section: 'Indagini', label: 'Segnalazioni periodiche', href: '/reporting', roles: REPORT_READERS, order: 50 }],
  home: reportingHome,
});
