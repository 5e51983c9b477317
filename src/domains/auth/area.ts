import { defineArea } from '../../kit/area';
import { registerAuthRoutes } from './auth.routes';

/** Sign-in with the second factor, sessions, the home page. */
export const authArea = defineArea({
  name: 'auth',
  label: 'Accesso',
  routes: [registerAuthRoutes],
});
