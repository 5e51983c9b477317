import { NativeConnection, Runtime, Worker, DefaultLogger } from '@temporalio/worker';
import type { Knex } from 'knex';
import { readFileSync } from 'node:fs';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities/deps';
import type { TemporalConfig } from '../src/config';
import type { PlatformDb } from '../src/db/tenant';
import { startAuditSealer, type AuditSealer } from '../src/domains/audit';
import type { Logger } from '../src/infra/logger';
import { workflowBundle } from './bundle';
import { ensureSearchAttributes } from './search-attributes';
import { workflowCacheOptions } from './workflow-cache';

let runtimeInstalled = false;
function quietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // No shutdownSignals: the process that runs the worker decides how it stops (src/runtime/shutdown.ts, worker-main.ts).
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN') ?? 'WARN'), shutdownSignals: [] });
}

/** The workers' connection (the Core runtime installed quiet first). */
export function connectWorker(cfg: TemporalConfig, address: string): Promise<NativeConnection> {
  quietRuntime();
  return NativeConnection.connect({
    address,
    tls: cfg.tlsCertPath && cfg.tlsKeyPath
      ? { clientCertPair: { crt: readFileSync(cfg.tlsCertPath), key: readFileSync(cfg.tlsKeyPath) } }
      : cfg.apiKey ? true : undefined,
    apiKey: cfg.apiKey,
  });
}

type ActivityConfig = ActivityDeps['config'];

export interface WorkerHandle {
  worker: Worker;
  connection: NativeConnection;
  /** Chains the audit events the activities and the web process write; stop it before closing the database. */
  sealer: AuditSealer;
  /** Search attributes this start registered on the namespace (none when they were there). */
  searchAttributesAdded: string[];
}

export async function createWorker(opts: { temporal: TemporalConfig; address: string; db: Knex; platformDb: PlatformDb; logger: Logger; config: ActivityConfig; webUiUrl?: string }): Promise<WorkerHandle> {
  const cfg = opts.temporal;
  const connection = await connectWorker(cfg, opts.address);
  let searchAttributesAdded: string[];
  try {
    // The workflows publish these: a worker on a namespace without them would fail every record's start.
    searchAttributesAdded = (await ensureSearchAttributes(connection.operatorService, cfg.namespace)).added;
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
  const worker = await Worker.create({
    connection,
    namespace: cfg.namespace,
    taskQueue: cfg.taskQueue,
    workflowBundle: await workflowBundle(),
    ...workflowCacheOptions(cfg.maxCachedWorkflows),
    activities: createActivities({ db: opts.db, platformDb: opts.platformDb, logger: opts.logger, config: opts.config }),
  });
  return { worker, connection, sealer: startAuditSealer({ db: opts.db, platformDb: opts.platformDb, logger: opts.logger }), searchAttributesAdded };
}
