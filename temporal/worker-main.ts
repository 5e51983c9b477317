import { loadConfig } from '../src/config';
import { createKnex, deriveAppUrl } from '../src/db/knex';
import { logger } from '../src/infra/logger';
import { externalAddresses } from '../src/runtime/infrastructure';
import { Shutdown } from '../src/runtime/shutdown';
import { createWorker } from './worker';
import { TemporalClientProvider } from './client';
import { ensureSchedules } from './schedules';

/** `npm run worker`: the Temporal worker alone (production); scale it by running more. */
async function main() {
  const config = loadConfig();
  const { ownerUrl, temporalAddress } = externalAddresses(config);
  const db = createKnex(config.appDatabaseUrl ?? deriveAppUrl(ownerUrl, config.appDbRole, config.appDbPassword));
  const { worker, connection, searchAttributesAdded } = await createWorker({ temporal: config.temporal, address: temporalAddress, db, logger, config });
  if (searchAttributesAdded.length) logger.info({ namespace: config.temporal.namespace, added: searchAttributesAdded }, 'Temporal search attributes registered');
  const client = new TemporalClientProvider(config.temporal, () => temporalAddress);
  await ensureSchedules(await client.get(), config.temporal.taskQueue);
  await client.close();
  const shutdown = new Shutdown({ log: (m) => logger.info(m) });
  shutdown.add('database', () => db.destroy());
  shutdown.add('Temporal connection', () => connection.close());
  const run = worker.run();
  // The worker drains (activities under way finish or are cancelled) within the step's limit.
  shutdown.add('worker', async () => { worker.shutdown(); await run; });
  shutdown.listen();
  await run.then(() => shutdown.stop('worker stopped'), (err: unknown) => { logger.error({ err }, 'worker failed'); return shutdown.stop('worker failed', 1); });
}
main().catch((err) => { logger.error({ err }, 'worker failed'); process.exit(1); });
