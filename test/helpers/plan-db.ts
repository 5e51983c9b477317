import { startScratchDatabase, type ScratchDatabase } from '../../src/infra/scratch-database';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../../src/config';
import { prepareDatabase } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import type { PlatformDb } from '../../src/db/tenant';
import { buildDbPools } from '../../src/deps';
import { atRunEnd } from './run-end';

export interface PlanDb {
  owner: Knex;
  /** The application role's pool (withTenant). */
  db: Knex;
  platformDb: PlatformDb;
  stop(): Promise<void>;
}

const planConfig = () => loadConfig({ ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false' });

/**
 * The run's server for plan databases and, on it, a database migrated once (roles, tenant guard,
 * migrations, grants) that every plan database is copied from: a PostgreSQL start and the
 * migrations cost seconds, a copy a fraction of that. Stopped (or dropped) when the run ends.
 */
let template: Promise<{ scratch: ScratchDatabase; name: string; serverUrl: string }> | undefined;

function planTemplate() {
  template ??= (async () => {
    const name = `cp_plan_tmpl_${randomBytes(4).toString('hex')}`;
    const scratch = await startScratchDatabase({ name, durable: false });
    atRunEnd(async () => { template = undefined; await scratch.stop(); });
    const owner = createKnex(scratch.ownerUrl, { max: 1 });
    try {
      await prepareDatabase(owner, databaseSetup(planConfig()));
    } finally {
      // A template is copied only while nobody is connected to it.
      await owner.destroy();
    }
    // Databases are created from the server's own database (the embedded one's `postgres`, or DATABASE_URL's).
    const server = new URL(process.env.DATABASE_URL ?? scratch.ownerUrl);
    if (!process.env.DATABASE_URL) server.pathname = '/postgres';
    return { scratch, name, serverUrl: server.toString() };
  })();
  template.catch(() => { template = undefined; });
  return template;
}

/**
 * A migrated database of its own, with the application and platform roles, and no Temporal: for
 * tests that seed large tables (the shared stack's database must stay small and predictable).
 * The machine's server when DATABASE_URL is set, an embedded PostgreSQL otherwise (one per run,
 * for every plan database). Each database is a copy of a template migrated once per run, and
 * goes through the same preparation as a new one (idempotent: roles, guard, migrations none left,
 * grants and the database's own rights, which a copy does not carry); `stop()` drops it.
 */
export async function startPlanDb(): Promise<PlanDb> {
  const config = planConfig();
  const t = await planTemplate();
  const name = `cp_plan_${randomBytes(4).toString('hex')}`;
  const admin = createKnex(t.serverUrl, { max: 1 });
  try {
    await admin.raw(`create database ${name} template ${t.name}`);
  } finally {
    await admin.destroy();
  }
  const ownerUrl = new URL(t.scratch.ownerUrl);
  ownerUrl.pathname = `/${name}`;
  // One connection per seed: the seeds run side by side.
  const owner = createKnex(ownerUrl.toString(), { max: 12 });
  await prepareDatabase(owner, databaseSetup(config));
  const { db, platformDb } = buildDbPools(config, ownerUrl.toString());
  return {
    owner, db, platformDb,
    async stop() {
      await db.destroy();
      await platformDb.destroy();
      await owner.destroy();
      const a = createKnex(t.serverUrl, { max: 1 });
      try {
        await a.raw(`drop database if exists ${name} with (force)`);
      } catch (e) {
        console.error('teardown step failed', e);
      } finally {
        await a.destroy();
      }
    },
  };
}
