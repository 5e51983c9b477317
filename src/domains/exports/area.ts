import { defineArea } from '../../kit/area';
import { registerExportRoutes } from './exports.routes';

/** Exports: every list that declares an export, as CSV or XLSX (GET /api/export/:entity). */
export const exportsArea = defineArea({
  name: 'exports',
  label: 'Esportazioni',
  routes: [registerExportRoutes],
});
