import { ApplicationFailure, Context } from '@temporalio/activity';
import { withPlatform } from '../../src/db/tenant';
import { planDailyRun, planPeriodRun, dailyPeers, finishRun, runChunk } from '../../src/domains/monitoring/runs/runs.lifecycle';
import { BacktestDraftChanged, BacktestDraftInvalid } from '../../src/domains/monitoring/runs/runs.backtest';
import { lastClosedDay } from '../../src/domains/monitoring/runs/runs.commands';
import { MONITORING_BATCHES_PER_CHUNK, type ChunkResult } from '../../workflows/monitoring-runs/monitoring-runs.contract';
import type { ActivityDeps } from '../deps';

/**
 * The monitoring runs' steps. The chunks (runDailyChunk, runPeriodChunk, computeDailyPeers) are
 * scheduled on the engine's task queue (workflows/lib/engine-queue.ts): the workers that serve it
 * (`npm run engine`, `npm start`'s, the test stack's) register every activity of the registry, these
 * included. A backtest whose draft changed or cannot be evaluated fails at once, not after retries.
 */
export function createMonitoringRunsActivities(deps: ActivityDeps) {
  const chunk = async (p: { codAzienda: string; runId: string; batchSize: number }): Promise<ChunkResult> => {
    const ctx = Context.current();
    try {
      return await runChunk(deps.db, { ...p, maxBatches: MONITORING_BATCHES_PER_CHUNK }, { heartbeat: (d) => ctx.heartbeat(d), signal: ctx.cancellationSignal });
    } catch (err) {
      if (err instanceof BacktestDraftChanged || err instanceof BacktestDraftInvalid) throw ApplicationFailure.nonRetryable(err.message, err.code);
      throw err;
    }
  };
  return {
    /** The tenants the daily batch runs for, and the day that closed (yesterday in Rome). */
    async listMonitoringTenants(): Promise<{ giorno: string; tenants: string[] }> {
      const rows: { cod_azienda: string }[] = await withPlatform(deps.platformDb, 'system', (trx) => trx('aziende').where({ attiva: true }).orderBy('cod_azienda').select('cod_azienda'));
      return { giorno: lastClosedDay(), tenants: rows.map((r) => r.cod_azienda) };
    },

    planDailyRun: (p: { codAzienda: string; giorno: string; workflowId: string; requestedBy: string }) => planDailyRun(deps.db, p),

    planPeriodRun: (p: { codAzienda: string; runId: string }) => planPeriodRun(deps.db, p),

    computeDailyPeers: (p: { codAzienda: string; giorno: string; runId: string }) => {
      const ctx = Context.current();
      return dailyPeers(deps.db, p, () => ctx.heartbeat());
    },

    runDailyChunk: chunk,
    runPeriodChunk: chunk,

    finishMonitoringRun: async (p: { codAzienda: string; runId: string; stato: 'completed' | 'failed' | 'cancelled'; errore?: string }): Promise<string> =>
      finishRun(deps.db, p),
  };
}
