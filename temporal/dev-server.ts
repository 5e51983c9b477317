import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname } from 'node:path';
import { logger } from '../src/infra/logger';
import { temporalCliPath } from './binaries';
import { searchAttributeDefinitions } from './search-attributes';

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

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`temporal exited with code ${child.exitCode}`);
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
    if (child.exitCode !== null) throw new Error(`temporal exited with code ${child.exitCode}`);
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
 * Starts the official Temporal CLI dev server with the project's search attributes.
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
  }
  for (const [name, type] of Object.entries(searchAttributeDefinitions)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(opts.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  const child = spawn(temporalCliPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => logger.debug({ temporal: String(d).trim() }, 'temporal'));
  child.stderr?.on('data', (d) => logger.debug({ temporal: String(d).trim() }, 'temporal'));
  await waitForPort(opts.port, child, 60_000);
  await waitForFrontend(`127.0.0.1:${opts.port}`, opts.namespace ?? 'default', child, 60_000);
  return {
    address: `127.0.0.1:${opts.port}`,
    uiPort: opts.uiPort,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
