import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../src/infra/free-port';

export interface RunningPlatform {
  /** The `npm start` Node process itself (web and worker); its children are PostgreSQL, Temporal and the mail server. */
  pid: number;
  baseUrl: string;
  dataDir: string;
  /** The environment it runs with (its ports among them). */
  env: Record<string, string | undefined>;
  /** The demo users' password (SEED_DEMO), read from the data directory. */
  demoPassword(): string;
  /** SIGTERM, then the exit code once the process and its children have stopped. */
  stop(): Promise<number | null>;
}

/**
 * Starts what `npm start` starts (src/main.ts of `projectDir`) with every port free, so that it
 * runs beside other installations on the machine, and waits until the web answers. The first
 * start on an empty `dataDir` also imports the sanctions lists (see waitForListImport).
 */
export async function startPlatform(opts: { projectDir: string; dataDir: string; env?: Record<string, string>; nodeArgs?: string[]; log?: (line: string) => void; timeoutMs?: number }): Promise<RunningPlatform> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: opts.dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    EMBEDDED_PG_PORT: String(await freePort()), TEMPORAL_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()),
    MAIL_DEV_SMTP_PORT: String(await freePort()), MAIL_DEV_WEB_PORT: String(await freePort()),
    ...opts.env,
  };
  // As a new user runs `npm start`: no NODE_ENV (a shell's `development` would also turn off the template cache).
  delete env.NODE_ENV;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', 'src/main.ts'], { cwd: opts.projectDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // The last lines it printed go into the error when it fails to start.
  const tail: string[] = [];
  const lines = (chunk: Buffer) => {
    for (const l of String(chunk).split('\n')) {
      if (!l.trim()) continue;
      opts.log?.(l);
      tail.push(l);
      if (tail.length > 30) tail.shift();
    }
  };
  child.stderr.on('data', lines);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not open the web in time:\n${tail.join('\n')}`)), opts.timeoutMs ?? 180_000);
    child.stdout.on('data', (chunk: Buffer) => {
      lines(chunk);
      if (String(chunk).includes('[start] web on')) { clearTimeout(timer); resolve(); }
    });
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`npm start exited with ${code} before the web opened:\n${tail.join('\n')}`)); });
  });
  return {
    pid: child.pid!, baseUrl: `http://127.0.0.1:${port}`, dataDir: opts.dataDir, env,
    demoPassword: () => readFileSync(join(opts.dataDir, 'demo-password.txt'), 'utf8').trim(),
    stop: async () => { child.kill('SIGTERM'); return exited; },
  };
}
