import { defineArea } from '../../kit/area';
import { registerSystemRoutes } from './system.routes';

/** Health, the OpenAPI document and its docs page. */
export const systemArea = defineArea({
  name: 'system',
  label: 'Sistema',
  routes: [registerSystemRoutes],
  navigation: [{ section: 'Organizzazione', label: 'API', href: '/api/docs', roles: ['superadmin', 'admin', 'co', 'auditor'], order: 50 }],
});
