import { NativeConnection, Runtime, Worker, DefaultLogger } from '@temporalio/worker';
import type { Knex } from 'knex';
import { readFileSync } from 'node:fs';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities/deps';
import type { TemporalConfig } from '../src/config';
import type { Logger } from '../src/infra/logger';
import { workflowBundle } from './bundle';

let runtimeInstalled = false;
function quietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN') });
}

type ActivityConfig = ActivityDeps['config'];

export interface WorkerHandle { worker: Worker; connection: NativeConnection }

export async function createWorker(opts: { temporal: TemporalConfig; address: string; db: Knex; logger: Logger; config: ActivityConfig; webUiUrl?: string }): Promise<WorkerHandle> {
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
    activities: createActivities({ db: opts.db, logger: opts.logger, config: opts.config }),
  });
  return { worker, connection };
}
