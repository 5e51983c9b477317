import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../../src/config';
import { prepareDatabase } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import type { PlatformDb } from '../../src/db/tenant';
import { buildDbPools } from '../../src/deps';
import { startEmbeddedPostgres } from '../../src/infra/embedded-pg';
import { freePort } from '../../src/infra/free-port';

export interface PlanDb {
  owner: Knex;
  /** The application role's pool (withTenant). */
  db: Knex;
  platformDb: PlatformDb;
  stop(): Promise<void>;
}

/**
 * A migrated database of its own, with the application and platform roles, and no Temporal: for
 * tests that seed large tables (the shared stack's database must stay small and predictable).
 * The machine's server when DATABASE_URL is set, an embedded PostgreSQL otherwise.
 */
export async function startPlanDb(): Promise<PlanDb> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false' });
  const name = `cp_plan_${randomBytes(4).toString('hex')}`;
  const stops: (() => Promise<void>)[] = [];
  let ownerUrl: string;
  if (process.env.DATABASE_URL) {
    const admin = createKnex(process.env.DATABASE_URL, { max: 1 });
    await admin.raw(`create database ${name}`);
    await admin.destroy();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    ownerUrl = u.toString();
    stops.push(async () => {
      const a = createKnex(process.env.DATABASE_URL!, { max: 1 });
      await a.raw(`drop database if exists ${name} with (force)`);
      await a.destroy();
    });
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'cp-plan-'));
    const pg = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false, database: name });
    ownerUrl = pg.url;
    stops.push(async () => { await pg.stop(); rmSync(dir, { recursive: true, force: true }); });
  }
  // One connection per seed: the seeds run side by side.
  const owner = createKnex(ownerUrl, { max: 12 });
  await prepareDatabase(owner, databaseSetup(config));
  const { db, platformDb } = buildDbPools(config, ownerUrl);
  return {
    owner, db, platformDb,
    async stop() {
      await db.destroy();
      await platformDb.destroy();
      await owner.destroy();
      for (const s of stops.reverse()) await s().catch((e) => console.error('teardown step failed', e));
    },
  };
}
