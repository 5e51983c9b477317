import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { spineExportedList } from './spine.export';
import { STORE_SOURCES } from './spine.labels';
import { registerSpinePages } from './spine.pages';
import { registerSpineRoutes } from './spine.routes';

/** The document spine (docs/document-spine.md): one index of every document the platform keeps. */
export const spineArea = defineArea({
  name: 'spine',
  label: 'Indice dei documenti',
  routes: [registerSpineRoutes, registerSpinePages],
  navigation: [{ section: 'Clienti', label: 'Indice documenti', href: '/documenti/spine', roles: STAFF_READ, order: 75 }],
  lists: [spineExportedList],
  documentSources: STORE_SOURCES,
});
