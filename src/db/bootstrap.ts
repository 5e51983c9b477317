import type { Knex } from 'knex';
import { join } from 'node:path';
import { projectRoot } from '../config';

/**
 * Creates (or updates the password of) the non-owner role the application connects as.
 * It owns nothing, so FORCE ROW LEVEL SECURITY applies to it and it cannot alter policies.
 */
export async function ensureAppRole(owner: Knex, role: string, password: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(role)) throw new Error(`invalid role name ${role}`);
  const exists = await owner.raw('select 1 from pg_roles where rolname = ?', [role]);
  const pw = password.replace(/'/g, "''");
  if (exists.rows.length === 0) {
    await owner.raw(`create role ${role} login nosuperuser nobypassrls nocreatedb nocreaterole password '${pw}'`);
  } else {
    await owner.raw(`alter role ${role} login nosuperuser nobypassrls password '${pw}'`);
  }
}

export async function grantAppRole(owner: Knex, role: string): Promise<void> {
  await owner.raw(`grant usage on schema public to ${role}`);
  await owner.raw(`grant select, insert, update, delete on all tables in schema public to ${role}`);
  await owner.raw(`grant usage, select on all sequences in schema public to ${role}`);
  // The audit trail is append-only for the application.
  await owner.raw(`revoke update, delete, truncate on audit_events from ${role}`);
  await owner.raw(`revoke all on knex_migrations, knex_migrations_lock from ${role}`);
}

export const migrationsDir = join(projectRoot, 'migrations');

export async function migrate(owner: Knex): Promise<string[]> {
  const [, applied] = (await owner.migrate.latest({ directory: migrationsDir, loadExtensions: ['.ts'] })) as [number, string[]];
  return applied;
}

export async function prepareDatabase(owner: Knex, role: string, password: string): Promise<string[]> {
  await ensureAppRole(owner, role, password);
  const applied = await migrate(owner);
  await grantAppRole(owner, role);
  return applied;
}
