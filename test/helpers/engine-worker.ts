import type { NativeConnection } from '@temporalio/worker';
import type { Knex } from 'knex';
import { createEngineWorker } from '../../temporal/engine-worker';
import type { Config } from '../../src/config';
import type { PlatformDb } from '../../src/db/tenant';
import type { Logger } from '../../src/infra/logger';

/**
 * The test stack's worker on the monitoring engine's queue (config.temporal.engineTaskQueue,
 * workflows/lib/engine-queue.ts): the same worker as `npm run engine` (temporal/engine-worker.ts), the platform's store kept,
 * so the daily batch's, the replays' and the backtests' chunks run in API and workflow tests.
 */
export async function startEngineActivityWorker(opts: { connection: NativeConnection; config: Config; db: Knex; platformDb: PlatformDb; logger: Logger }) {
  const worker = await createEngineWorker({ connection: opts.connection, temporal: opts.config.temporal, db: opts.db, platformDb: opts.platformDb, logger: opts.logger, config: opts.config });
  const run = worker.run();
  return async () => { worker.shutdown(); await run.catch(() => undefined); };
}
