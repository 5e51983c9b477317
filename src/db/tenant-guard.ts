import type { Knex } from 'knex';
import { hmacPads } from './tenant-key';

/** Schema only the owner can use: the padded tenant-context key and the role names live here. */
export const GUARD_SCHEMA = 'tenant_guard';

export interface DbRoles {
  /** Non-owner role of tenant requests: sees the signed tenant of its transaction only. */
  app: string;
  /** Non-owner role of platform-wide work: its own policy shows every tenant. */
  platform: string;
}

/**
 * The tenant of the current transaction, or NULL unless `app.tenant_sig` is the HMAC of
 * `app.cod_azienda` under the stored key. SECURITY DEFINER so that it alone reads the key;
 * a fixed search_path so that nothing a caller creates can stand in for sha256 or the table.
 * Policies call it as `(select app_current_tenant())`: an InitPlan run once per query, which
 * leaves `cod_azienda = $1` for the planner (index scans stay possible).
 */
const CURRENT_TENANT_FUNCTION = `
create or replace function public.app_current_tenant() returns text
  language sql stable parallel safe security definer
  set search_path = pg_catalog, pg_temp
as $$
  select c.t
    from (select nullif(current_setting('app.cod_azienda', true), '') as t,
                 current_setting('app.tenant_sig', true) as sig) c,
         ${GUARD_SCHEMA}.config k
   where k.id = 1
     and encode(sha256(k.opad || sha256(k.ipad || convert_to(c.t, 'UTF8'))), 'hex') = c.sig
$$`;

/**
 * The principal of the current transaction (docs/sos.md, "Tipping-off"): `app.user` and
 * `app.roles` count only with `app.principal_sig`, the HMAC of
 * `principal\n<tenant>\n<user>\n<roles>` under the same key, and only for the signed tenant.
 * So SQL run by the application role cannot claim a user or a role it was not given.
 * Unsigned or wrongly signed: no user (NULL) and no roles (empty array).
 */
const PRINCIPAL_SOURCE = `
    from (select nullif(current_setting('app.cod_azienda', true), '') as t,
                 nullif(current_setting('app.user', true), '') as u,
                 coalesce(current_setting('app.roles', true), '') as r,
                 current_setting('app.principal_sig', true) as sig) c,
         ${GUARD_SCHEMA}.config k
   where k.id = 1 and c.t is not null and c.u is not null
     and encode(sha256(k.opad || sha256(k.ipad || convert_to('principal' || chr(10) || c.t || chr(10) || c.u || chr(10) || c.r, 'UTF8'))), 'hex') = c.sig`;
const PRINCIPAL_FUNCTIONS = [`
create or replace function public.app_current_user() returns text
  language sql stable parallel safe security definer
  set search_path = pg_catalog, pg_temp
as $$ select c.u ${PRINCIPAL_SOURCE} $$`, `
create or replace function public.app_current_roles() returns text[]
  language sql stable parallel safe security definer
  set search_path = pg_catalog, pg_temp
as $$ select coalesce((select string_to_array(nullif(c.r, ''), ',') ${PRINCIPAL_SOURCE}), '{}'::text[]) $$`];

export const assertRoleName = (role: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(role)) throw new Error(`invalid role name ${role}`);
  return role;
};

/**
 * Creates or updates the guard (owner only, idempotent): the key table, the role names the
 * policies use, and app_current_tenant(). Runs before the migrations, which create policies
 * that call the function and name the platform role.
 */
export async function ensureTenantGuard(owner: Knex, roles: DbRoles, key: string): Promise<void> {
  const { ipad, opad } = hmacPads(key);
  await owner.transaction(async (trx) => {
    // Two processes preparing the same database at once would race on "if not exists".
    await trx.raw("select pg_advisory_xact_lock(hashtext('cp:tenant-guard'))");
    await trx.raw(`create schema if not exists ${GUARD_SCHEMA}`);
    await trx.raw(`revoke all on schema ${GUARD_SCHEMA} from public`);
    await trx.raw(`create table if not exists ${GUARD_SCHEMA}.config (
      id int primary key default 1 check (id = 1),
      ipad bytea not null,
      opad bytea not null,
      app_role text not null,
      platform_role text not null)`);
    await trx.raw(`revoke all on ${GUARD_SCHEMA}.config from public`);
    await trx.raw(
      `insert into ${GUARD_SCHEMA}.config (id, ipad, opad, app_role, platform_role) values (1, ?, ?, ?, ?)
       on conflict (id) do update set ipad = excluded.ipad, opad = excluded.opad, app_role = excluded.app_role, platform_role = excluded.platform_role`,
      [ipad, opad, assertRoleName(roles.app), assertRoleName(roles.platform)],
    );
    await trx.raw(CURRENT_TENANT_FUNCTION);
    await trx.raw('revoke all on function public.app_current_tenant() from public');
    await trx.raw(`grant execute on function public.app_current_tenant() to ${roles.app}, ${roles.platform}`);
    for (const fn of PRINCIPAL_FUNCTIONS) await trx.raw(fn);
    for (const name of ['app_current_user', 'app_current_roles']) {
      await trx.raw(`revoke all on function public.${name}() from public`);
      await trx.raw(`grant execute on function public.${name}() to ${roles.app}, ${roles.platform}`);
    }
  });
}

/** The platform role recorded by ensureTenantGuard (migrations name it in their policies). */
export async function guardedPlatformRole(knex: Knex): Promise<string> {
  const missing = new Error('the tenant guard is missing: migrate through prepareDatabase (npm run migrate), not the bare knex CLI');
  const { rows: [table] } = await knex.raw<{ rows: { t: string | null }[] }>('select to_regclass(?) as t', [`${GUARD_SCHEMA}.config`]);
  if (!table?.t) throw missing;
  const { rows } = await knex.raw<{ rows: { platform_role: string }[] }>(`select platform_role from ${GUARD_SCHEMA}.config where id = 1`);
  if (!rows[0]) throw missing;
  return assertRoleName(rows[0].platform_role);
}
