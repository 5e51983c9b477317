import { defineArea } from '../../kit/area';
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
  routes: [registerRecordsRoutes],
  lists: RECORDS_EXPORTED_LISTS,
});
