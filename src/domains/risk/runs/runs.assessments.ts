import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Logger } from '../../../infra/logger';
import { queueAssessment, uuidFromKey } from '../assessment';

/** Start requests in flight at once: enough to hide each round trip, few enough not to flood Temporal. */
const PARALLEL_STARTS = 16;

/**
 * Starts an assessment (motivo 'portafoglio', riferimento the run) for each customer of a
 * recalculation's batch whose class changed, so the change goes through the process: its
 * release policy and overrides. The starts are queued (queueAssessment): the assessments
 * calculate in their own workflows while the run goes on. A start Temporal refused is counted
 * and logged, not retried here: the class still differs, so the next recalculation starts it again.
 */
export async function startRunAssessments(pc: { db: Knex; client: Client; taskQueue: string; logger: Logger },
  p: { codAzienda: string; runId: string; cods: string[]; heartbeat: () => void }): Promise<{ started: number; failed: number }> {
  let started = 0;
  let failed = 0;
  const queue = [...p.cods];
  await Promise.all(Array.from({ length: Math.min(PARALLEL_STARTS, queue.length) }, async () => {
    for (let cod = queue.shift(); cod !== undefined; cod = queue.shift()) {
      try {
        // One assessment per run and customer: a retried batch joins the assessment it started.
        await queueAssessment(pc, { codAzienda: p.codAzienda, actor: SYSTEM_ACTOR, codAnagrafe: cod, motivo: 'portafoglio', riferimento: p.runId, assessmentId: uuidFromKey(`risk-run:${p.runId}:${cod}`) });
        started++;
      } catch (err) {
        failed++;
        pc.logger.warn({ err, codAnagrafe: cod, runId: p.runId }, 'risk run: assessment not started');
      }
      if ((started + failed) % 100 === 0) p.heartbeat();
    }
  }));
  return { started, failed };
}

const SYSTEM_ACTOR = { id: 'system', username: 'system', roles: ['co'] };
