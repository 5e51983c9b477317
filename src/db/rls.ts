import type { Knex } from 'knex';
import { guardedPlatformRole } from './tenant-guard';

export const TENANT_POLICY = 'tenant_isolation';
export const PLATFORM_POLICY = 'platform_access';

/**
 * The predicate of every tenant-owned table's policy: the row's tenant is the signed tenant
 * of the transaction (see app_current_tenant). One column compared with one InitPlan value,
 * so an index on (cod_azienda, ...) serves it.
 */
export const tenantPredicate = '(cod_azienda = (select app_current_tenant()))';

/**
 * The two policies of a tenant table: tenant isolation for every role (the application role
 * and any role added later), and the platform role's own policy that shows every tenant.
 * Permissive policies are OR-ed, but only for the roles they apply to: the application role's
 * queries carry the tenant predicate alone.
 */
export async function createTenantPolicies(knex: Knex, table: string, platformRole: string): Promise<void> {
  await knex.raw(`create policy ${TENANT_POLICY} on ?? using ${tenantPredicate} with check ${tenantPredicate}`, [table]);
  await knex.raw(`create policy ${PLATFORM_POLICY} on ?? to ${platformRole} using (true) with check (true)`, [table]);
}

export async function dropTenantPolicies(knex: Knex, table: string): Promise<void> {
  await knex.raw(`drop policy if exists ${TENANT_POLICY} on ??`, [table]);
  await knex.raw(`drop policy if exists ${PLATFORM_POLICY} on ??`, [table]);
}

/** Enables and forces row-level security with the tenant policies (used by migrations). */
export async function enableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw(`alter table ?? enable row level security`, [table]);
  await knex.raw(`alter table ?? force row level security`, [table]);
  await createTenantPolicies(knex, table, await guardedPlatformRole(knex));
}

export async function disableTenantRls(knex: Knex, table: string): Promise<void> {
  await dropTenantPolicies(knex, table);
  await knex.raw(`alter table ?? no force row level security`, [table]);
  await knex.raw(`alter table ?? disable row level security`, [table]);
}

/** Points every platform policy at the configured platform role (after PLATFORM_DB_ROLE changed). */
export async function retargetPlatformPolicies(owner: Knex, platformRole: string): Promise<void> {
  const { rows } = await owner.raw<{ rows: { tablename: string }[] }>(
    "select tablename from pg_policies where schemaname = 'public' and policyname = ? and roles <> array[?]::name[]",
    [PLATFORM_POLICY, platformRole]);
  for (const { tablename } of rows) await owner.raw(`alter policy ${PLATFORM_POLICY} on ?? to ${platformRole}`, [tablename]);
}
