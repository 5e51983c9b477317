import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnex } from '../db/knex';
import { startEmbeddedPostgres } from './embedded-pg';
import { freePort } from './free-port';

export interface ScratchDatabase {
  /** The owner's connection string of the new database. */
  ownerUrl: string;
  /** Drops the database (or stops the embedded server and removes its files). */
  stop(): Promise<void>;
}

/**
 * A database nobody else uses, for the test stack, the plan test and the benchmarks: a new
 * database on the machine's server when DATABASE_URL is set, otherwise an embedded PostgreSQL
 * of its own. `dropRoles` are dropped with it (a benchmark's own roles on a shared server).
 * `durable: false` (tests only) starts the embedded server without flushes to disk
 * (THROWAWAY_SETTINGS); benchmarks keep the default, so their figures are those of a real server.
 */
export async function startScratchDatabase(opts: { name: string; dropRoles?: string[]; durable?: boolean }): Promise<ScratchDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const admin = createKnex(serverUrl, { max: 1 });
    await admin.raw(`create database ${opts.name}`);
    await admin.destroy();
    const u = new URL(serverUrl);
    u.pathname = `/${opts.name}`;
    return {
      ownerUrl: u.toString(),
      async stop() {
        const a = createKnex(serverUrl, { max: 1 });
        try {
          await a.raw(`drop database if exists ${opts.name} with (force)`);
          const roles = opts.dropRoles ?? [];
          if (roles.length) await a.raw(`drop owned by ${roles.join(', ')}`).catch(() => undefined);
          for (const role of roles) await a.raw(`drop role if exists ${role}`);
        } finally {
          await a.destroy();
        }
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cp-pg-'));
  const pg = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false, database: opts.name, throwaway: opts.durable === false });
  return { ownerUrl: pg.url, async stop() { await pg.stop(); rmSync(dir, { recursive: true, force: true }); } };
}
