import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { PlatformDb, TENANT_KEY_PARAM } from './tenant';

// Return bigint and numeric columns as JS numbers where safe: counts and sequence numbers stay well below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface PoolSize { min?: number; max?: number }

export function createKnex(url: string, pool: PoolSize = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    asyncStackTraces: process.env.NODE_ENV !== 'production',
  });
}

/** Pool of the application role, able to enter a tenant (withTenant) with the tenant-context key. */
export function createAppDb(url: string, tenantContextKey: string, pool?: PoolSize): Knex {
  const db = createKnex(url, pool);
  db.userParams = { ...db.userParams, [TENANT_KEY_PARAM]: tenantContextKey };
  return db;
}

/** Pool of the platform role (withPlatform only). */
export const createPlatformDb = (url: string, pool?: PoolSize): PlatformDb => new PlatformDb(createKnex(url, pool));

/** A role's URL: same server and database as the owner URL, another user. */
export function deriveRoleUrl(ownerUrl: string, role: string, password: string): string {
  const u = new URL(ownerUrl);
  u.username = role;
  u.password = password;
  return u.toString();
}
