import { createApp, purgeSessionsPeriodically } from './app';
import { answerClientErrors } from './http/client-errors';
import { loadConfig } from './config';
import { buildDeps, closeDeps } from './deps';
import { logger } from './infra/logger';
import { externalAddresses } from './runtime/infrastructure';

/** `npm run web`: the Koa process alone (production), against DATABASE_URL and TEMPORAL_ADDRESS. */
const config = loadConfig();
const deps = buildDeps(config, externalAddresses(config));
const { app, services } = createApp(deps);
const purge = purgeSessionsPeriodically(services.sessions);
const server = answerClientErrors(app.listen(config.port, config.host, () => logger.info({ port: config.port }, 'web listening')));
const stop = () => {
  clearInterval(purge);
  server.close(() => void closeDeps(deps).then(() => process.exit(0)));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
