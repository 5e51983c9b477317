import { loadConfigOrExit } from '../src/config';
import { checkTenantKeyAtStart } from '../src/db/tenant';
import { buildDbPools } from '../src/deps';
import { logger } from '../src/infra/logger';
import { externalAddresses } from '../src/runtime/infrastructure';
import { Shutdown } from '../src/runtime/shutdown';
import { createWorker } from './worker';
import { TemporalClientProvider } from './client';
import { ensureSchedules } from './schedules';

/** `npm run worker`: the Temporal worker alone (production); scale it by running more. */
async function main() {
  const config = loadConfigOrExit();
  const { ownerUrl, temporalAddress } = externalAddresses(config);
  const { db, platformDb } = buildDbPools(config, ownerUrl);
  await checkTenantKeyAtStart(db, (err) => logger.warn({ err }, 'database not reachable at start: tenant-context key not checked'));
  const { worker, connection, sealer, searchAttributesAdded } = await createWorker({ temporal: config.temporal, address: temporalAddress, db, platformDb, logger, config });
  if (searchAttributesAdded.length) logger.info({ namespace: config.temporal.namespace, added: searchAttributesAdded }, 'Temporal search attributes registered');
  const client = new TemporalClientProvider(config.temporal, () => temporalAddress);
  await ensureSchedules(await client.get(), config.temporal.taskQueue, config.temporal.engineTaskQueue);
  await client.close();
  const shutdown = new Shutdown({ log: (m) => logger.info(m) });
  shutdown.add('database', async () => { await db.destroy(); await platformDb.destroy(); });
  shutdown.add('Temporal connection', () => connection.close());
  shutdown.add('audit sealer', () => sealer.stop());
  const run = worker.run();
  // The worker drains (activities under way finish or are cancelled) within the step's limit.
  shutdown.add('worker', async () => { worker.shutdown(); await run; });
  shutdown.listen();
  await run.then(() => shutdown.stop('worker stopped'), (err: unknown) => { logger.error({ err }, 'worker failed'); return shutdown.stop('worker failed', 1); });
}
main().catch((err) => { logger.error({ err }, 'worker failed'); process.exit(1); });
