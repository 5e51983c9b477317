import type { RegisterRoutes } from '../index';

// Placeholder while this area is being written; replaced by its real routes.
export const registerSystemRoutes: RegisterRoutes = () => {};
