import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { anagrafeHome } from './anagrafe.home';
import { registerAnagrafePages } from './anagrafe.pages';
import { RECORDS_EXPORTED_LISTS } from './records.exports';
import { registerRecordsRoutes } from './records.routes';

/**
 * The customer registry (anagrafe): subjects deduplicated on their tax ids, their relationships
 * and the roles on them, the links between subjects (beneficial owners among them), identity and
 * company documents, and every version of a record (docs/records.md).
 */
export const recordsArea = defineArea({
  name: 'records',
  label: 'Anagrafe',
  routes: [registerRecordsRoutes, registerAnagrafePages],
  lists: RECORDS_EXPORTED_LISTS,
  navigation: [{ section: 'Clienti', label: 'Anagrafe', href: '/anagrafe', roles: STAFF_READ, order: 10 }],
  home: anagrafeHome,
});
