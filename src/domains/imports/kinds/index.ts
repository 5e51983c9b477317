import type { ImportKind, ImportTipo } from '../import-kind';
import { customersKind } from './customers.kind';
import { movementsKind } from './movements.kind';
import { relationshipsKind } from './relationships.kind';

/** Every kind of import by its name in the URL (POST /api/import/:tipo). */
export const IMPORT_KINDS: Record<ImportTipo, ImportKind<unknown>> = {
  clienti: customersKind,
  rapporti: relationshipsKind,
  movimenti: movementsKind,
};
