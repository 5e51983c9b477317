import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { RiskRunTipo } from '../../../../workflows/risk/risk-portfolio.contract';
import { recordScores, scoreCustomers } from '../index';
import type { Classe, Punteggio, VersioneRegole } from '../risk.types';
import { contributionDiff, countMove, emptyRiepilogo, mergeRiepilogo, type ContributoConfrontato, type Riepilogo } from './runs.diff';

/** What a batch needs to know about its run (read once per chunk). */
export interface RunContext {
  runId: string;
  codAzienda: string;
  tipo: RiskRunTipo;
  versione: VersioneRegole;
  /** The run's day (Europe/Rome): every batch scores as of the same date. */
  oggi: string;
  actor: string;
}

/** A lane: a slice of the customer codes (after, until], walked in code order. */
export interface Lane { index: number; until: string | null }

export interface BatchResult {
  /** Customers scored in this batch (0: the lane is done). */
  n: number;
  lastCod: string | null;
  /** Recalculation only: the customers whose calculated class differs from the class in force. */
  changed: string[];
  /** The run is no longer running (cancelled): stop. */
  stopped: boolean;
}

interface Current { cod_anagrafe: string; classe_attuale: Classe | null; punteggio_attuale: number | null; contributi?: ContributoConfrontato[] | null }

/**
 * One batch of a run in one tenant transaction: the next `size` active customers of the lane
 * (keyset on the code, from the lane's position stored in the run row), their scores with the
 * run's version, then
 * - ricalcolo: the scores recorded (rischio_storico, rischio_correnti) in bulk, and a result row
 *   for every customer whose calculated class differs from the class in force;
 * - simulazione: a result row per customer (score, class, current score and class, the
 *   contributions that differ) and nothing else;
 * and the run's progress, summary and lane position, in the same transaction: a retried chunk
 * starts at the first batch not committed.
 */
export async function runBatch(db: Knex, run: RunContext, lane: Lane, size: number): Promise<BatchResult> {
  return withTenant(db, { codAzienda: run.codAzienda, actor: run.actor }, async (trx) => {
    const state = await trx('rischio_esecuzioni').where({ id: run.runId }).first('stato', 'riepilogo') as { stato: string; riepilogo: { posizioni?: Record<string, string | null> } } | undefined;
    if (!state || state.stato !== 'running') return { n: 0, lastCod: null, changed: [], stopped: true };
    const after = state.riepilogo.posizioni?.[lane.index] ?? null;
    const simulazione = run.tipo === 'simulazione';
    const current = await nextCustomers(trx, run.codAzienda, after, lane.until, size, simulazione);
    if (!current.length) return { n: 0, lastCod: after, changed: [], stopped: false };
    const cods = current.map((c) => c.cod_anagrafe);
    const scores = await scoreCustomers(trx, run.codAzienda, cods, run.versione, run.oggi);

    const riepilogo = emptyRiepilogo();
    const results: ResultRow[] = [];
    const changed: string[] = [];
    const scored: { cod_anagrafe: string; punteggio: Punteggio }[] = [];
    for (const c of current) {
      const s = scores.get(c.cod_anagrafe);
      if (!s) continue;
      const p = s.punteggio;
      scored.push({ cod_anagrafe: c.cod_anagrafe, punteggio: p });
      countMove(riepilogo, c.classe_attuale, p.classe);
      const cambia = p.classe !== c.classe_attuale;
      if (cambia) changed.push(c.cod_anagrafe);
      if (simulazione) results.push(resultRow(c, p, cambia));
    }
    if (!simulazione) {
      if (changed.length) {
        // The contributions in force of the customers that change, read before recordScores replaces them.
        const before = new Map((await currentContributions(trx, run.codAzienda, changed)).map((r) => [r.cod_anagrafe, r.contributi]));
        const byCod = new Map(current.map((c) => [c.cod_anagrafe, c]));
        const changes = new Set(changed);
        for (const s of scored) {
          if (changes.has(s.cod_anagrafe)) results.push(resultRow({ ...byCod.get(s.cod_anagrafe)!, contributi: before.get(s.cod_anagrafe) ?? null }, s.punteggio, true));
        }
      }
      await recordScores(trx, run.codAzienda, scored.map((s) => ({ cod_anagrafe: s.cod_anagrafe, punteggio: s.punteggio, origine: 'portafoglio' as const, esecuzione_id: run.runId })));
    }
    await insertResults(trx, run, results);
    const lastCod = cods[cods.length - 1]!;
    await recordProgress(trx, run.runId, lane.index, lastCod, scored.length, changed.length, riepilogo);
    return { n: current.length, lastCod, changed: simulazione ? [] : changed, stopped: false };
  });
}

/** The lane's next active customers with their class and score in force (and, for a dry run, their contributions). */
async function nextCustomers(trx: Knex.Transaction, codAzienda: string, after: string | null, until: string | null, size: number, withContributions: boolean): Promise<Current[]> {
  const { rows } = await trx.raw<{ rows: Current[] }>(`
    select a.cod_anagrafe, coalesce(rc.classe_effettiva, a.classe_rischio) as classe_attuale, rc.punteggio as punteggio_attuale
           ${withContributions ? ', rc.contributi' : ''}
      from anagrafe a
      left join rischio_correnti rc on rc.cod_azienda = a.cod_azienda and rc.cod_anagrafe = a.cod_anagrafe
     where a.cod_azienda = ? and a.stato = 'attivo'
       and a.cod_anagrafe > ? ${until === null ? '' : 'and a.cod_anagrafe <= ?'}
     order by a.cod_anagrafe
     limit ?`, [codAzienda, after ?? '', ...(until === null ? [] : [until]), size]);
  return rows;
}

const currentContributions = async (trx: Knex.Transaction, codAzienda: string, cods: string[]) =>
  (await trx.raw<{ rows: { cod_anagrafe: string; contributi: ContributoConfrontato[] }[] }>(
    'select cod_anagrafe, contributi from rischio_correnti where cod_azienda = ? and cod_anagrafe = any(?)', [codAzienda, cods])).rows;

interface ResultRow {
  cod_anagrafe: string; punteggio: number; classe: Classe; punteggio_attuale: number | null; classe_attuale: Classe | null;
  cambia: boolean; differenze: ReturnType<typeof contributionDiff>;
}

const resultRow = (c: Current, p: Punteggio, cambia: boolean): ResultRow => ({
  cod_anagrafe: c.cod_anagrafe, punteggio: p.punteggio, classe: p.classe, punteggio_attuale: c.punteggio_attuale, classe_attuale: c.classe_attuale,
  cambia, differenze: contributionDiff(c.contributi ?? null, p.contributi),
});

/** The batch's result rows in one statement (a JSON array unpacked by PostgreSQL: one round trip, no bind-parameter limit). */
async function insertResults(trx: Knex.Transaction, run: RunContext, rows: ResultRow[]): Promise<void> {
  if (!rows.length) return;
  await trx.raw(`
    insert into rischio_esecuzioni_risultati (esecuzione_id, cod_azienda, cod_anagrafe, punteggio, classe, punteggio_attuale, classe_attuale, cambia, differenze)
    select ?, ?, x.cod_anagrafe, x.punteggio, x.classe, x.punteggio_attuale, x.classe_attuale, x.cambia, x.differenze
      from jsonb_to_recordset(?::jsonb) as x(cod_anagrafe text, punteggio int, classe text, punteggio_attuale int, classe_attuale text, cambia boolean, differenze jsonb)
    on conflict (esecuzione_id, cod_anagrafe) do nothing`, [run.runId, run.codAzienda, JSON.stringify(rows)]);
}

/** Adds the batch to the run's counts and summary and moves the lane's position, under the row's lock (lanes run side by side). */
async function recordProgress(trx: Knex.Transaction, runId: string, lane: number, lastCod: string, n: number, cambi: number, batch: Riepilogo): Promise<void> {
  const row = await trx('rischio_esecuzioni').where({ id: runId }).forUpdate().first('riepilogo') as { riepilogo: Partial<Riepilogo> & { posizioni?: Record<string, string | null> } };
  const { posizioni, ...so_far } = row.riepilogo;
  const riepilogo = { ...mergeRiepilogo(so_far, batch), posizioni: { ...posizioni, [lane]: lastCod } };
  await trx('rischio_esecuzioni').where({ id: runId }).update({
    elaborati: trx.raw('elaborati + ?', [n]), cambi: trx.raw('cambi + ?', [cambi]), riepilogo: JSON.stringify(riepilogo),
  });
}
