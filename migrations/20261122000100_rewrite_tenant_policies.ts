import type { Knex } from 'knex';
import { createTenantPolicies, dropTenantPolicies, TENANT_POLICY } from '../src/db/rls';
import { guardedPlatformRole } from '../src/db/tenant-guard';

/**
 * Every tenant table's policy trusted `app.scope = 'platform'`, a setting the application role
 * could set itself. From here on the tenant comes only signed (app_current_tenant) and
 * platform-wide work has its own role and policy. Tables are found in the catalogue, so a
 * table added by any earlier migration is rewritten too.
 */
const LEGACY_PREDICATE =
  "(cod_azienda = current_setting('app.cod_azienda', true) or current_setting('app.scope', true) = 'platform')";

async function tenantTables(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { relname: string }[] }>(`
    select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
       and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'cod_azienda' and a.attnum > 0 and not a.attisdropped)
     order by c.relname`);
  return rows.map((r) => r.relname);
}

export async function up(knex: Knex): Promise<void> {
  const platformRole = await guardedPlatformRole(knex);
  for (const table of await tenantTables(knex)) {
    await dropTenantPolicies(knex, table);
    await createTenantPolicies(knex, table, platformRole);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of await tenantTables(knex)) {
    await dropTenantPolicies(knex, table);
    await knex.raw(`create policy ${TENANT_POLICY} on ?? using ${LEGACY_PREDICATE} with check ${LEGACY_PREDICATE}`, [table]);
  }
}
