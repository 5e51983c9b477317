import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import type { Config } from '../../src/config';
import type { PlatformDb } from '../../src/db/tenant';
import type { Logger } from '../../src/infra/logger';

/**
 * The test stack's worker on the monitoring engine's queue (config.temporal.engineTaskQueue,
 * workflows/lib/engine-queue.ts): activities only, the registry's, as `npm run engine` serves them,
 * so the daily batch's, the replays' and the backtests' chunks run in API and workflow tests.
 */
export async function startEngineActivityWorker(opts: { connection: NativeConnection; config: Config; db: Knex; platformDb: PlatformDb; logger: Logger }) {
  const worker = await Worker.create({
    connection: opts.connection, namespace: opts.config.temporal.namespace, taskQueue: opts.config.temporal.engineTaskQueue,
    activities: createActivities({ db: opts.db, platformDb: opts.platformDb, logger: opts.logger, config: opts.config as ActivityDeps['config'] }),
  });
  const run = worker.run();
  return async () => { worker.shutdown(); await run.catch(() => undefined); };
}
