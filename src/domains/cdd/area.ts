import { fileURLToPath } from 'node:url';
import { createCddReviewActivities } from '../../../activities/cdd/cdd-review.activities';
import { defineArea } from '../../kit/area';
import { cddHome } from './cdd.home';
import { registerCddPages } from './cdd.pages';
import { STAFF_READ } from '../../kit/roles';

/** Customer due diligence: for now the periodic review of each customer (started at onboarding approval). */
export const cddArea = defineArea({
  name: 'cdd',
  label: 'Adeguata verifica',
  activities: createCddReviewActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/cdd/cdd-review.workflow.ts', import.meta.url))],
  routes: [registerCddPages],
  navigation: [{ section: 'Clienti', label: 'Adeguata verifica', href: '/cdd', roles: STAFF_READ, order: 30 }],
  home: cddHome,
});
