import { fileURLToPath } from 'node:url';
import { createCddReviewActivities } from '../../../activities/cdd/cdd-review.activities';
import { defineArea } from '../../kit/area';
import { cddHome } from './cdd.home';

/** Customer due diligence: for now the periodic review of each customer (started at onboarding approval). */
export const cddArea = defineArea({
  name: 'cdd',
  label: 'Adeguata verifica',
  activities: createCddReviewActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/cdd/cdd-review.workflow.ts', import.meta.url))],
  home: cddHome,
});
