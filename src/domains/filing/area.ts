import { fileURLToPath } from 'node:url';
import { createFilingActivities } from '../../../activities/filing/filing.activities';
import { defineArea } from '../../kit/area';
import { filingDocumentSource } from './filing.document-source';
import { FILING_READERS } from './filing.access';
import { filingsListWithExport } from './filing.export';
import { registerFilingPages } from './filing.pages';
import { registerFilingRoutes } from './filing.routes';

/** Filings (regulatory report packages, goAML): one durable workflow per filing (docs/filing.md). */
export const filingArea = defineArea({
  name: 'filing',
  label: 'Segnalazioni regolamentari',
  routes: [registerFilingRoutes, registerFilingPages],
  activities: createFilingActivities,
  lists: [filingsListWithExport],
  workflowModules: [fileURLToPath(new URL('../../../workflows/filing/filing.workflow.ts', import.meta.url))],
  navigation: [
    { section: 'Indagini', label: 'Filing', href: '/filing', roles: FILING_READERS, order: 30 },
    { section: 'Indagini', label: 'Scrivania filing', href: '/filing/workbench', roles: FILING_READERS, order: 31 },
  ],
  documentSources: [filingDocumentSource],
});
