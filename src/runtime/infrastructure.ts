import { join } from 'node:path';
import type { Config } from '../config';
import { startEmbeddedPostgres, type RunningPostgres } from '../infra/embedded-pg';
import { startDevMailServer, type DevMailServer } from '../infra/mail/dev-mail-server';
import { usesDevSmtp } from '../infra/mail/mail-sender';
import { startTemporalDevServer, type RunningTemporal } from '../../temporal/dev-server';

export interface Infrastructure {
  ownerUrl: string;
  temporalAddress: string;
  /** The local SMTP server's inbox, when no relay is configured. */
  mailInboxUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * External services when configured (DATABASE_URL, TEMPORAL_ADDRESS, SMTP_URL), otherwise
 * the embedded ones: PostgreSQL from npm, the Temporal CLI dev server (state under .data/)
 * and a local SMTP server with a web inbox.
 */
export async function startInfrastructure(config: Config, log: (m: string) => void): Promise<Infrastructure> {
  let pg: RunningPostgres | undefined;
  let temporal: RunningTemporal | undefined;
  const ownerUrl = config.databaseUrl ?? (pg = await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), port: config.embeddedPgPort })).url;
  if (pg) log(`PostgreSQL (embedded) on 127.0.0.1:${config.embeddedPgPort}, data in ${join(config.dataDir, 'pg')}`);
  let temporalAddress = config.temporal.address;
  let mail: DevMailServer | undefined;
  try {
    if (!temporalAddress) {
      temporal = await startTemporalDevServer({ port: Number(process.env.TEMPORAL_PORT ?? 7233), uiPort: Number(process.env.TEMPORAL_UI_PORT ?? 8233), dbFile: join(config.dataDir, 'temporal.db'), namespace: config.temporal.namespace });
      temporalAddress = temporal.address;
      log(`Temporal dev server on ${temporalAddress}, Web UI on http://localhost:${temporal.uiPort}`);
    }
    if (usesDevSmtp(config.mail)) {
      mail = await startDevMailServer({ smtpPort: config.mail.devSmtpPort, webPort: config.mail.devWebPort });
      log(`mail (development): SMTP on 127.0.0.1:${mail.smtpPort}, inbox on ${mail.webUrl}`);
    } else {
      log(`mail: SMTP relay ${config.mail.smtpUrl ? new URL(config.mail.smtpUrl).host : config.mail.smtpHost}`);
    }
  } catch (err) {
    await temporal?.stop();
    await pg?.stop();
    throw err;
  }
  return {
    ownerUrl,
    temporalAddress,
    mailInboxUrl: mail?.webUrl,
    async stop() {
      await mail?.stop();
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
