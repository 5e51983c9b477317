import { proxyActivities } from '@temporalio/workflow';
import type { createEngineSyncActivities } from '../../activities/engine-sync/engine-sync.activities';
import { DEFAULT_ENGINE_TASK_QUEUE } from '../lib/engine-queue';
import {
  ENGINE_PILOT_WAIT_SECONDS, type EnginePilotAnswer, type EnginePilotInput, type EngineSyncSweepInput, type EngineSyncSweepResult,
} from './engine-sync.contract';

type Acts = ReturnType<typeof createEngineSyncActivities>;

const short = proxyActivities<Acts>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });

/** A tenant's sync on the engine's queue: the copy is paged, each page its own transaction; a retry compares again from the start. */
const engine = (taskQueue: string | undefined) => proxyActivities<Acts>({
  taskQueue: taskQueue ?? DEFAULT_ENGINE_TASK_QUEUE, startToCloseTimeout: '20 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

/** One run of the Schedule `engine-sync`: each active tenant's copy, one after the other (a tenant's failure is its runs' record). */
export async function engineSyncSweepWorkflow(input: EngineSyncSweepInput = {}): Promise<EngineSyncSweepResult> {
  const tenants = await short.listEngineSyncTenants();
  const acts = engine(input.engineTaskQueue);
  const out: EngineSyncSweepResult = { tenants, sync: [] };
  for (const codAzienda of tenants) {
    try {
      for (const r of await acts.syncEngineTenant({ codAzienda })) out.sync.push({ codAzienda, tipo: r.tipo, cod_sync: r.cod_sync, stato: r.stato });
    } catch {
      // Recorded by the runs themselves where the database answered; the next sweep tries again.
    }
  }
  return out;
}

/**
 * The pilot's round trip: one activity on the engine's queue, which must be taken by a worker
 * within ENGINE_PILOT_WAIT_SECONDS (schedule-to-start) and not retried: the caller measures it.
 */
export async function enginePilotWorkflow(input: EnginePilotInput): Promise<EnginePilotAnswer> {
  const acts = proxyActivities<Acts>({
    taskQueue: input.engineTaskQueue ?? DEFAULT_ENGINE_TASK_QUEUE,
    scheduleToStartTimeout: `${ENGINE_PILOT_WAIT_SECONDS} seconds`, startToCloseTimeout: '10 seconds', retry: { maximumAttempts: 1 },
  });
  return acts.enginePilotRead({ codAzienda: input.codAzienda, codAnagrafe: input.codAnagrafe });
}
