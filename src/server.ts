import { createApp, purgeSessionsPeriodically } from './app';
import { answerClientErrors } from './http/client-errors';
import { loadConfigOrExit } from './config';
import { checkTenantKeyAtStart } from './db/tenant';
import { buildDeps, closeDeps } from './deps';
import { logger } from './infra/logger';
import { externalAddresses } from './runtime/infrastructure';
import { Shutdown } from './runtime/shutdown';
import { ensureSearchAttributes } from '../temporal/search-attributes';

/** `npm run web`: the Koa process alone (production), against DATABASE_URL and TEMPORAL_ADDRESS. */
const config = loadConfigOrExit();
const deps = buildDeps(config, externalAddresses(config));
try {
  await checkTenantKeyAtStart(deps.db, (err) => logger.warn({ err }, 'database not reachable at start: tenant-context key not checked'));
  // The web process starts records with search attributes: a namespace without them is a start error, not failed requests later.
  await ensureSearchAttributes((await deps.temporal.get()).connection.operatorService, config.temporal.namespace);
} catch (err) {
  logger.error({ err }, 'web refused to start');
  await closeDeps(deps).catch(() => undefined);
  process.exit(1);
}
const { app, services } = createApp(deps);
const purge = purgeSessionsPeriodically(services.sessions, deps.platformDb);
const server = answerClientErrors(app.listen(config.port, config.host, () => logger.info({ port: config.port }, 'web listening')));
// Requests under way finish (within the step's limit), then the pools close.
const shutdown = new Shutdown({ log: (m) => logger.info(m) });
shutdown.add('connections', () => closeDeps(deps));
shutdown.add('session purge', async () => clearInterval(purge));
shutdown.add('web server', () => new Promise<void>((resolve) => server.close(() => resolve())));
shutdown.listen();
