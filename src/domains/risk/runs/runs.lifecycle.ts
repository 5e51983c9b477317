import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { RiskRunChunkResult, RiskRunLane } from '../../../../workflows/risk/risk-portfolio.contract';
import { appendAudit } from '../../audit';
import { loadRuleSet } from '../index';
import { runBatch, type RunContext } from './runs.batch';
import type { RunRow } from './runs.repo';

const SYSTEM = 'system';

/** What a chunk reports after each committed batch, and how it learns it must stop. */
export interface ChunkHooks {
  heartbeat: (detail: { lane: number; lastCod: string | null }) => void;
  signal?: AbortSignal;
  /** Recalculation: the customers of a committed batch whose class changed (their assessments start here). */
  changed?: (cods: string[]) => Promise<void>;
}

/**
 * The run's plan: how many active customers it covers, and the lanes (slices of the codes of
 * about equal size) with their start positions written in the run row.
 */
export async function planRun(db: Knex, p: { runId: string; codAzienda: string; lanes: number }): Promise<RiskRunLane[]> {
  return withTenant(db, { codAzienda: p.codAzienda, actor: SYSTEM }, async (trx) => {
    const run = await trx('rischio_esecuzioni').where({ id: p.runId }).first('riepilogo', 'stato') as Pick<RunRow, 'riepilogo' | 'stato'> | undefined;
    if (!run) throw new Error(`run ${p.runId} not found`);
    const { rows: [{ n }] } = await trx.raw<{ rows: { n: number }[] }>("select count(*)::int as n from anagrafe where cod_azienda = ? and stato = 'attivo'", [p.codAzienda]) as { rows: [{ n: number }] };
    const lanes = Math.max(1, Math.min(p.lanes, Math.ceil(n / 1_000)));
    const step = Math.ceil(n / lanes);
    // The last code of each lane but the last: every `step`-th active customer in code order.
    const { rows: bounds } = lanes < 2 ? { rows: [] } : await trx.raw<{ rows: { cod_anagrafe: string }[] }>(`
      select cod_anagrafe from (
        select cod_anagrafe, row_number() over (order by cod_anagrafe) as rn from anagrafe where cod_azienda = ? and stato = 'attivo'
      ) x where rn % ? = 0 and rn < ? order by cod_anagrafe`, [p.codAzienda, step, n]);
    const cuts = bounds.slice(0, lanes - 1).map((b) => b.cod_anagrafe);
    const plan: RiskRunLane[] = [...cuts, null].map((until, index) => ({ index, until }));
    const posizioni = Object.fromEntries(plan.map((l, i) => [String(l.index), i === 0 ? null : cuts[i - 1]!]));
    // A continued or retried plan keeps positions already recorded.
    const kept = run.riepilogo.posizioni && Object.keys(run.riepilogo.posizioni).length === plan.length ? run.riepilogo.posizioni : posizioni;
    await trx('rischio_esecuzioni').where({ id: p.runId }).update({ totale: n, riepilogo: JSON.stringify({ ...run.riepilogo, posizioni: kept }) });
    return plan;
  });
}

/** The run's kind, version (with its rules) and day, read once per chunk. */
export async function loadRunContext(db: Knex, p: { runId: string; codAzienda: string }): Promise<RunContext | undefined> {
  return withTenant(db, { codAzienda: p.codAzienda, actor: SYSTEM }, async (trx) => {
    const run = await trx('rischio_esecuzioni').where({ id: p.runId })
      .first('tipo', 'versione_id', 'stato', 'started_by', trx.raw("to_char(started_at at time zone 'Europe/Rome', 'YYYY-MM-DD') as oggi")) as
      (Pick<RunRow, 'tipo' | 'versione_id' | 'stato' | 'started_by'> & { oggi: string }) | undefined;
    if (!run || run.stato !== 'running') return undefined;
    const versione = await loadRuleSet(trx, p.codAzienda, run.versione_id);
    return { runId: p.runId, codAzienda: p.codAzienda, tipo: run.tipo, versione, oggi: run.oggi, actor: run.started_by };
  });
}

/**
 * Up to `maxBatches` batches of one lane, a heartbeat after each commit. Answers done when the
 * lane has no customer left, stopped when the run is no longer running (cancelled).
 */
export async function runChunk(db: Knex, p: { runId: string; codAzienda: string; lane: RiskRunLane; batchSize: number; maxBatches: number }, hooks: ChunkHooks): Promise<RiskRunChunkResult> {
  const run = await loadRunContext(db, p);
  if (!run) return { done: false, stopped: true };
  for (let i = 0; i < p.maxBatches; i++) {
    hooks.signal?.throwIfAborted();
    const b = await runBatch(db, run, p.lane, p.batchSize);
    if (b.stopped) return { done: false, stopped: true };
    hooks.heartbeat({ lane: p.lane.index, lastCod: b.lastCod });
    if (b.changed.length && hooks.changed) await hooks.changed(b.changed);
    if (b.n < p.batchSize) return { done: true, stopped: false };
  }
  return { done: false, stopped: false };
}

/** Counts the assessments a recalculation started (or failed to start) in its summary, in one statement. */
export async function countAssessments(db: Knex, p: { runId: string; codAzienda: string; avviate: number; fallite: number }): Promise<void> {
  await withTenant(db, { codAzienda: p.codAzienda, actor: SYSTEM }, (trx) => trx.raw(`
    update rischio_esecuzioni set riepilogo = riepilogo
      || jsonb_build_object('valutazioni_avviate', coalesce((riepilogo->>'valutazioni_avviate')::int, 0) + ?::int)
      || jsonb_build_object('avvii_falliti', coalesce((riepilogo->>'avvii_falliti')::int, 0) + ?::int)
     where id = ?`, [p.avviate, p.fallite, p.runId]));
}

/** The run's end (completed, failed, cancelled) with its audit event; a run already ended stays as it is. */
export async function finishRun(db: Knex, p: { runId: string; codAzienda: string; stato: 'completed' | 'failed' | 'cancelled'; errore?: string; actor?: string }): Promise<RunRow | undefined> {
  return withTenant(db, { codAzienda: p.codAzienda, actor: p.actor ?? SYSTEM }, async (trx) => {
    const [row] = await trx('rischio_esecuzioni').where({ id: p.runId, stato: 'running' })
      .update({ stato: p.stato, errore: p.errore?.slice(0, 2_000) ?? null, finished_at: trx.fn.now() }).returning('*') as RunRow[];
    if (!row) return trx('rischio_esecuzioni').where({ id: p.runId }).first() as Promise<RunRow | undefined>;
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.actor ?? SYSTEM, action: `risk.run.${p.stato}`, entityType: 'rischio_esecuzione', entityId: p.runId,
      data: { tipo: row.tipo, versione_id: row.versione_id, totale: row.totale, elaborati: row.elaborati, cambi: row.cambi, ...(p.errore ? { errore: p.errore } : {}) },
    });
    return row;
  });
}
