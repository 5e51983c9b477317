import type { Server } from 'node:http';
import { createServer, connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createApp } from '../../src/app';
import { buildDeps, closeDeps, type Deps } from '../../src/deps';
import { answerClientErrors } from '../../src/http/client-errors';
import { workflowBundle } from '../../temporal/bundle';
import type { TestEnv, TestUser } from './env';
import { TestClient } from './http-client';
import { nextTotpCode } from './totp';

/**
 * A TCP relay in front of PostgreSQL that can be cut: the open connections are reset and new
 * ones refused, as when the server goes down; restoring lets connections through again.
 */
export class DbRelay {
  private readonly sockets = new Set<Socket>();
  private down = false;
  private constructor(private readonly server: ReturnType<typeof createServer>, readonly port: number) {}

  static async start(target: { host: string; port: number }): Promise<DbRelay> {
    const holder: { relay?: DbRelay } = {};
    const server = createServer((client) => {
      const relay = holder.relay;
      if (!relay || relay.down) { client.destroy(); return; }
      const upstream = connect(target.port, target.host);
      for (const s of [client, upstream]) {
        relay.sockets.add(s);
        s.on('close', () => relay.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    holder.relay = new DbRelay(server, (server.address() as { port: number }).port);
    return holder.relay;
  }

  cut() {
    this.down = true;
    for (const s of this.sockets) s.destroy();
  }

  restore() { this.down = false; }

  async stop() {
    this.cut();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

export interface OutageStack {
  baseUrl: string;
  deps: Deps;
  relay: DbRelay;
  login(user: TestUser): Promise<TestClient>;
  /** Stops the stack's workers, the platform's and the engine's (as if killed): workflow updates find no one to run them. */
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  /** Runs `before` just before the named activity, once, on its next call (to cut the database mid-transition). */
  beforeActivity(name: string, before: () => void): void;
  stop(): Promise<void>;
}

/**
 * A second web app and worker on the shared database and Temporal server, reaching
 * PostgreSQL through a relay that can be cut, on a task queue of their own (so the shared
 * worker never runs their activities).
 */
export async function startOutageStack(env: TestEnv): Promise<OutageStack> {
  const owner = new URL(env.ownerUrl);
  const relay = await DbRelay.start({ host: owner.hostname, port: Number(owner.port || 5432) });
  const relayedOwnerUrl = new URL(env.ownerUrl);
  relayedOwnerUrl.hostname = '127.0.0.1';
  relayedOwnerUrl.port = String(relay.port);
  const queue = `outage-${randomUUID()}`;
  // The engine's queue of its own too: the monitoring chunks of this stack run on its relayed database.
  const config = { ...env.deps.config, temporal: { ...env.deps.config.temporal, taskQueue: queue, engineTaskQueue: `${queue}-engine` } };
  const deps = buildDeps(config, { ownerUrl: relayedOwnerUrl.toString(), temporalAddress: env.temporalAddress });
  const hooks = new Map<string, () => void>();

  const activities = Object.fromEntries(Object.entries(createActivities({ db: deps.db, platformDb: deps.platformDb, logger: deps.logger, config }))
    .map(([name, fn]) => [name, async (...args: never[]) => {
      const hook = hooks.get(name);
      if (hook) { hooks.delete(name); hook(); }
      return fn(...args);
    }]));
  let worker: { w: Worker; engine: Worker; connection: NativeConnection; run: Promise<void> } | undefined;
  const startWorker = async () => {
    const connection = await NativeConnection.connect({ address: env.temporalAddress });
    const w = await Worker.create({ connection, namespace: config.temporal.namespace, taskQueue: config.temporal.taskQueue, workflowBundle: await workflowBundle(), activities });
    const engine = await Worker.create({ connection, namespace: config.temporal.namespace, taskQueue: config.temporal.engineTaskQueue, activities });
    worker = { w, engine, connection, run: Promise.all([w.run(), engine.run()]).then(() => undefined) };
  };
  const stopWorker = async () => {
    if (!worker) return;
    worker.w.shutdown();
    worker.engine.shutdown();
    await worker.run.catch(() => undefined);
    await worker.connection.close();
    worker = undefined;
  };
  await startWorker();

  const { app } = createApp(deps);
  const server: Server = await new Promise((resolve) => { const s = answerClientErrors(app.listen(0, '127.0.0.1', () => resolve(s))); });
  const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    baseUrl, deps, relay, stopWorker, startWorker,
    async login(user) {
      const c = new TestClient(baseUrl);
      const r = await c.post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
      if (r.status !== 200) throw new Error(`login of ${user.username} failed: ${r.status} ${r.text}`);
      return c;
    },
    beforeActivity: (name, before) => { hooks.set(name, before); },
    async stop() {
      relay.restore();
      await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
      await stopWorker();
      await closeDeps(deps);
      await relay.stop();
    },
  };
}
