import { fileURLToPath } from 'node:url';
import { createCddReviewActivities } from '../../../activities/cdd/cdd-review.activities';
import { createCddSweepActivities } from '../../../activities/cdd/cdd-sweep.activities';
import { createCddTaskActivities } from '../../../activities/cdd/cdd-task.activities';
import { defineArea } from '../../kit/area';
import { cddHome } from './cdd.home';
import { registerCddPages } from './cdd.pages';
import { STAFF_READ } from '../../kit/roles';
import { cddReviewsList } from './cdd-review.list';
import { cddTasksList } from './cdd-task.list';
import { registerCddRoutes } from './cdd.routes';
import { registerKycRoutes } from './kyc.routes';

const workflow = (file: string) => fileURLToPath(new URL(`../../../workflows/cdd/${file}`, import.meta.url));

/**
 * Customer due diligence: the CDD task (one durable workflow per task), the KYC questionnaires,
 * the periodic review of each customer and the sweep that turns events into tasks.
 */
export const cddArea = defineArea({
  name: 'cdd',
  label: 'Adeguata verifica',
  routes: [registerCddRoutes, registerKycRoutes, registerCddPages],
  navigation: [{ section: 'Clienti', label: 'Adeguata verifica', href: '/cdd', roles: STAFF_READ, order: 30 }],
  // The EDD area's reader is wired here once that area exists (see createCddTaskActivities).
  activities: (deps) => ({ ...createCddReviewActivities(deps), ...createCddTaskActivities(deps), ...createCddSweepActivities(deps) }),
  workflowModules: [workflow('cdd-review.workflow.ts'), workflow('cdd-task.workflow.ts'), workflow('cdd-sweep.workflow.ts')],
  lists: [cddTasksList, cddReviewsList],
  home: cddHome,
});
