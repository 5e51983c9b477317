import { Context } from '@temporalio/activity';
import { countAssessments, finishRun, planRun, runChunk } from '../../src/domains/risk/runs/runs.lifecycle';
import { queueRunAssessments, startRunAssessments } from '../../src/domains/risk/runs/runs.assessments';
import { RISK_RUN_BATCHES_PER_CHUNK, type RiskRunChunkResult, type RiskRunLane } from '../../workflows/risk/risk-portfolio.contract';
import type { ActivityDeps } from '../deps';

/** The portfolio run's steps: the plan (total and lanes), a chunk of one lane's batches, the end with its audit event. */
export function createRiskPortfolioActivities(deps: ActivityDeps) {
  return {
    planRun: (p: { runId: string; codAzienda: string; lanes: number }): Promise<RiskRunLane[]> => planRun(deps.db, p),

    /** `perBatchAssessments`: a run started before queueRunAssessments existed starts its assessments batch by batch. */
    runChunk: (p: { runId: string; codAzienda: string; lane: RiskRunLane; batchSize: number; perBatchAssessments?: boolean }): Promise<RiskRunChunkResult> => {
      const ctx = Context.current();
      return runChunk(deps.db, { ...p, maxBatches: RISK_RUN_BATCHES_PER_CHUNK }, {
        heartbeat: (d) => ctx.heartbeat(d),
        signal: ctx.cancellationSignal,
        // A recalculation's changed customers go through the assessment process (release policy, overrides).
        changed: p.perBatchAssessments === false ? undefined : async (cods) => {
          const r = await startRunAssessments({ db: deps.db, client: ctx.client, taskQueue: ctx.info.taskQueue, logger: deps.logger }, { codAzienda: p.codAzienda, runId: p.runId, cods, heartbeat: () => ctx.heartbeat() });
          await countAssessments(deps.db, { runId: p.runId, codAzienda: p.codAzienda, avviate: r.started, fallite: r.failed });
        },
      });
    },

    /** A recalculation's changed customers, each into the assessment process, once the scoring is done. */
    queueRunAssessments: async (p: { runId: string; codAzienda: string }): Promise<void> => {
      const ctx = Context.current();
      await queueRunAssessments({ db: deps.db, client: ctx.client, taskQueue: ctx.info.taskQueue, logger: deps.logger }, { ...p, heartbeat: () => ctx.heartbeat() });
    },

    finishRun: async (p: { runId: string; codAzienda: string; stato: 'completed' | 'failed' | 'cancelled'; errore?: string }): Promise<void> => {
      await finishRun(deps.db, p);
    },
  };
}
