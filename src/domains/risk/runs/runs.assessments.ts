import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { Logger } from '../../../infra/logger';
import { queueAssessment, uuidFromKey } from '../assessment';
import { RISK_SYSTEM_ACTOR } from '../../../../workflows/risk/risk-assessment.contract';

/** Start requests in flight at once: enough to hide each round trip, few enough not to flood Temporal. */
const PARALLEL_STARTS = 16;
/** Changed customers read per page of the run's results. */
const PAGE = 1_000;

interface RunAssessmentDeps { db: Knex; client: Client; taskQueue: string; logger: Logger }

/**
 * Starts an assessment (motivo 'portafoglio', riferimento the run) for each given customer whose
 * class changed, so the change goes through the process: its release policy and overrides. The
 * starts are queued (queueAssessment): the assessments calculate in their own workflows. The id
 * comes from the run and the customer, so a repeated start joins the assessment already started.
 * A start Temporal refused is counted and logged: the class still differs, so the next
 * recalculation starts it again.
 */
export async function startRunAssessments(pc: RunAssessmentDeps,
  p: { codAzienda: string; runId: string; cods: string[]; heartbeat: () => void }): Promise<{ started: number; failed: number }> {
  let started = 0;
  let failed = 0;
  const queue = [...p.cods];
  await Promise.all(Array.from({ length: Math.min(PARALLEL_STARTS, queue.length) }, async () => {
    for (let cod = queue.shift(); cod !== undefined; cod = queue.shift()) {
      try {
        await queueAssessment(pc, { codAzienda: p.codAzienda, actor: RISK_SYSTEM_ACTOR, codAnagrafe: cod, motivo: 'portafoglio', riferimento: p.runId, assessmentId: uuidFromKey(`risk-run:${p.runId}:${cod}`) });
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

/**
 * A recalculation's last step: an assessment for every customer its committed batches found with
 * a changed class, read from the run's own result rows (written in the batches' transactions, so
 * none is missed whatever happened between a batch and this step). Starting them after the
 * scoring, rather than batch by batch, keeps their calculations from competing with the run's.
 * Repeatable as a whole: the counts are set, not added, and every start joins its assessment.
 */
export async function queueRunAssessments(pc: RunAssessmentDeps, p: { codAzienda: string; runId: string; heartbeat: () => void }): Promise<{ started: number; failed: number }> {
  const tx = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(pc.db, { codAzienda: p.codAzienda, actor: 'system' }, fn);
  const run = await tx((trx) => trx('rischio_esecuzioni').where({ id: p.runId }).first('tipo')) as { tipo: string } | undefined;
  const total = { started: 0, failed: 0 };
  if (run?.tipo !== 'ricalcolo') return total;
  for (let after = ''; ;) {
    const cods: string[] = await tx((trx) => trx('rischio_esecuzioni_risultati').where({ esecuzione_id: p.runId, cambia: true })
      .andWhere('cod_anagrafe', '>', after).orderBy('cod_anagrafe').limit(PAGE).pluck('cod_anagrafe'));
    if (!cods.length) break;
    const r = await startRunAssessments(pc, { codAzienda: p.codAzienda, runId: p.runId, cods, heartbeat: p.heartbeat });
    total.started += r.started;
    total.failed += r.failed;
    p.heartbeat();
    after = cods[cods.length - 1]!;
    if (cods.length < PAGE) break;
  }
  await tx((trx) => trx.raw(`
    update rischio_esecuzioni set riepilogo = riepilogo || jsonb_build_object('valutazioni_avviate', ?::int, 'avvii_falliti', ?::int) where id = ?`,
  [total.started, total.failed, p.runId]));
  return total;
}
