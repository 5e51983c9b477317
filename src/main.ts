import { createKnex } from './db/knex';
import { prepareDatabase } from './db/bootstrap';
import { loadConfig } from './config';
import { buildDeps, closeDeps } from './deps';
import { createApp, purgeSessionsPeriodically } from './app';
import { answerClientErrors } from './http/client-errors';
import { logger } from './infra/logger';
import { startInfrastructure } from './runtime/infrastructure';
import { seedDemo } from './runtime/seed';
import { createWorker } from '../temporal/worker';
import { ensureSchedules } from '../temporal/schedules';
import { SCREENING_IMPORT_SCHEDULE_ID } from '../workflows/screening/screening.contract';

/** `npm start`: everything in one process tree, with no configuration at all. */
async function main() {
  const config = loadConfig();
  const say = (m: string) => console.log(`[start] ${m}`);
  const infra = await startInfrastructure(config, say);
  const owner = createKnex(infra.ownerUrl, { max: 2 });
  const deps = buildDeps(config, infra);
  let demo: Awaited<ReturnType<typeof seedDemo>> | undefined;
  let started: Awaited<ReturnType<typeof createWorker>>;
  try {
    const applied = await prepareDatabase(owner, config.appDbRole, config.appDbPassword);
    say(`database migrated (${applied.length} new migrations)`);
    demo = config.seedDemo ? await seedDemo(deps.db, config.dataDir) : undefined;
    started = await createWorker({ temporal: config.temporal, address: infra.temporalAddress, db: deps.db, logger, config });
    const schedules = await ensureSchedules(await deps.temporal.get(), config.temporal.taskQueue);
    if (schedules.length) say(`Temporal schedules created: ${schedules.join(', ')}`);
    // A new installation has no sanctions lists yet: run the daily import once now rather than at night.
    const [{ n }] = await owner('screening_list_versions').count({ n: '*' });
    if (Number(n) === 0) {
      await (await deps.temporal.get()).schedule.getHandle(SCREENING_IMPORT_SCHEDULE_ID).trigger();
      say('first sanctions list import started (progress at /admin/screening/import)');
    }
  } catch (err) {
    // Leave nothing running behind a failed start.
    await closeDeps(deps).catch(() => undefined);
    await owner.destroy().catch(() => undefined);
    await infra.stop().catch(() => undefined);
    throw err;
  }
  const { worker, connection } = started;
  const workerRun = worker.run();
  const { app, services } = createApp(deps);
  const purge = purgeSessionsPeriodically(services.sessions);
  const server = answerClientErrors(app.listen(config.port, config.host));
  await new Promise((r) => server.once('listening', r));
  say(`web on http://localhost:${config.port}`);
  if (demo) {
    say(`demo tenant DEMO; users ${demo.users.join(', ')}; password ${demo.password} (also in .data/demo-password.txt)`);
    say('first sign-in asks each user to enrol an authenticator app (TOTP) at /totp/setup');
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    clearInterval(purge);
    server.close();
    worker.shutdown();
    await workerRun.catch(() => undefined);
    await connection.close();
    await closeDeps(deps);
    await owner.destroy();
    await infra.stop();
    say('stopped');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  logger.error({ err }, 'start failed');
  process.exit(1);
});
