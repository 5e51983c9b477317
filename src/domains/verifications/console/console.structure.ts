import type { Knex } from 'knex';
import { STRUCTURE_EDITORS } from '../structure/structure.roles';
import { structureView } from '../structure/structure.view';

/**
 * The corporate-structure section of a KYB's page: part ubo's partial views/verifiche/structure/section.njk
 * with the data of its structureView; the forms only for who may edit the structure.
 */
export async function structureSection(trx: Knex.Transaction, codAzienda: string, v: { id: string; cod_verifica: string }, roles: readonly string[] = []): Promise<unknown> {
  return structureView(trx, codAzienda, v.id, { canEdit: roles.some((r) => (STRUCTURE_EDITORS as readonly string[]).includes(r)) });
}
