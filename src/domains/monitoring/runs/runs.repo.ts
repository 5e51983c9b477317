import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import { runList, tenantScope } from '../../../kit/list';
import { isUuid } from '../../../kit/ids';
import type { RunStato, RunTipo } from '../../../../workflows/monitoring-runs/monitoring-runs.contract';
import { monitoringRunsList } from './runs.list';
import type { ListRunsQuery } from './runs.schemas';

/** monitoring_esecuzioni: a run's row, its progress and summary (inside withTenant, the tenant explicit besides). */

export interface RunRow {
  id: string; cod_azienda: string; tipo: RunTipo; stato: RunStato; giorno: string | null; dal: string; al: string; versione_id: string | null;
  versione_hash: string | null; attiva_id: string | null; totale: number; elaborati: number; eventi: number; decisioni: number; alert_nuovi: number;
  alert_aggiornati: number; posizione: string | null; riepilogo: Record<string, unknown>; errore: string | null; workflow_id: string; avviata_da: string;
  created_at: Date; updated_at: Date; finished_at: Date | null;
}

export const RUN_COLUMNS = (trx: Knex | Knex.Transaction) => [
  'id', 'cod_azienda', 'tipo', 'stato', trx.raw('giorno::text as giorno'), trx.raw('dal::text as dal'), trx.raw('al::text as al'), 'versione_id',
  'versione_hash', 'attiva_id', 'totale', 'elaborati', 'eventi', 'decisioni', 'alert_nuovi', 'alert_aggiornati', 'posizione', 'riepilogo', 'errore',
  'workflow_id', 'avviata_da', 'created_at', 'updated_at', 'finished_at',
];

export async function findRun(trx: Knex.Transaction, codAzienda: string, id: string, forUpdate = false): Promise<RunRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = trx('monitoring_esecuzioni').where({ cod_azienda: codAzienda, id }).first(RUN_COLUMNS(trx));
  return (forUpdate ? q.forUpdate() : q) as Promise<RunRow | undefined>;
}

export const listRuns = (trx: Knex.Transaction, codAzienda: string, q: ListRunsQuery) => runList<RunRow>(trx, monitoringRunsList, tenantScope(codAzienda), q);

export interface NewRun {
  id: string; codAzienda: string; tipo: RunTipo; giorno?: string | null; dal: string; al: string; versione_id?: string | null; versione_hash?: string | null;
  attiva_id?: string | null; workflow_id: string; avviata_da: string;
}

/** Writes a run's row with its audit event. */
export async function insertRun(trx: Knex.Transaction, r: NewRun): Promise<RunRow> {
  await trx('monitoring_esecuzioni').insert({
    id: r.id, cod_azienda: r.codAzienda, tipo: r.tipo, stato: 'running', giorno: r.giorno ?? null, dal: r.dal, al: r.al, versione_id: r.versione_id ?? null,
    versione_hash: r.versione_hash ?? null, attiva_id: r.attiva_id ?? null, workflow_id: r.workflow_id, avviata_da: r.avviata_da,
  });
  await appendAudit(trx, {
    codAzienda: r.codAzienda, actor: r.avviata_da, action: 'monitoring.run.start', entityType: 'monitoring_run', entityId: r.id,
    data: { tipo: r.tipo, dal: r.dal, al: r.al, ...(r.giorno ? { giorno: r.giorno } : {}), ...(r.versione_id ? { versione_id: r.versione_id } : {}) },
  });
  return (await findRun(trx, r.codAzienda, r.id))!;
}

/** Adds a committed batch's counts and moves the run's position past its last customer (same transaction as the batch). */
export async function addProgress(trx: Knex.Transaction, runId: string, p: {
  elaborati: number; eventi?: number; decisioni?: number; alert_nuovi?: number; alert_aggiornati?: number; posizione: string;
}): Promise<void> {
  await trx('monitoring_esecuzioni').where({ id: runId }).update({
    elaborati: trx.raw('elaborati + ?', [p.elaborati]), eventi: trx.raw('eventi + ?', [p.eventi ?? 0]), decisioni: trx.raw('decisioni + ?', [p.decisioni ?? 0]),
    alert_nuovi: trx.raw('alert_nuovi + ?', [p.alert_nuovi ?? 0]), alert_aggiornati: trx.raw('alert_aggiornati + ?', [p.alert_aggiornati ?? 0]),
    posizione: p.posizione, updated_at: new Date(),
  });
}

/** Ends a run (completed, failed with its error, cancelled) with its audit event; a run already ended stays as it is. */
export async function finishRunRow(trx: Knex.Transaction, codAzienda: string, runId: string, p: {
  stato: Exclude<RunStato, 'running'>; errore?: string; riepilogo?: Record<string, unknown>; actor?: string;
}): Promise<RunRow | undefined> {
  const run = await findRun(trx, codAzienda, runId, true);
  if (!run || run.stato !== 'running') return run;
  const now = new Date();
  await trx('monitoring_esecuzioni').where({ id: runId }).update({
    stato: p.stato, errore: p.errore ?? null, finished_at: now, updated_at: now,
    ...(p.riepilogo ? { riepilogo: JSON.stringify({ ...run.riepilogo, ...p.riepilogo }) } : {}),
  });
  await appendAudit(trx, {
    codAzienda, actor: p.actor ?? 'sistema:monitoraggio', action: p.stato === 'cancelled' ? 'monitoring.run.cancel' : 'monitoring.run.finish',
    entityType: 'monitoring_run', entityId: runId,
    data: {
      tipo: run.tipo, to: p.stato, elaborati: run.elaborati, totale: run.totale, decisioni: run.decisioni, alert_nuovi: run.alert_nuovi,
      ...(p.errore ? { errore: p.errore } : {}),
    },
  });
  return findRun(trx, codAzienda, runId);
}

/** The customers who moved (a movement or a KYT event) in [dal, al], after `after`, in code order: a run's next batch. */
export async function customersPage(trx: Knex.Transaction, codAzienda: string, p: { dal: string; al: string; after: string | null; limit: number }): Promise<string[]> {
  const after = p.after ?? '';
  const { rows } = await trx.raw<{ rows: { cod_anagrafe: string }[] }>(`
    select cod_anagrafe from (
      (select distinct cod_anagrafe from movimenti where cod_azienda = ? and data_operazione between ? and ? and cod_anagrafe > ? order by cod_anagrafe limit ?)
      union
      (select distinct cod_anagrafe from kyt_eventi where cod_azienda = ? and giorno between ? and ? and cod_anagrafe > ? order by cod_anagrafe limit ?)
    ) c order by cod_anagrafe limit ?`,
  [codAzienda, p.dal, p.al, after, p.limit, codAzienda, p.dal, p.al, after, p.limit, p.limit]);
  return rows.map((r) => r.cod_anagrafe);
}

/** How many customers moved in [dal, al]: a run's total. */
export async function countCustomers(trx: Knex.Transaction, codAzienda: string, dal: string, al: string): Promise<number> {
  const { rows } = await trx.raw<{ rows: { n: string }[] }>(`
    select count(*) as n from (
      select cod_anagrafe from movimenti where cod_azienda = ? and data_operazione between ? and ?
      union
      select cod_anagrafe from kyt_eventi where cod_azienda = ? and giorno between ? and ?
    ) c`, [codAzienda, dal, al, codAzienda, dal, al]);
  return Number(rows[0]?.n ?? 0);
}
