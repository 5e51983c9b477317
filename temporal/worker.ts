import { NativeConnection, Runtime, Worker, DefaultLogger } from '@temporalio/worker';
import type { Knex } from 'knex';
import { readFileSync } from 'node:fs';
import { createActivities } from '../activities';
import type { Config, TemporalConfig } from '../src/config';
import type { PlatformDb } from '../src/db/tenant';
import { startAuditSealer, type AuditSealer } from '../src/domains/audit';
import type { Logger } from '../src/infra/logger';
import { workflowBundle } from './bundle';

let runtimeInstalled = false;
function quietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN') });
}

type ActivityConfig = Pick<Config, 'sessionSecret' | 'documentDir' | 'publicBaseUrl'>;

/** The sealer chains the audit events the activities and the web process write; stop it before closing the database. */
export interface WorkerHandle { worker: Worker; connection: NativeConnection; sealer: AuditSealer }

export async function createWorker(opts: { temporal: TemporalConfig; address: string; db: Knex; platformDb: PlatformDb; logger: Logger; config: ActivityConfig; webUiUrl?: string }): Promise<WorkerHandle> {
  quietRuntime();
  const cfg = opts.temporal;
  const connection = await NativeConnection.connect({
    address: opts.address,
    tls: cfg.tlsCertPath && cfg.tlsKeyPath
      ? { clientCertPair: { crt: readFileSync(cfg.tlsCertPath), key: readFileSync(cfg.tlsKeyPath) } }
      : cfg.apiKey ? true : undefined,
    apiKey: cfg.apiKey,
  });
  const worker = await Worker.create({
    connection,
    namespace: cfg.namespace,
    taskQueue: cfg.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities({ db: opts.db, platformDb: opts.platformDb, logger: opts.logger, config: opts.config }),
  });
  return { worker, connection, sealer: startAuditSealer({ db: opts.db, platformDb: opts.platformDb, logger: opts.logger }) };
}
