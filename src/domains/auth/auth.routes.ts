import type { RegisterRoutes } from '../../kit/area';
import { registerAuthApi } from './auth.api';
import { registerAuthPages } from './auth.pages';
import { registerHomeRoutes } from './home.routes';

/** Sign-in and access: the JSON API under /auth, the sign-in pages, and the home page. */
export const registerAuthRoutes: RegisterRoutes = (router, services) => {
  registerAuthApi(router, services);
  registerAuthPages(router, services);
  registerHomeRoutes(router, services);
};
