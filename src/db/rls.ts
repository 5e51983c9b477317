import type { Knex } from 'knex';

/** The predicate every tenant-owned table's policy uses. */
export const tenantPredicate =
  "(cod_azienda = current_setting('app.cod_azienda', true) or current_setting('app.scope', true) = 'platform')";

/** Enables and forces row-level security with the tenant policy (used by migrations). */
export async function enableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw(`alter table ?? enable row level security`, [table]);
  await knex.raw(`alter table ?? force row level security`, [table]);
  await knex.raw(`create policy tenant_isolation on ?? using ${tenantPredicate} with check ${tenantPredicate}`, [table]);
}

export async function disableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw(`drop policy if exists tenant_isolation on ??`, [table]);
  await knex.raw(`alter table ?? no force row level security`, [table]);
  await knex.raw(`alter table ?? disable row level security`, [table]);
}
