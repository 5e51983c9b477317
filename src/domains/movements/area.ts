import { defineArea } from '../../kit/area';
import { movementsListWithExport } from './movements.export';
import { registerMovementRoutes } from './movements.routes';

/** Movements of the customers' relationships: the API and the reads the customer file and the import use. */
export const movementsArea = defineArea({
  name: 'movements',
  label: 'Movimenti',
  routes: [registerMovementRoutes],
  lists: [movementsListWithExport],
});
