import { fileURLToPath } from 'node:url';
import { createSosActivities } from '../../../activities/sos/sos.activities';
import { defineArea } from '../../kit/area';
import { sosDocumentSource } from './sos.document-source';
import { registerSosDossier } from './sos.dossier';
import { sosListWithExport } from './sos.export';
import { sosRecordLinks } from './sos.links';
import { registerSosPages } from './sos.pages';
import { registerSosRoutes, SOS_ACCESS } from './sos.routes';
import { registerSosWorkbench } from './sos.workbench.pages';

/** Suspicious-transaction reports (docs/sos.md): one durable workflow per report, tipping-off enforced in the database. */
export const sosArea = defineArea({
  name: 'sos',
  label: 'Segnalazioni SOS',
  // The workbench first: /sos/queue would otherwise be taken for a report by /sos/:id.
  routes: [registerSosRoutes, registerSosWorkbench, registerSosPages, registerSosDossier],
  activities: createSosActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/sos/sos.workflow.ts', import.meta.url))],
  recordLinks: sosRecordLinks,
  lists: [sosListWithExport],
  navigation: [{ section: 'Indagini', label: 'SOS', href: '/sos', roles: SOS_ACCESS, order: 20 }],
  documentSources: [sosDocumentSource],
});
