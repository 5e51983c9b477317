import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { bump, bumpWithActivity, bumpWithLocalActivity, bumpWithLocalActivityAndStatus } from './bare.workflow';

export type BareUpdate = 'bump' | 'bumpWithActivity' | 'bumpWithLocalActivity' | 'bumpWithLocalActivityAndStatus';
const UPDATES = { bump, bumpWithActivity, bumpWithLocalActivity, bumpWithLocalActivityAndStatus };

/**
 * The baseline for transitions and creation: a bare Temporal workflow with an update
 * handler, on its own task queue of the same dev server, served by a worker in this
 * process. What the app does on top of this (HTTP, session, checks, projection) is the
 * overhead the ratios show.
 */
export async function startBareTemporal(address: string, namespace = 'default') {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const taskQueue = `bench-bare-${randomUUID().slice(0, 8)}`;
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never;
  const bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./bare.workflow.ts', import.meta.url)), logger: silent });
  const nativeConnection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection: nativeConnection, namespace, taskQueue, workflowBundle: bundle,
    activities: { noop: async (x: string) => x },
  });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  const ids: string[] = [];

  return {
    /** Starts a record workflow and sends its first update in one call (the app's create). */
    async startWithUpdate(): Promise<string> {
      const workflowId = `bare-${randomUUID()}`;
      const start = new WithStartWorkflowOperation('bareRecord', { workflowId, taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' });
      await client.workflow.executeUpdateWithStart(bump, { args: ['create'], startWorkflowOperation: start });
      ids.push(workflowId);
      return workflowId;
    },
    async update(workflowId: string, kind: BareUpdate = 'bump'): Promise<number> {
      return client.workflow.getHandle(workflowId).executeUpdate(UPDATES[kind], { args: ['x'] });
    },
    async stop() {
      // The bench's own workflows end with it: nothing stays open on the dev server.
      await Promise.all(ids.map((id) => client.workflow.getHandle(id).terminate('benchmark done').catch(() => undefined)));
      worker.shutdown();
      await running;
      await connection.close();
      await nativeConnection.close();
    },
  };
}
