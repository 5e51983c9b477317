import type { Knex } from 'knex';
import { uuidFromKey } from '../../../kit/ids';
import { withTenant } from '../../../db/tenant';
import { appendAudit } from '../../audit';
import type { ChunkResult } from '../../../../workflows/monitoring-runs/monitoring-runs.contract';
import { evaluateClosedDay } from '../evaluation/daily';
import { computePeerStatistics } from '../evaluation/peers';
import { addProgress, countCustomers, customersPage, finishRunRow, findRun, type RunRow } from './runs.repo';
import { backtestBatch, summariseBacktest } from './runs.backtest';
import { loadReplayBatch, replayBatch, type ReplayInput } from './runs.replay';

/**
 * The steps of a run, as the workflows' activities call them: plan (the row and its total), the
 * chunks (batches of customers in code order, each batch one tenant transaction that writes its
 * results, its progress and the position together, so a retried chunk starts at the first batch
 * not committed), the end. Shared by the daily batch, replays and backtests.
 */

const SYSTEM = 'sistema:monitoraggio';
const tx = <T>(db: Knex, codAzienda: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(db, { codAzienda, actor: SYSTEM }, fn);

/** The daily batch's run of a tenant and day: its row made (or made running again, from the start) with the day's total. */
export async function planDailyRun(db: Knex, p: { codAzienda: string; giorno: string; workflowId: string; requestedBy: string }): Promise<{ runId: string; totale: number }> {
  return tx(db, p.codAzienda, async (trx) => {
    const totale = await countCustomers(trx, p.codAzienda, p.giorno, p.giorno);
    const id = uuidFromKey(`monitoring-daily:${p.codAzienda}:${p.giorno}`);
    const inserted = await trx('monitoring_esecuzioni').insert({
      id, cod_azienda: p.codAzienda, tipo: 'giornaliero', stato: 'running', giorno: p.giorno, dal: p.giorno, al: p.giorno, totale,
      workflow_id: p.workflowId, avviata_da: p.requestedBy,
    }).onConflict(trx.raw("(cod_azienda, giorno) where tipo = 'giornaliero'")).ignore().returning('id') as { id: string }[];
    if (!inserted.length) {
      // The day again (an operator's catch-up, or a new run after a failure): from the start; decisions and hits already recorded are kept, not repeated.
      await trx('monitoring_esecuzioni').where({ cod_azienda: p.codAzienda, id }).update({
        stato: 'running', totale, elaborati: 0, eventi: 0, decisioni: 0, alert_nuovi: 0, alert_aggiornati: 0, posizione: null, errore: null,
        finished_at: null, workflow_id: p.workflowId, avviata_da: p.requestedBy, updated_at: new Date(),
      });
    }
    await appendAudit(trx, {
      codAzienda: p.codAzienda, actor: p.requestedBy, action: 'monitoring.run.start', entityType: 'monitoring_run', entityId: id,
      data: { tipo: 'giornaliero', giorno: p.giorno, totale, ...(inserted.length ? {} : { ripetuta: true }) },
    });
    return { runId: id, totale };
  });
}

/** A replay's or a backtest's total (its row was written when it was started). */
export async function planPeriodRun(db: Knex, p: { codAzienda: string; runId: string }): Promise<number> {
  return tx(db, p.codAzienda, async (trx) => {
    const run = await findRun(trx, p.codAzienda, p.runId, true);
    if (!run) throw new Error(`run ${p.runId} not found`);
    const totale = await countCustomers(trx, p.codAzienda, run.dal, run.al);
    await trx('monitoring_esecuzioni').where({ id: run.id }).update({ totale, updated_at: new Date() });
    return totale;
  });
}

export async function dailyPeers(db: Knex, p: { codAzienda: string; giorno: string; runId: string }, heartbeat: () => void) {
  return tx(db, p.codAzienda, async (trx) => {
    const r = await computePeerStatistics(trx, p.codAzienda, p.giorno, { heartbeat });
    const run = await findRun(trx, p.codAzienda, p.runId, true);
    if (run) await trx('monitoring_esecuzioni').where({ id: run.id }).update({ riepilogo: JSON.stringify({ ...run.riepilogo, pari: r }) });
    return r;
  });
}

type BatchCounts = { eventi?: number; decisioni?: number; alert_nuovi?: number; alert_aggiornati?: number };

async function batchOf(trx: Knex.Transaction, run: RunRow, cods: string[], loaded?: ReplayInput): Promise<BatchCounts> {
  if (run.tipo === 'giornaliero') {
    const r = await evaluateClosedDay(trx, run.cod_azienda, run.giorno!, cods);
    return { eventi: r.eventi, decisioni: r.decisioni, alert_nuovi: r.alertNuovi, alert_aggiornati: r.alertAggiornati };
  }
  if (run.tipo === 'replay') {
    const r = await replayBatch(trx, run, cods, { loaded });
    return { eventi: r.eventi, alert_nuovi: r.alertNuovi, alert_aggiornati: r.alertAggiornati };
  }
  const r = await backtestBatch(trx, run, cods);
  return { eventi: r.eventi, alert_nuovi: r.alertBozza };
}

/**
 * The replay's reading lane: the batch after `after` read in a tenant transaction of its
 * own (another connection; it writes nothing) while the current batch is evaluated and written. A failed read is
 * dropped: the batch then reads its input itself.
 */
function readAhead(db: Knex, run: RunRow, after: string, limit: number): Promise<ReplayInput | undefined> {
  return tx(db, run.cod_azienda, async (trx) => {
    const cods = await customersPage(trx, run.cod_azienda, { dal: run.dal, al: run.al, after, limit });
    return cods.length ? loadReplayBatch(trx, run, cods) : undefined;
  }).catch(() => undefined);
}

const sameCustomers = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * Up to `maxBatches` batches of the run, a heartbeat after each. The run's row is locked for the
 * batch, so an earlier attempt still finishing its batch makes a retry wait, then see its position.
 * A replay works in two lanes: while a batch is evaluated and written, the next one's profiles and
 * histories are read on another connection; the batch uses them only if it is the same customers
 * (its page is read again under the lock, as always), so what is evaluated and where a retry starts
 * are the same as with one lane.
 */
export async function runChunk(db: Knex, p: { codAzienda: string; runId: string; batchSize: number; maxBatches: number }, hooks: {
  heartbeat?: (detail: unknown) => void; signal?: AbortSignal;
} = {}): Promise<ChunkResult> {
  let ahead: Promise<ReplayInput | undefined> | undefined;
  for (let b = 0; b < p.maxBatches; b++) {
    if (hooks.signal?.aborted) return { done: false, stopped: true };
    let readAheadUsed = false;
    const r = await tx(db, p.codAzienda, async (trx): Promise<ChunkResult | null> => {
      const run = await findRun(trx, p.codAzienda, p.runId, true);
      if (!run || run.stato !== 'running') return { done: false, stopped: true };
      const cods = await customersPage(trx, p.codAzienda, { dal: run.giorno ?? run.dal, al: run.giorno ?? run.al, after: run.posizione, limit: p.batchSize });
      if (!cods.length) return { done: true, stopped: false };
      const read = ahead ? await ahead : undefined;
      ahead = run.tipo === 'replay' && cods.length === p.batchSize && b + 1 < p.maxBatches ? readAhead(db, run, cods.at(-1)!, p.batchSize) : undefined;
      readAheadUsed = !!read && sameCustomers(read.cods, cods);
      const counts = await batchOf(trx, run, cods, readAheadUsed ? read : undefined);
      await addProgress(trx, run.id, { elaborati: cods.length, posizione: cods.at(-1)!, ...counts });
      return cods.length < p.batchSize ? { done: true, stopped: false } : null;
    });
    hooks.heartbeat?.({ batch: b, read_ahead: readAheadUsed });
    if (r) return r;
  }
  return { done: false, stopped: false };
}

export async function finishRun(db: Knex, p: { codAzienda: string; runId: string; stato: 'completed' | 'failed' | 'cancelled'; errore?: string; actor?: string }) {
  return tx(db, p.codAzienda, async (trx) => {
    const run = await findRun(trx, p.codAzienda, p.runId);
    const riepilogo = run?.tipo === 'backtest' && p.stato === 'completed' ? await summariseBacktest(trx, run) : undefined;
    const done = await finishRunRow(trx, p.codAzienda, p.runId, { stato: p.stato, errore: p.errore, riepilogo, actor: p.actor });
    return done?.stato ?? p.stato;
  });
}
