import { loadConfigOrExit } from '../src/config';
import { checkTenantKeyAtStart } from '../src/db/tenant';
import { buildDbPools } from '../src/deps';
import { logger } from '../src/infra/logger';
import { externalAddresses } from '../src/runtime/infrastructure';
import { createWorker } from './worker';
import { TemporalClientProvider } from './client';
import { ensureSchedules } from './schedules';

/** `npm run worker`: the Temporal worker alone (production); scale it by running more. */
async function main() {
  const config = loadConfigOrExit();
  const { ownerUrl, temporalAddress } = externalAddresses(config);
  const { db, platformDb } = buildDbPools(config, ownerUrl);
  await checkTenantKeyAtStart(db, (err) => logger.warn({ err }, 'database not reachable at start: tenant-context key not checked'));
  const { worker, connection, sealer } = await createWorker({ temporal: config.temporal, address: temporalAddress, db, platformDb, logger, config });
  const client = new TemporalClientProvider(config.temporal, () => temporalAddress);
  await ensureSchedules(await client.get(), config.temporal.taskQueue);
  await client.close();
  const stop = () => worker.shutdown();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await worker.run();
  await sealer.stop();
  await connection.close();
  await db.destroy();
  await platformDb.destroy();
}
main().catch((err) => { logger.error({ err }, 'worker failed'); process.exit(1); });
