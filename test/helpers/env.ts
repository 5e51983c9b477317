import { Client, Connection } from '@temporalio/client';
import { startScratchDatabase } from '../../src/infra/scratch-database';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createApp } from '../../src/app';
import { answerClientErrors } from '../../src/http/client-errors';
import { databaseSetup, loadConfig } from '../../src/config';
import { prepareDatabase } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import { assertTenantKeyAccepted, withPlatform } from '../../src/db/tenant';
import { buildDeps, closeDeps, type Deps } from '../../src/deps';
import { createAzienda, createUtente } from '../../src/domains/admin/admin.commands';
import type { Role } from '../../src/kit/roles';
import { freePort } from '../../src/infra/free-port';
import { startDevMailServer, type DevMailServer } from '../../src/infra/mail/dev-mail-server';
import { startTemporalDevServer } from '../../temporal/dev-server';
import { workflowBundle } from '../../temporal/bundle';
import { createWorker } from '../../temporal/worker';
import type { RouteDeclaration } from '../../src/kit/routes';
import { startEngineActivityWorker } from './engine-worker';
import { TestClient } from './http-client';
import { Mailbox } from './mailbox';
import { nextTotpCode, randomTotpSecret } from './totp';

export interface TestUser {
  cod_utente: string;
  cod_azienda: string | null;
  username: string;
  password: string;
  totpSecret: string;
  ruoli: Role[];
}

export interface TestEnv {
  baseUrl: string;
  /** Owner connection: bypasses nothing by itself, but may alter tables (tamper tests). */
  ownerDb: Knex;
  ownerUrl: string;
  deps: Deps;
  temporal: Client;
  temporalAddress: string;
  /** Every route the app declared (method, path, who may call it). */
  routes: RouteDeclaration[];
  /** Every route the Koa router actually serves, declared or not. */
  registered: { methods: string[]; path: string }[];
  /** The local SMTP server every message of the stack goes to. */
  mail: DevMailServer;
  /** Reads what reached it (codes, links), as the recipient would. */
  mailbox: Mailbox;
  createTenant(code?: string): Promise<string>;
  createUser(opts: { tenant: string | null; roles: Role[]; totp?: boolean; username?: string }): Promise<TestUser>;
  /** A client signed in through POST /auth/login with password and TOTP. */
  login(user: TestUser): Promise<TestClient>;
  client(): TestClient;
  /** Tests sign in from loopback: clears its failure counter so one suite's failures never block another. */
  resetLoopbackThrottle(): Promise<void>;
  stop(): Promise<void>;
}

let envPromise: Promise<TestEnv> | undefined;

/** One real stack per test run, started on first use: PostgreSQL, Temporal dev server, worker, web. */
export function getTestEnv(): Promise<TestEnv> {
  envPromise ??= startTestEnv();
  return envPromise;
}

/** The shared stack if some test file started it (hooks that inspect it must not start it). */
export const startedTestEnv = (): Promise<TestEnv> | undefined => envPromise;

export async function stopTestEnv(): Promise<void> {
  if (!envPromise) return;
  const env = await envPromise.catch(() => undefined);
  envPromise = undefined;
  await env?.stop();
}

async function startTestEnv(): Promise<TestEnv> {
  process.env.NODE_ENV = 'test';
  // The worker's bundle (webpack, in a child process) is built while PostgreSQL and Temporal start.
  workflowBundle().catch(() => undefined);
  const stops: (() => Promise<void>)[] = [];
  const mail = await startDevMailServer({ smtpPort: await freePort(), webPort: await freePort() });
  stops.push(() => mail.stop());
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false', SMTP_URL: `smtp://127.0.0.1:${mail.smtpPort}` });
  const scratch = await startScratchDatabase({ name: `cp_test_${randomBytes(4).toString('hex')}`, durable: false });
  const { ownerUrl } = scratch;
  stops.push(() => scratch.stop());
  const ownerDb = createKnex(ownerUrl, { max: 3 });
  await prepareDatabase(ownerDb, databaseSetup(config));

  const temporalServer = await startTemporalDevServer({ port: await freePort() });
  stops.push(() => temporalServer.stop());
  const deps = buildDeps(config, { ownerUrl, temporalAddress: temporalServer.address });
  await assertTenantKeyAccepted(deps.db);
  const { worker, connection, sealer } = await createWorker({ temporal: config.temporal, address: temporalServer.address, db: deps.db, platformDb: deps.platformDb, logger: deps.logger, config });
  const workerRun = worker.run();
  const stopEngine = await startEngineActivityWorker({ connection, config, db: deps.db, platformDb: deps.platformDb, logger: deps.logger });
  const stopWorker = async () => { await stopEngine(); worker.shutdown(); await workerRun.catch(() => undefined); await sealer.stop(); await connection.close(); };

  const { app, routes, router } = createApp(deps);
  const server: Server = await new Promise((resolve) => { const s = answerClientErrors(app.listen(0, '127.0.0.1', () => resolve(s))); });
  const port = (server.address() as { port: number }).port;
  const temporal = new Client({ connection: await Connection.connect({ address: temporalServer.address }), namespace: config.temporal.namespace });
  // Reverse order of start: web, worker, connections, then the servers they used.
  stops.push(async () => { await temporal.connection.close(); await closeDeps(deps); });
  stops.push(stopWorker);
  stops.push(() => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }));

  const baseUrl = `http://127.0.0.1:${port}`;
  let tenantSeq = 0;
  let userSeq = 0;
  const env: TestEnv = {
    baseUrl, ownerDb, ownerUrl, deps, temporal, temporalAddress: temporalServer.address, mail, mailbox: new Mailbox(mail.webUrl),
    routes: routes.declared,
    registered: router.stack.map((l) => ({ methods: [...l.methods], path: String(l.path) })),
    async createTenant(code) {
      const cod = code ?? `T${Date.now().toString(36).toUpperCase().slice(-5)}${++tenantSeq}`;
      await withPlatform(deps.platformDb, 'test', (trx) => createAzienda(trx, { cod_azienda: cod, ragione_sociale: `Azienda di prova ${cod} S.r.l.`, tipo_intermediario: 'banca' }, 'test'));
      return cod;
    },
    async createUser({ tenant, roles, totp = true, username }) {
      const password = `Pw-${randomBytes(9).toString('base64url')}`;
      const name = username ?? `u${++userSeq}_${roles.join('_')}_${randomBytes(2).toString('hex')}`;
      const totpSecret = randomTotpSecret();
      const row = await withPlatform(deps.platformDb, 'test', async (trx) => {
        const u = await createUtente(trx, { cod_azienda: tenant, username: name, email: `${name}@example.test`, nome: 'Prova', cognome: name, password, ruoli: roles }, 'test');
        if (totp) await trx('utenti').where({ cod_utente: u.cod_utente }).update({ totp_secret: deps.secrets.seal(totpSecret), totp_enabled: true });
        return u;
      });
      return { cod_utente: row.cod_utente, cod_azienda: tenant, username: name, password, totpSecret, ruoli: roles };
    },
    async login(user) {
      const c = new TestClient(baseUrl);
      const r = await c.post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
      if (r.status !== 200) throw new Error(`login of ${user.username} failed: ${r.status} ${r.text}`);
      return c;
    },
    client: () => new TestClient(baseUrl),
    async resetLoopbackThrottle() {
      await ownerDb('login_throttle').where('key', 'like', 'ip:%127.0.0.1').orWhere('key', 'ip:::1').delete();
    },
    async stop() {
      for (const s of stops.reverse()) await s().catch((e) => console.error('teardown step failed', e));
      await ownerDb.destroy();
    },
  };
  return env;
}
