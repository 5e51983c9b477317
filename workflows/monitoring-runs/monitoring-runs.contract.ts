/**
 * The monitoring engine's runs (docs/monitoring.md, "Evaluation paths"): the daily batch of one
 * tenant and day, started by the Schedule's sweep; replays and backtests over a stored period.
 * One workflow per run; progress in monitoring_esecuzioni, which the pages read. The chunks run on
 * the engine's task queue (workflows/lib/engine-queue.ts), named in the input.
 */
export const MONITORING_DAILY_WORKFLOW_TYPE = 'monitoringDailyWorkflow';
export const MONITORING_DAILY_SWEEP_WORKFLOW_TYPE = 'monitoringDailySweepWorkflow';
export const MONITORING_DAILY_SCHEDULE_ID = 'monitoring-daily';
export const MONITORING_RUN_WORKFLOW_TYPE = 'monitoringRunWorkflow';
export const MONITORING_RUN_RECORD_TYPE = 'monitoring-run';

export const RUN_TIPI = ['giornaliero', 'replay', 'backtest'] as const;
export type RunTipo = (typeof RUN_TIPI)[number];
export const RUN_STATI = ['running', 'completed', 'failed', 'cancelled'] as const;
export type RunStato = (typeof RUN_STATI)[number];

/** The daily batch of a tenant and day: one workflow, whoever starts it (the schedule, or an operator again). */
export const monitoringDailyWorkflowId = (codAzienda: string, giorno: string) => `monitoring-daily:${codAzienda}:${giorno}`;
/** A replay or a backtest. */
export const monitoringRunWorkflowId = (codAzienda: string, tipo: 'replay' | 'backtest', runId: string) => `monitoring-${tipo}:${codAzienda}:${runId}`;

/** Customers per batch: one tenant transaction, its decisions and alerts, its progress. */
export const MONITORING_BATCH_CUSTOMERS = 200;
/** Batches per activity call (a heartbeat after each): a handful of workflow events per thousands of customers. */
export const MONITORING_BATCHES_PER_CHUNK = 10;

export interface MonitoringDailyInput {
  codAzienda: string;
  /** The closed day, YYYY-MM-DD. */
  giorno: string;
  requestedBy: string;
  /** The engine's queue (config ENGINE_TASK_QUEUE); omitted: the default. */
  engineTaskQueue?: string;
  batchSize?: number;
  /** Set once planned (a continued run carries it). */
  runId?: string;
}

export interface MonitoringRunInput {
  codAzienda: string;
  runId: string;
  tipo: 'replay' | 'backtest';
  engineTaskQueue?: string;
  batchSize?: number;
  /** Set once planned. */
  planned?: boolean;
}

export interface ChunkResult {
  done: boolean;
  /** The run was stopped from outside (its row is no longer running). */
  stopped: boolean;
}

export interface DailySweepResult { giorno: string; avviati: string[]; gia_presenti: string[] }
