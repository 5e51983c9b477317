import type { Knex } from 'knex';
import type { Config } from './config';
import { createKnex, deriveAppUrl } from './db/knex';
import { logger, type Logger } from './infra/logger';
import { SecretBox } from './lib/secret-box';
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
}

export function buildDeps(config: Config, urls: { ownerUrl: string; temporalAddress: string }): Deps {
  const appUrl = config.appDatabaseUrl ?? deriveAppUrl(urls.ownerUrl, config.appDbRole, config.appDbPassword);
  return {
    config,
    db: createKnex(appUrl),
    temporal: new TemporalClientProvider(config.temporal, () => urls.temporalAddress),
    logger,
    secrets: new SecretBox(config.secretBoxKey),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.temporal.close();
  await deps.db.destroy();
}
