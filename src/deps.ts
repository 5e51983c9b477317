import type { Knex } from 'knex';
import type { Config } from './config';
import { createAppDb, createPlatformDb, deriveRoleUrl } from './db/knex';
import type { PlatformDb } from './db/tenant';
import { logger, type Logger } from './infra/logger';
import { SecretBox } from './lib/secret-box';
import { dispatcher, type DispatchMessages } from './domains/outbox';
import { createOutbox, type Outbox } from './domains/outbox';
import { TemporalClientProvider } from '../temporal/client';

/** Everything the web process needs, built once at start (the composition root). */
export interface Deps {
  config: Config;
  /** Pool of the application role: every query sees the signed tenant of its transaction only (withTenant). */
  db: Knex;
  /** Pool of the platform role, for platform-wide work only (withPlatform): its policies show every tenant. */
  platformDb: PlatformDb;
  temporal: TemporalClientProvider;
  logger: Logger;
  /** Seals secrets stored in the database (TOTP seeds). */
  secrets: SecretBox;
  /** Writes outgoing messages in the caller's transaction. */
  outbox: Outbox;
  /** Starts the delivery of committed messages (a failed start is left to the sweep). */
  dispatch: DispatchMessages;
}

/** The two database pools of web and worker, from the configuration and the owner URL they derive from. */
export function buildDbPools(config: Config, ownerUrl: string): { db: Knex; platformDb: PlatformDb } {
  return {
    db: createAppDb(config.appDatabaseUrl ?? deriveRoleUrl(ownerUrl, config.appDbRole, config.appDbPassword), config.tenantContextKey),
    platformDb: createPlatformDb(config.platformDatabaseUrl ?? deriveRoleUrl(ownerUrl, config.platformDbRole, config.platformDbPassword)),
  };
}

export function buildDeps(config: Config, urls: { ownerUrl: string; temporalAddress: string }): Deps {
  const temporal = new TemporalClientProvider(config.temporal, () => urls.temporalAddress);
  return {
    config,
    ...buildDbPools(config, urls.ownerUrl),
    temporal,
    logger,
    secrets: new SecretBox(config.secretBoxKey),
    outbox: createOutbox(config),
    dispatch: dispatcher(() => temporal.get(), config.temporal.taskQueue, logger),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.temporal.close();
  await deps.db.destroy();
  await deps.platformDb.destroy();
}
