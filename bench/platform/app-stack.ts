import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, projectRoot } from '../../src/config';
import { buildDeps, closeDeps, type Deps } from '../../src/deps';
import { freePort } from '../../src/infra/free-port';
import { createKnex } from '../../src/db/knex';
import type { Knex } from 'knex';

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
 * `npm start` as a new user runs it, on free ports and a throw-away data directory: the
 * app's own PostgreSQL, Temporal dev server and mail catcher, nothing shared with a
 * development instance. Everything it wrote goes away with stop().
 */
export async function startAppStack(log: (m: string) => void): Promise<AppStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-bench-platform-'));
  // Run as root, embedded PostgreSQL drops to its own user, which must reach its directory inside.
  chmodSync(dataDir, 0o755);
  const ports = { PORT: await freePort(), EMBEDDED_PG_PORT: await freePort(), TEMPORAL_PORT: await freePort(), TEMPORAL_UI_PORT: await freePort(), MAIL_DEV_SMTP_PORT: await freePort(), MAIL_DEV_WEB_PORT: await freePort() };
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
  delete env.DATABASE_URL; delete env.TEMPORAL_ADDRESS; delete env.SMTP_URL; delete env.NODE_ENV;
  const nodeArgs = process.env.BENCH_CPU_PROFILE ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(projectRoot, 'src', 'main.ts')], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      if (output.includes('[start] web on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => { output += b.toString(); });
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before serving:\n${output.slice(-4000)}`)));
  });
  log(`npm start up (pid ${child.pid}, data in ${dataDir})`);
  const config = loadConfig(env);
  const ownerUrl = `postgres://postgres:postgres@127.0.0.1:${ports.EMBEDDED_PG_PORT}/compliance`;
  const temporalAddress = `127.0.0.1:${ports.TEMPORAL_PORT}`;
  const deps = buildDeps(config, { ownerUrl, temporalAddress });
  const owner = createKnex(ownerUrl, { max: 4 });
  await firstImportDone(owner, log);
  return {
    pid: child.pid!, baseUrl: `http://127.0.0.1:${ports.PORT}`, temporalAddress, ownerUrl, owner, deps,
    async stop() {
      await closeDeps(deps).catch(() => undefined);
      await owner.destroy().catch(() => undefined);
      child.kill('SIGINT');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timeout);
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
