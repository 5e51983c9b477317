import { fileURLToPath } from 'node:url';
import { createEddActivities } from '../../../activities/edd/edd.activities';
import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { eddHome } from './edd.home';
import { eddList } from './edd.list';
import { registerEddPages } from './edd.pages';
import { registerEddRoutes } from './edd.routes';

/** Enhanced due diligence (adeguata verifica rafforzata): one durable workflow per EDD case. */
export const eddArea = defineArea({
  name: 'edd',
  label: 'Verifica rafforzata',
  routes: [registerEddRoutes, registerEddPages],
  activities: createEddActivities,
  workflowModules: [fileURLToPath(new URL('../../../workflows/edd/edd.workflow.ts', import.meta.url))],
  lists: [eddList],
  navigation: [{ section: 'Clienti', label: 'Verifica rafforzata', href: '/edd', roles: STAFF_READ, order: 40 }],
  home: eddHome,
});
