import { loadConfigOrExit } from '../src/config';
import { checkTenantKeyAtStart } from '../src/db/tenant';
import { buildDbPools } from '../src/deps';
import { logger } from '../src/infra/logger';
import { externalAddresses } from '../src/runtime/infrastructure';
import { Shutdown } from '../src/runtime/shutdown';
import { engineCopyStore, useEngineReplica, useMonitoringStore } from '../src/domains/monitoring';
import { createAppDb } from '../src/db/knex';
import { createEngineWorker } from './engine-worker';
import { connectWorker } from './worker';

/**
 * `npm run engine`: the monitoring engine alone (docs/monitoring.md, "The engine process and its
 * sync"), a worker on its task queue that reads profiles, rules and lists through the engine's
 * synchronised copy. Scale it by running more, on the same Temporal and PostgreSQL; it needs the
 * platform's worker (`npm run worker` or `npm start`) for the workflows that put work on its queue.
 */
async function main() {
  const config = loadConfigOrExit();
  const { ownerUrl, temporalAddress } = externalAddresses(config);
  const { db, platformDb } = buildDbPools(config, ownerUrl);
  await checkTenantKeyAtStart(db, (err) => logger.warn({ err }, 'database not reachable at start: tenant-context key not checked'));
  useMonitoringStore(engineCopyStore);
  const replica = config.databaseReplicaUrl ? createAppDb(config.databaseReplicaUrl, config.tenantContextKey) : undefined;
  useEngineReplica(replica);
  const connection = await connectWorker(config.temporal, temporalAddress);
  const worker = await createEngineWorker({ connection, temporal: config.temporal, db, platformDb, logger, config });
  const shutdown = new Shutdown({ log: (m) => logger.info(m) });
  shutdown.add('database', async () => { await db.destroy(); await platformDb.destroy(); await replica?.destroy(); });
  shutdown.add('Temporal connection', () => connection.close());
  const run = worker.run();
  logger.info({ taskQueue: config.temporal.engineTaskQueue, identity: worker.options.identity, replica: Boolean(replica) }, 'engine worker started');
  shutdown.add('engine worker', async () => { worker.shutdown(); await run; });
  shutdown.listen();
  await run.then(() => shutdown.stop('engine worker stopped'), (err: unknown) => { logger.error({ err }, 'engine worker failed'); return shutdown.stop('engine worker failed', 1); });
}
main().catch((err) => { logger.error({ err }, 'engine worker failed'); process.exit(1); });
