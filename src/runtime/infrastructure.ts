import { join } from 'node:path';
import type { Config } from '../config';
import { startEmbeddedPostgres, type RunningPostgres } from '../infra/embedded-pg';
import { startTemporalDevServer, type RunningTemporal } from '../../temporal/dev-server';

export interface Infrastructure {
  ownerUrl: string;
  temporalAddress: string;
  stop(): Promise<void>;
}

/**
 * External services when configured (DATABASE_URL, TEMPORAL_ADDRESS), otherwise the
 * embedded ones: PostgreSQL from npm and the Temporal CLI dev server, state under .data/.
 */
export async function startInfrastructure(config: Config, log: (m: string) => void): Promise<Infrastructure> {
  let pg: RunningPostgres | undefined;
  let temporal: RunningTemporal | undefined;
  const ownerUrl = config.databaseUrl ?? (pg = await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), port: config.embeddedPgPort })).url;
  if (pg) log(`PostgreSQL (embedded) on 127.0.0.1:${config.embeddedPgPort}, data in ${join(config.dataDir, 'pg')}`);
  let temporalAddress = config.temporal.address;
  if (!temporalAddress) {
    try {
      temporal = await startTemporalDevServer({ port: Number(process.env.TEMPORAL_PORT ?? 7233), uiPort: Number(process.env.TEMPORAL_UI_PORT ?? 8233), dbFile: join(config.dataDir, 'temporal.db'), namespace: config.temporal.namespace });
    } catch (err) {
      await pg?.stop();
      throw err;
    }
    temporalAddress = temporal.address;
    log(`Temporal dev server on ${temporalAddress}, Web UI on http://localhost:${temporal.uiPort}`);
  }
  return {
    ownerUrl,
    temporalAddress,
    async stop() {
      await temporal?.stop();
      await pg?.stop();
    },
  };
}

/** Addresses for `npm run web` / `npm run worker` run on their own next to `npm start`'s services. */
export function externalAddresses(config: Config) {
  return {
    ownerUrl: config.databaseUrl ?? `postgres://postgres:postgres@127.0.0.1:${config.embeddedPgPort}/compliance`,
    temporalAddress: config.temporal.address ?? '127.0.0.1:7233',
  };
}
