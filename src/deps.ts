import type { Knex } from 'knex';
import type { Config } from './config';
import { createKnex, deriveAppUrl } from './db/knex';
import { logger, type Logger } from './infra/logger';
import { SecretBox } from './lib/secret-box';
import { dispatcher, type DispatchMessages } from './domains/outbox/outbox.dispatch';
import { createOutbox, type Outbox } from './domains/outbox/outbox.enqueue';
import { TemporalClientProvider } from '../temporal/client';

/** Everything the web process needs, built once at start (the composition root). */
export interface Deps {
  config: Config;
  /** Pool of the non-owner application role: every query is subject to row-level security. */
  db: Knex;
  temporal: TemporalClientProvider;
  logger: Logger;
  /** Seals secrets stored in the database (TOTP seeds). */
  secrets: SecretBox;
  /** Writes outgoing messages in the caller's transaction. */
  outbox: Outbox;
  /** Starts the delivery of committed messages (a failed start is left to the sweep). */
  dispatch: DispatchMessages;
}

export function buildDeps(config: Config, urls: { ownerUrl: string; temporalAddress: string }): Deps {
  const appUrl = config.appDatabaseUrl ?? deriveAppUrl(urls.ownerUrl, config.appDbRole, config.appDbPassword);
  const temporal = new TemporalClientProvider(config.temporal, () => urls.temporalAddress);
  return {
    config,
    db: createKnex(appUrl),
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
}
