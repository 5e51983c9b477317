import { createApp, purgeSessionsPeriodically } from './app';
import { loadConfigOrExit } from './config';
import { checkTenantKeyAtStart } from './db/tenant';
import { buildDeps, closeDeps } from './deps';
import { logger } from './infra/logger';
import { externalAddresses } from './runtime/infrastructure';

/** `npm run web`: the Koa process alone (production), against DATABASE_URL and TEMPORAL_ADDRESS. */
const config = loadConfigOrExit();
const deps = buildDeps(config, externalAddresses(config));
try {
  await checkTenantKeyAtStart(deps.db, (err) => logger.warn({ err }, 'database not reachable at start: tenant-context key not checked'));
} catch (err) {
  logger.error({ err }, 'web refused to start');
  await closeDeps(deps);
  process.exit(1);
}
const { app, services } = createApp(deps);
const purge = purgeSessionsPeriodically(services.sessions, deps.platformDb);
const server = app.listen(config.port, config.host, () => logger.info({ port: config.port }, 'web listening'));
const stop = () => {
  clearInterval(purge);
  server.close(() => void closeDeps(deps).then(() => process.exit(0)));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
