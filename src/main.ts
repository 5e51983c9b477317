import type { Server } from 'node:http';
import { createKnex } from './db/knex';
import { prepareDatabase } from './db/bootstrap';
import { assertTenantKeyAccepted } from './db/tenant';
import { databaseSetup, loadConfigOrExit } from './config';
import { buildDeps, closeDeps } from './deps';
import { createApp, purgeSessionsPeriodically } from './app';
import { answerClientErrors } from './http/client-errors';
import { logger } from './infra/logger';
import { startInfrastructure } from './runtime/infrastructure';
import { DEMO_TENANT, seedDemo } from './runtime/seed';
import { startDemoYear } from './domains/monitoring';
import { Shutdown, StopRequested } from './runtime/shutdown';
import { createWorker } from '../temporal/worker';
import { createEngineWorker } from '../temporal/engine-worker';
import { ensureSchedules } from '../temporal/schedules';
import { SCREENING_IMPORT_SCHEDULE_ID } from '../workflows/screening/screening.contract';

const say = (m: string) => console.log(`[start] ${m}`);

/**
 * `npm start`: everything in one process tree, with no configuration at all. Each piece
 * registers how it stops as soon as it runs, so that a signal at any moment, start-up
 * included, stops what exists (src/runtime/shutdown.ts).
 */
async function main(shutdown: Shutdown) {
  const config = loadConfigOrExit();
  const infra = await startInfrastructure(config, say);
  shutdown.add('embedded services', () => infra.stop());
  shutdown.check();
  const owner = createKnex(infra.ownerUrl, { max: 2 });
  shutdown.add('owner connections', () => owner.destroy());
  const deps = buildDeps(config, infra);
  shutdown.add('application connections', () => closeDeps(deps));

  const applied = await prepareDatabase(owner, databaseSetup(config));
  say(`database migrated (${applied.length} new migrations)`);
  await assertTenantKeyAccepted(deps.db);
  shutdown.check();
  const demo = config.seedDemo ? await seedDemo(deps.platformDb, config.dataDir) : undefined;
  shutdown.check();
  const { worker, connection, sealer, searchAttributesAdded } = await createWorker({ temporal: config.temporal, address: infra.temporalAddress, db: deps.db, platformDb: deps.platformDb, logger, config });
  shutdown.add('Temporal worker connection', () => connection.close());
  // The sealer writes through the application pools: it stops before they close.
  shutdown.add('audit sealer', () => sealer.stop());
  shutdown.check();
  if (searchAttributesAdded.length) say(`Temporal search attributes registered: ${searchAttributesAdded.join(', ')}`);
  const workerRun = worker.run();
  // A worker that fails on its own (its server gone) takes the whole process tree down with it, children included.
  workerRun.catch((err: unknown) => { if (!shutdown.stopping) { logger.error({ err }, 'worker failed'); void shutdown.stop('worker failed', 1); } });
  shutdown.add('Temporal worker', async () => { worker.shutdown(); await workerRun; });
  // One engine worker in process (`npm run engine` runs more, elsewhere): the daily batch's chunks, replays, backtests, the copy's sync.
  const engine = await createEngineWorker({ connection, temporal: config.temporal, db: deps.db, platformDb: deps.platformDb, logger, config });
  const engineRun = engine.run();
  engineRun.catch((err: unknown) => { if (!shutdown.stopping) { logger.error({ err }, 'engine worker failed'); void shutdown.stop('engine worker failed', 1); } });
  shutdown.add('engine worker', async () => { engine.shutdown(); await engineRun; });
  say(`engine worker on the task queue ${config.temporal.engineTaskQueue}`);
  const schedules = await ensureSchedules(await deps.temporal.get(), config.temporal.taskQueue, config.temporal.engineTaskQueue);
  if (schedules.length) say(`Temporal schedules created: ${schedules.join(', ')}`);
  // A new installation has no sanctions lists yet: run the daily import once now rather than at night.
  const [{ n }] = await owner('screening_list_versions').count({ n: '*' });
  if (Number(n) === 0) {
    await (await deps.temporal.get()).schedule.getHandle(SCREENING_IMPORT_SCHEDULE_ID).trigger();
    say('first sanctions list import started (progress at /admin/screening/import)');
  }
  shutdown.check();
  // A new installation's demo tenant gets a small labelled year (customers, movements, alerts), in the background.
  if (demo && config.seedDemoYear > 0) {
    const job = await startDemoYear(deps, DEMO_TENANT, config.seedDemoYear);
    if (job) say(`demo year: ${job.clienti} customers being generated, imported and replayed in the background (progress at /api/engine/seed/${job.id}; SEED_DEMO_YEAR=0 turns it off)`);
  }
  shutdown.check();

  const { app, services } = createApp(deps);
  const purge = purgeSessionsPeriodically(services.sessions, deps.platformDb);
  shutdown.add('session purge', async () => clearInterval(purge));
  const server: Server = answerClientErrors(app.listen(config.port, config.host));
  shutdown.add('web server', () => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise((resolve, reject) => { server.once('listening', resolve); server.once('error', reject); });
  say(`web on http://localhost:${config.port}`);
  if (infra.mailInboxUrl) say(`outgoing mail stays on this machine: read it at ${infra.mailInboxUrl}`);
  if (demo) {
    say(`demo tenant DEMO; users ${demo.users.join(', ')}; password ${demo.password} (also in .data/demo-password.txt)`);
    say('first sign-in asks each user to enrol an authenticator app (TOTP) at /totp/setup');
  }
}

const shutdown = new Shutdown({ log: say });
// Before anything starts: a signal during start-up stops what has started so far.
shutdown.listen();
main(shutdown).catch((err) => {
  if (err instanceof StopRequested || shutdown.stopping) return; // the stop under way exits
  logger.error({ err }, 'start failed');
  // Leave nothing running behind a failed start.
  void shutdown.stop('start failed', 1);
});
