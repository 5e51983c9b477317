import type { Knex } from 'knex';

/**
 * The corporate-structure section of a KYB's page (part ubo's partial views/verifiche/structure/section.njk
 * with the data of its structureView). Until part ubo is merged the page shows no section.
 */
export async function structureSection(_trx: Knex.Transaction, _codAzienda: string, _v: { id: string; cod_verifica: string }): Promise<unknown> {
  return null;
}
