import { fileURLToPath } from 'node:url';
import { createDossierActivities } from '../../../activities/dossier/dossier.activities';
import { defineArea } from '../../kit/area';
import { DOSSIER_READERS } from './dossier.access';
import { dossierDocumentSource } from './dossier.document-source';
import { dossierRecordLinks } from './dossier.links';
import { dossiersList } from './dossier.list';
import { registerDossierPages } from './dossier.pages';
import { registerDossierRoutes } from './dossier.routes';

/** Customer dossiers (docs/dossier.md): a signed PDF of the customer's file, one durable workflow per dossier. */
export const dossierArea = defineArea({
  name: 'dossier',
  label: 'Fascicoli dei clienti',
  routes: [registerDossierRoutes, registerDossierPages],
  activities: createDossierActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/dossier/dossier.workflow.ts', import.meta.url))],
  lists: [dossiersList],
  recordLinks: dossierRecordLinks,
  documentSources: [dossierDocumentSource],
  navigation: [{ section: 'Clienti', label: 'Fascicoli', href: '/dossier', roles: DOSSIER_READERS, order: 40 }],
});
