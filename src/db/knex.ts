import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { PlatformDb, TENANT_KEY_PARAM } from './tenant';

// Return bigint and numeric columns as JS numbers where safe: counts and sequence numbers stay well below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface PoolSize { min?: number; max?: number }

/**
 * Waits are bounded: a request or an activity that cannot get a connection within seconds
 * fails (a 503 for the caller, a retry for an activity) instead of queueing for a minute.
 */
const CONNECT_TIMEOUT_MS = 3_000;
const ACQUIRE_TIMEOUT_MS = 5_000;

export function createKnex(url: string, pool: PoolSize = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    // Off unless asked for: it builds an Error (a stack walk) for every query, about a tenth of a list request's CPU.
    asyncStackTraces: process.env.KNEX_ASYNC_STACK_TRACES === 'true',
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
