import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { loadConfig, projectRoot } from '../../src/config';
import { createKnex } from '../../src/db/knex';
import { buildDeps, closeDeps, type Deps } from '../../src/deps';
import { startPlatform } from '../lib/platform-process';

export interface AppStack {
  /** The `npm start` process (web and worker in one Node process). */
  pid: number;
  baseUrl: string;
  temporalAddress: string;
  ownerUrl: string;
  /** The owner's connection: seeding and clean-up. */
  owner: Knex;
  /** This process's own pools and clients with the app's configuration (seeding users, the bare baseline). */
  deps: Deps;
  stop(): Promise<void>;
}

/**
 * `npm start` as a new user runs it (bench/lib/platform-process.ts), on a throw-away data
 * directory: the app's own PostgreSQL, Temporal dev server and mail catcher, nothing shared
 * with a development instance. Everything it wrote goes away with stop().
 */
export async function startAppStack(log: (m: string) => void): Promise<AppStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-bench-platform-'));
  // Run as root, embedded PostgreSQL drops to its own user, which must reach its directory inside.
  chmodSync(dataDir, 0o755);
  const nodeArgs = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  // BENCH_APP_LOG=<file> keeps the app's own warnings (a failed start, a retried activity) for reading after the run.
  const appLog = process.env.BENCH_APP_LOG;
  const platform = await startPlatform({
    projectDir: projectRoot, dataDir, nodeArgs, env: { SEED_DEMO: 'false', LOG_LEVEL: 'warn' },
    ...(appLog ? { log: (line: string) => appendFileSync(appLog, `${line}\n`) } : {}),
  });
  log(`npm start up (pid ${platform.pid}, data in ${dataDir})`);
  const env: NodeJS.ProcessEnv = { ...platform.env, DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined };
  const config = loadConfig(env);
  const ownerUrl = `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/compliance`;
  const temporalAddress = `127.0.0.1:${env.TEMPORAL_PORT}`;
  const deps = buildDeps(config, { ownerUrl, temporalAddress });
  const owner = createKnex(ownerUrl, { max: 4 });
  await firstImportDone(owner, log);
  return {
    pid: platform.pid, baseUrl: platform.baseUrl, temporalAddress, ownerUrl, owner, deps,
    async stop() {
      await closeDeps(deps).catch(() => undefined);
      await owner.destroy().catch(() => undefined);
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new installation imports the sanctions lists at once (src/main.ts): nothing is measured
 * while that import holds the cores, and the memory figures include the loaded index.
 */
async function firstImportDone(owner: Knex, log: (m: string) => void) {
  const started = Date.now();
  for (;;) {
    const runs = await owner('screening_import_runs').select('status').catch(() => [] as { status: string }[]);
    if (runs.length && runs.every((r) => r.status !== 'running')) break;
    if (Date.now() - started > 15 * 60_000) throw new Error('the first sanctions import did not finish in 15 minutes');
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(`first sanctions import finished after ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
