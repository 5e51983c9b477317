import { defineArea } from '../../kit/area';
import { STAFF_READ } from '../../kit/roles';
import { registerAuthRoutes } from './auth.routes';

/** Sign-in with the second factor, sessions, the home page. */
export const authArea = defineArea({
  name: 'auth',
  label: 'Accesso',
  routes: [registerAuthRoutes],
  // The spec's home (/dashboard) is the staff home: what waits for the user in the active tenant.
  navigation: [{ section: 'Assistente', label: 'Dashboard', href: '/dashboard', roles: STAFF_READ, order: 10 }],
});
