import type { Knex } from 'knex';
import { join } from 'node:path';
import { projectRoot } from '../config';
import { retargetPlatformPolicies } from './rls';
import { assertRoleName, ensureTenantGuard, type DbRoles } from './tenant-guard';

/**
 * Creates (or updates the password of) a non-owner login role. It owns nothing, so FORCE ROW
 * LEVEL SECURITY applies to it and it cannot alter policies.
 */
export async function ensureLoginRole(owner: Knex, role: string, password: string): Promise<void> {
  assertRoleName(role);
  const exists = await owner.raw('select 1 from pg_roles where rolname = ?', [role]);
  const pw = password.replace(/'/g, "''");
  if (exists.rows.length === 0) {
    await owner.raw(`create role ${role} login nosuperuser nobypassrls nocreatedb nocreaterole noinherit password '${pw}'`);
  } else {
    await owner.raw(`alter role ${role} login nosuperuser nobypassrls nocreatedb nocreaterole noinherit password '${pw}'`);
  }
}

/** Platform tables the application role may not touch: a session row names the tenant a request works in. */
const PLATFORM_ONLY_TABLES = ['sessions', 'login_throttle', 'idempotency_keys'];
/** Platform data tenants read (sanctions lists, import runs) but only platform work writes. */
const PLATFORM_WRITTEN_TABLES = ['screening_import_runs', 'screening_list_versions', 'screening_list_entries'];

async function existing(owner: Knex, tables: string[]): Promise<string[]> {
  const { rows } = await owner.raw<{ rows: { t: string }[] }>(
    'select t from unnest(?::text[]) t where to_regclass(t) is not null', [tables]);
  return rows.map((r) => r.t);
}

/** Table rights of both non-owner roles; the audit trail is append-only for both. */
export async function grantRoles(owner: Knex, roles: DbRoles): Promise<void> {
  for (const role of [roles.app, roles.platform]) {
    assertRoleName(role);
    await owner.raw(`grant usage on schema public to ${role}`);
    await owner.raw(`grant select, insert, update, delete on all tables in schema public to ${role}`);
    await owner.raw(`grant usage, select on all sequences in schema public to ${role}`);
    await owner.raw(`revoke update, delete, truncate on audit_events from ${role}`);
    await owner.raw(`revoke all on knex_migrations, knex_migrations_lock from ${role}`);
  }
  for (const t of await existing(owner, PLATFORM_ONLY_TABLES)) await owner.raw(`revoke all on ?? from ${roles.app}`, [t]);
  for (const t of await existing(owner, PLATFORM_WRITTEN_TABLES)) await owner.raw(`revoke insert, update, delete, truncate on ?? from ${roles.app}`, [t]);
  // Nobody but the owner creates objects: not in the application's schema, and no temporary
  // table either (one would shadow a real table for every later request on that pooled
  // connection, whatever its tenant, and it has no row-level security).
  await owner.raw('revoke create on schema public from public');
  await owner.raw("do $$ begin execute format('revoke temporary on database %I from public', current_database()); end $$");
}

export const migrationsDir = join(projectRoot, 'migrations');

export async function migrate(owner: Knex): Promise<string[]> {
  const [, applied] = (await owner.migrate.latest({ directory: migrationsDir, loadExtensions: ['.ts'] })) as [number, string[]];
  return applied;
}

export interface DatabaseSetup {
  roles: DbRoles;
  passwords: { app: string; platform: string };
  /** The tenant-context key the application signs tenants with (stored for app_current_tenant). */
  tenantContextKey: string;
}

/** Everything the owner does before the application connects: roles, tenant guard, migrations, grants. */
export async function prepareDatabase(owner: Knex, setup: DatabaseSetup): Promise<string[]> {
  if (setup.roles.app === setup.roles.platform) throw new Error('the application and platform roles must differ');
  await ensureLoginRole(owner, setup.roles.app, setup.passwords.app);
  await ensureLoginRole(owner, setup.roles.platform, setup.passwords.platform);
  await ensureTenantGuard(owner, setup.roles, setup.tenantContextKey);
  const applied = await migrate(owner);
  await retargetPlatformPolicies(owner, assertRoleName(setup.roles.platform));
  await grantRoles(owner, setup.roles);
  return applied;
}
