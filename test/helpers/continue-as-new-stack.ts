import type { Server } from 'node:http';
import { Client, Connection, type WorkflowExecutionInfo } from '@temporalio/client';
import { createApp } from '../../src/app';
import { buildDeps, closeDeps } from '../../src/deps';
import { freePort } from '../../src/infra/free-port';
import { startTemporalDevServer } from '../../temporal/dev-server';
import { createWorker } from '../../temporal/worker';
import type { TestEnv } from './env';
import { TestClient } from './http-client';
import { nextTotpCode } from './totp';

export interface ContinueAsNewStack extends TestEnv {
  /** Every run of a workflow id, oldest first (a run that continued as new has status CONTINUED_AS_NEW). */
  runsOf(workflowId: string): Promise<WorkflowExecutionInfo[]>;
}

/**
 * A second stack on the shared test database: its own Temporal dev server, which suggests
 * continue-as-new once a history holds `suggestAfterEvents` events (the production default is
 * thousands), with the real worker and web app on it. The workflows' code paths are the
 * production ones: only the server's setting differs, so a journey continues as new again and
 * again. Stop it with `stop()`; the shared stack stays.
 */
export async function startContinueAsNewStack(env: TestEnv, suggestAfterEvents = 40): Promise<ContinueAsNewStack> {
  const temporalServer = await startTemporalDevServer({
    port: await freePort(), dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': suggestAfterEvents },
  });
  const config = env.deps.config;
  const deps = buildDeps(config, { ownerUrl: env.ownerUrl, temporalAddress: temporalServer.address });
  const { worker, connection, sealer } = await createWorker({ temporal: config.temporal, address: temporalServer.address, db: deps.db, platformDb: deps.platformDb, logger: deps.logger, config });
  const workerRun = worker.run();
  const { app } = createApp(deps);
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const temporal = new Client({ connection: await Connection.connect({ address: temporalServer.address }), namespace: config.temporal.namespace });

  return {
    ...env, baseUrl, deps, temporal, temporalAddress: temporalServer.address,
    client: () => new TestClient(baseUrl),
    async login(user) {
      const c = new TestClient(baseUrl);
      const r = await c.post('/auth/login', { username: user.username, password: user.password, totp: nextTotpCode(user.totpSecret) });
      if (r.status !== 200) throw new Error(`login of ${user.username} failed: ${r.status} ${r.text}`);
      return c;
    },
    async runsOf(workflowId) {
      const runs: WorkflowExecutionInfo[] = [];
      for await (const w of temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(w);
      return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
    },
    async stop() {
      await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
      worker.shutdown();
      await workerRun.catch(() => undefined);
      await sealer.stop();
      await connection.close();
      await temporal.connection.close();
      await closeDeps(deps);
      await temporalServer.stop();
    },
  };
}
