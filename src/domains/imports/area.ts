import { fileURLToPath } from 'node:url';
import { createImportActivities } from '../../../activities/imports/imports.activities';
import { defineArea } from '../../kit/area';
import { registerImportPages } from './imports.pages';
import { importJobsList } from './imports.repo';
import { IMPORTERS, registerImportRoutes } from './imports.routes';

/** Bulk import of customers, relationships and movements from CSV and XLSX: one workflow per file. */
export const importsArea = defineArea({
  name: 'imports',
  label: 'Importazioni',
  routes: [registerImportRoutes, registerImportPages],
  activities: createImportActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/imports/imports.workflow.ts', import.meta.url))],
  lists: [importJobsList],
  navigation: [{ section: 'Clienti', label: 'Importa dati', href: '/anagrafe/importa', roles: IMPORTERS, order: 90 }],
});
