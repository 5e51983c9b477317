import type { Knex } from 'knex';
import type { SeedFase, SeedStato, SeedWork } from '../../../../workflows/monitoring-seed/monitoring-seed.contract';

/** A seed job's row (monitoring_seed_jobs), dates as days and timestamps as ISO text. */
export interface SeedJobRow {
  id: string; cod_azienda: string; clienti: number; seed: string; mesi: number; storico_dal: string; dal: string; al: string;
  stato: SeedStato; fase: SeedFase; import_clienti: string | null; import_rapporti: string | null; import_movimenti: string | null;
  esecuzione_replay: string | null; piantati: Record<string, number>; righe: Record<string, number>; eventi_kyt: number; regole_attivate: number;
  alert: number; pratiche: Partial<SeedWork>; errore: string | null; workflow_id: string; created_by: string; created_at: string; started_at: string | null; finished_at: string | null;
}

const COLUMNS = (trx: Knex | Knex.Transaction) => [
  'id', 'cod_azienda', 'clienti', 'seed', 'mesi', trx.raw('storico_dal::text as storico_dal'), trx.raw('dal::text as dal'), trx.raw('al::text as al'),
  'stato', 'fase', 'import_clienti', 'import_rapporti', 'import_movimenti', 'esecuzione_replay', 'piantati', 'righe', 'eventi_kyt', 'regole_attivate',
  'alert', 'pratiche', 'errore', 'workflow_id', 'created_by', trx.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at`),
  trx.raw(`to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as started_at`),
  trx.raw(`to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as finished_at`),
];

/** The tenant's job (row-level security hides every other tenant's: another tenant's id is not found). */
export async function findSeedJob(trx: Knex.Transaction, codAzienda: string, id: string, forUpdate = false): Promise<SeedJobRow | undefined> {
  const q = trx('monitoring_seed_jobs').where({ cod_azienda: codAzienda, id }).first(COLUMNS(trx));
  return (forUpdate ? q.forUpdate() : q) as Promise<SeedJobRow | undefined>;
}

export async function updateSeedJob(trx: Knex.Transaction, codAzienda: string, id: string, patch: Record<string, unknown>): Promise<void> {
  await trx('monitoring_seed_jobs').where({ cod_azienda: codAzienda, id }).update(patch);
}

/** The tenant's latest seed job (npm start seeds the demo tenant once). */
export async function latestSeedJob(trx: Knex.Transaction, codAzienda: string): Promise<SeedJobRow | undefined> {
  return trx('monitoring_seed_jobs').where({ cod_azienda: codAzienda }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first(COLUMNS(trx)) as Promise<SeedJobRow | undefined>;
}
