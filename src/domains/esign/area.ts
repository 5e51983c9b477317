import { fileURLToPath } from 'node:url';
import { createEsignActivities } from '../../../activities/esign/esign.activities';
import { defineArea } from '../../kit/area';
import { esignDocumentSource } from './esign.document-source';
import { registerEsignPages } from './esign.pages';
import { registerEsignRoutes } from './esign.routes';

/** The e-signature ceremony (one-time code, signed bundle, receipt). */
export const esignArea = defineArea({
  name: 'esign',
  label: 'Firma elettronica',
  routes: [registerEsignRoutes, registerEsignPages],
  activities: createEsignActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/esign/esign.workflow.ts', import.meta.url))],
  documentSources: [esignDocumentSource],
});
