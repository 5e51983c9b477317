import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Knex } from 'knex';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities/deps';
import type { TemporalConfig } from '../src/config';
import type { PlatformDb } from '../src/db/tenant';
import type { Logger } from '../src/infra/logger';
import { engineInstance } from '../src/domains/monitoring';

/**
 * A worker on the monitoring engine's task queue (config.temporal.engineTaskQueue,
 * workflows/lib/engine-queue.ts; docs/monitoring.md, "The engine process and its sync"):
 * activities only (the daily batch's chunks, replays, backtests, the copy's sync, the pilot's
 * read), no workflows, so any number of them scale the engine's work on their own. It registers
 * the registry's activities: the engine's are those the workflows put on its queue. Its identity
 * names the engine instance, as the decisions and the health do.
 */
export async function createEngineWorker(opts: {
  connection: NativeConnection; temporal: TemporalConfig; db: Knex; platformDb: PlatformDb; logger: Logger; config: ActivityDeps['config'];
}): Promise<Worker> {
  return Worker.create({
    connection: opts.connection, namespace: opts.temporal.namespace, taskQueue: opts.temporal.engineTaskQueue, identity: `motore ${engineInstance()}`,
    activities: createActivities({ db: opts.db, platformDb: opts.platformDb, logger: opts.logger, config: opts.config }),
  });
}
