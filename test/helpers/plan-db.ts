import { startScratchDatabase } from '../../src/infra/scratch-database';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../../src/config';
import { prepareDatabase } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import type { PlatformDb } from '../../src/db/tenant';
import { buildDbPools } from '../../src/deps';

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
  const scratch = await startScratchDatabase({ name });
  const { ownerUrl } = scratch;
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
      await scratch.stop().catch((e) => console.error('teardown step failed', e));
    },
  };
}
