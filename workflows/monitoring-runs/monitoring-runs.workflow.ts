import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ApplicationFailure, CancellationScope, ContinueAsNew, continueAsNew, isCancellation, ParentClosePolicy, proxyActivities, startChild, workflowInfo,
} from '@temporalio/workflow';
import type { createMonitoringRunsActivities } from '../../activities/monitoring-runs/monitoring-runs.activities';
import { DEFAULT_ENGINE_TASK_QUEUE } from '../lib/engine-queue';
import { failureMessage } from '../lib/failure-message';
import { publishRecord } from '../lib/search-attributes';
import {
  MONITORING_BATCH_CUSTOMERS, MONITORING_RUN_RECORD_TYPE, monitoringDailyWorkflowId,
  type ChunkResult, type DailySweepResult, type MonitoringDailyInput, type MonitoringRunInput,
} from './monitoring-runs.contract';

type Acts = ReturnType<typeof createMonitoringRunsActivities>;

// Steps on the workflow's own queue: the plan, the end, the tenants of the sweep.
const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });
const NON_RETRYABLE = ['BOZZA_MODIFICATA', 'BOZZA_NON_VALUTABILE'];

/**
 * The heavy steps on the engine's queue. A chunk is up to ten batches of 200 customers with a
 * heartbeat after each: a lost engine worker is noticed within two minutes, and the retry starts
 * at the first batch not committed (the position is in the run's row).
 */
const engine = (taskQueue: string | undefined) => proxyActivities<Acts>({
  taskQueue: taskQueue ?? DEFAULT_ENGINE_TASK_QUEUE,
  startToCloseTimeout: '30 minutes', heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE },
});

async function ended(codAzienda: string, runId: string, err: unknown): Promise<never> {
  if (isCancellation(err)) {
    await CancellationScope.nonCancellable(() => short.finishMonitoringRun({ codAzienda, runId, stato: 'cancelled' }));
    publishRecord({ codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: runId, status: 'cancelled' });
    throw err;
  }
  const message = failureMessage(err);
  await short.finishMonitoringRun({ codAzienda, runId, stato: 'failed', errore: message });
  publishRecord({ codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: runId, status: 'failed' });
  throw ApplicationFailure.create({ type: 'MONITORING_RUN_FAILED', message, nonRetryable: true });
}

/** Walks the run's chunks until done, stopped, or until the history should continue as new. */
async function walk(next: () => Promise<ChunkResult>): Promise<ChunkResult> {
  let r: ChunkResult = { done: false, stopped: false };
  while (!r.done && !r.stopped && !workflowInfo().continueAsNewSuggested) r = await next();
  return r;
}

/**
 * The daily batch of one tenant and day (`monitoring-daily:<cod_azienda>:<giorno>`): the run's row,
 * the day's peer medians, then the customers who moved that day in chunks (their events real time
 * did not decide, and the close of the day), progress in monitoring_esecuzioni.
 */
export async function monitoringDailyWorkflow(input: MonitoringDailyInput): Promise<{ runId: string; stato: string }> {
  const { codAzienda, giorno } = input;
  const acts = engine(input.engineTaskQueue);
  let runId = input.runId;
  try {
    if (!runId) {
      ({ runId } = await short.planDailyRun({ codAzienda, giorno, workflowId: workflowInfo().workflowId, requestedBy: input.requestedBy }));
      publishRecord({ codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: runId, status: 'running' });
      await acts.computeDailyPeers({ codAzienda, giorno, runId });
    }
    const id = runId;
    const r = await walk(() => acts.runDailyChunk({ codAzienda, runId: id, batchSize: input.batchSize ?? MONITORING_BATCH_CUSTOMERS }));
    if (!r.done && !r.stopped) await continueAsNew<typeof monitoringDailyWorkflow>({ ...input, runId });
    if (r.stopped) return { runId, stato: 'cancelled' };
  } catch (err) {
    if (err instanceof ContinueAsNew || !runId) throw err;
    return ended(codAzienda, runId, err);
  }
  const stato = await short.finishMonitoringRun({ codAzienda, runId, stato: 'completed' });
  publishRecord({ codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: runId, status: stato });
  return { runId, stato };
}

/** A replay or a backtest (`monitoring-replay|backtest:<cod_azienda>:<id>`): its total, its chunks, its end. */
export async function monitoringRunWorkflow(input: MonitoringRunInput): Promise<{ runId: string; stato: string }> {
  const { codAzienda, runId } = input;
  const acts = engine(input.engineTaskQueue);
  try {
    if (!input.planned) {
      publishRecord({ codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: runId, status: 'running' });
      await short.planPeriodRun({ codAzienda, runId });
    }
    const r = await walk(() => acts.runPeriodChunk({ codAzienda, runId, batchSize: input.batchSize ?? MONITORING_BATCH_CUSTOMERS }));
    if (!r.done && !r.stopped) await continueAsNew<typeof monitoringRunWorkflow>({ ...input, planned: true });
    if (r.stopped) return { runId, stato: 'cancelled' };
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    return ended(codAzienda, runId, err);
  }
  const stato = await short.finishMonitoringRun({ codAzienda, runId, stato: 'completed' });
  publishRecord({ codAzienda, recordType: MONITORING_RUN_RECORD_TYPE, recordId: runId, status: stato });
  return { runId, stato };
}

/** Tenants whose daily batch runs side by side. */
const SWEEP_PARALLEL = 4;

/**
 * One run of the Schedule `monitoring-daily`: the day that closed, a daily batch per active tenant
 * (a child each, left running if the sweep ends; a day already started is not started again).
 */
export async function monitoringDailySweepWorkflow(input: { engineTaskQueue?: string } = {}): Promise<DailySweepResult> {
  const { giorno, tenants } = await short.listMonitoringTenants();
  const out: DailySweepResult = { giorno, avviati: [], gia_presenti: [] };
  for (let i = 0; i < tenants.length; i += SWEEP_PARALLEL) {
    const group = tenants.slice(i, i + SWEEP_PARALLEL);
    const children = await Promise.all(group.map(async (codAzienda) => {
      try {
        return await startChild(monitoringDailyWorkflow, {
          workflowId: monitoringDailyWorkflowId(codAzienda, giorno), parentClosePolicy: ParentClosePolicy.ABANDON,
          args: [{ codAzienda, giorno, requestedBy: 'sistema:pianificazione', engineTaskQueue: input.engineTaskQueue }],
        });
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) { out.gia_presenti.push(codAzienda); return undefined; }
        throw err;
      }
    }));
    // A tenant's failure is its own run's (failed in its row): the sweep goes on with the others.
    await Promise.all(children.map(async (c, k) => {
      if (!c) return;
      out.avviati.push(group[k]!);
      await c.result().catch(() => undefined);
    }));
  }
  return out;
}
