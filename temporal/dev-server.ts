import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname } from 'node:path';
import { logger } from '../src/infra/logger';
import { temporalCliPath } from './binaries';

export interface RunningTemporal {
  address: string;
  uiPort: number | undefined;
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/** Ended by itself or by a signal (a signalled child has no exit code). */
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
const exitError = (child: ChildProcess) => new Error(`temporal exited (${child.signalCode ?? `code ${child.exitCode}`})`);

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(child)) throw exitError(child);
    if (await portOpen(port)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Temporal dev server did not open port ${port} in ${timeoutMs} ms`);
}

/**
 * An open port is not a ready server: the frontend answers "not healthy yet" for a while,
 * and a worker connecting then fails. Ready means the namespace can be described.
 */
async function waitForFrontend(address: string, namespace: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    if (exited(child)) throw exitError(child);
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 2_000 });
      await connection.workflowService.describeNamespace({ namespace });
      return;
    } catch (err) {
      last = err;
    } finally {
      await connection?.close().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Temporal dev server at ${address} not ready in ${timeoutMs} ms: ${String(last)}`);
}

/**
 * Starts the official Temporal CLI dev server. Its search attributes are not given as flags:
 * the application registers them at start on whatever cluster it is given (search-attributes.ts).
 * `dbFile` undefined keeps state in memory (tests); otherwise a SQLite file (npm start).
 */
export async function startTemporalDevServer(opts: {
  port: number;
  uiPort?: number;
  dbFile?: string;
  namespace?: string;
  /** Server dynamic configuration (tests: for example a low `limit.historyCount.suggestContinueAsNew`). */
  dynamicConfig?: Record<string, string | number | boolean>;
}): Promise<RunningTemporal> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'error',
    '--namespace', opts.namespace ?? 'default'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    mkdirSync(dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
    // A write-ahead log synced at checkpoints rather than at every commit: each workflow task and
    // each visibility update is a commit, and a full fsync for each held a transition to the
    // disk's pace. A crash of the machine may lose the last moments of this development server's
    // history, never corrupt it; production runs a Temporal cluster (TEMPORAL_ADDRESS).
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  for (const [key, value] of Object.entries(opts.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  // Its own process group: a Ctrl-C in the terminal reaches `npm start` alone, which stops its worker before this server.
  const child = spawn(temporalCliPath(), args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.on('data', (d) => logger.debug({ temporal: String(d).trim() }, 'temporal'));
  child.stderr?.on('data', (d) => logger.debug({ temporal: String(d).trim() }, 'temporal'));
  const kill = (signal: NodeJS.Signals) => {
    if (exited(child) || !child.pid) return;
    try { process.kill(-child.pid, signal); } catch { /* already gone */ }
  };
  // The last resort when this process ends without stopping it (an uncaught error, process.exit); SIGKILL cannot be caught.
  const onExit = () => kill('SIGTERM');
  process.on('exit', onExit);
  const stop = () =>
    new Promise<void>((resolve) => {
      process.off('exit', onExit);
      if (exited(child)) return resolve();
      child.once('exit', () => resolve());
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 10_000).unref();
    });
  try {
    await waitForPort(opts.port, child, 60_000);
    await waitForFrontend(`127.0.0.1:${opts.port}`, opts.namespace ?? 'default', child, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address: `127.0.0.1:${opts.port}`, uiPort: opts.uiPort, stop };
}
