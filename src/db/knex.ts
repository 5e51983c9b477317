import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// Return bigint and numeric columns as JS numbers where safe: counts and sequence numbers stay well below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export function createKnex(url: string, pool: { min?: number; max?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    asyncStackTraces: process.env.NODE_ENV !== 'production',
  });
}

/** The application role's URL: same server and database as the owner URL, another user. */
export function deriveAppUrl(ownerUrl: string, role: string, password: string): string {
  const u = new URL(ownerUrl);
  u.username = role;
  u.password = password;
  return u.toString();
}
