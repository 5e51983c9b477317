import type { Knex } from 'knex';
import { SYNC_TIPI, type SyncTipo } from './sync.sources';

/** The engine's sync records as the API shows them (docs/monitoring.md, "The engine process and its sync"). */

const SYNC_COLUMNS = ['id', 'cod_sync', 'tipo', 'stato', 'origine', 'replay_di', 'esaminati', 'inseriti', 'aggiornati', 'rimossi', 'invariati', 'scarti',
  'errore', 'motore', 'avviata_da', 'started_at', 'ended_at', 'rieseguita_da', 'rieseguita_at', 'tentativi', 'ultimo_errore', 'ultimo_tentativo_at',
  'ultimo_tentativo_da'] as const;

export interface SyncRecord {
  id: string; cod_sync: string; tipo: SyncTipo; stato: string; origine: string; replay_di: string | null;
  esaminati: number; inseriti: number; aggiornati: number; rimossi: number; invariati: number; scarti: number;
  errore: string | null; motore: string | null; avviata_da: string; started_at: Date; ended_at: Date | null; rieseguita_da: string | null; rieseguita_at: Date | null;
  /** Replays that failed again, the last one's error, time and run. */
  tentativi: number; ultimo_errore: string | null; ultimo_tentativo_at: Date | null; ultimo_tentativo_da: string | null;
}

export const DEAD_STATI = ['scarti', 'fallita'] as const;

export async function findSync(trx: Knex.Transaction, codAzienda: string, codSync: string): Promise<SyncRecord | undefined> {
  return trx('engine_sync').where({ cod_azienda: codAzienda, cod_sync: codSync }).first(...SYNC_COLUMNS);
}

/** The records a dead letter could not copy, and why (bounded: the first `limit`). */
export async function deadRecords(trx: Knex.Transaction, syncIds: readonly string[], limit = 1_000) {
  if (!syncIds.length) return [];
  return trx('engine_sync_scarti').whereIn('sync_id', [...syncIds]).orderBy(['sync_id', 'chiave']).limit(limit)
    .select('sync_id', 'tipo', 'chiave', 'motivo') as Promise<{ sync_id: string; tipo: SyncTipo; chiave: string; motivo: string }[]>;
}

/** Dead letters, newest first: runs with records not copied (`scarti`) or failed as a whole (`fallita`), not yet replayed. */
export async function listDeadLetters(trx: Knex.Transaction, codAzienda: string, q: { tipo?: SyncTipo; limit: number }) {
  const b = trx('engine_sync').where('cod_azienda', codAzienda).whereIn('stato', [...DEAD_STATI]).orderBy('started_at', 'desc').limit(q.limit).select(...SYNC_COLUMNS);
  if (q.tipo) b.andWhere('tipo', q.tipo);
  const runs = await b as SyncRecord[];
  const records = await deadRecords(trx, runs.map((r) => r.id), 50 * Math.max(1, runs.length));
  const byRun = new Map<string, { tipo: SyncTipo; chiave: string; motivo: string }[]>();
  for (const r of records) (byRun.get(r.sync_id) ?? byRun.set(r.sync_id, []).get(r.sync_id)!).push({ tipo: r.tipo, chiave: r.chiave, motivo: r.motivo });
  // Fifty records per dead letter in the list: the run's count says how many there are.
  return runs.map((r) => ({ ...r, record: (byRun.get(r.id) ?? []).slice(0, 50) }));
}

/** Per kind: the counts of the runs, the last success, its lag, the open dead letters, the copy's size. */
export async function syncStats(trx: Knex.Transaction, codAzienda: string, now = new Date()) {
  const rows = await trx('engine_sync').where('cod_azienda', codAzienda).groupBy('tipo').select('tipo',
    trx.raw('count(*)::int as esecuzioni'),
    trx.raw("count(*) filter (where stato = 'completata')::int as completate"),
    trx.raw("count(*) filter (where stato in ('scarti', 'fallita'))::int as dead_letter"),
    trx.raw("count(*) filter (where stato = 'rieseguita')::int as rieseguite"),
    trx.raw("count(*) filter (where stato = 'in_corso')::int as in_corso"),
    trx.raw("coalesce(sum(scarti) filter (where stato in ('scarti', 'fallita')), 0)::int as record_scartati"),
    trx.raw("max(ended_at) filter (where stato in ('completata', 'scarti')) as ultima_riuscita"),
    trx.raw('max(started_at) as ultima_avviata')) as
    { tipo: SyncTipo; esecuzioni: number; completate: number; dead_letter: number; rieseguite: number; in_corso: number; record_scartati: number; ultima_riuscita: Date | null; ultima_avviata: Date | null }[];
  const copy = await trx('engine_copia').where('cod_azienda', codAzienda).groupBy('tipo').select('tipo', trx.raw('count(*)::int as n')) as { tipo: SyncTipo; n: number }[];
  const byTipo = new Map(rows.map((r) => [r.tipo, r]));
  const copied = new Map(copy.map((r) => [r.tipo, r.n]));
  return SYNC_TIPI.map((tipo) => {
    const r = byTipo.get(tipo);
    const last = r?.ultima_riuscita ?? null;
    return {
      tipo, esecuzioni: r?.esecuzioni ?? 0, completate: r?.completate ?? 0, dead_letter: r?.dead_letter ?? 0, rieseguite: r?.rieseguite ?? 0,
      in_corso: r?.in_corso ?? 0, record_scartati: r?.record_scartati ?? 0, record_in_copia: copied.get(tipo) ?? 0,
      ultima_riuscita: last, ultima_avviata: r?.ultima_avviata ?? null,
      // Lag: how long ago the copy was last brought up to date (null: never).
      ritardo_secondi: last ? Math.max(0, Math.round((now.getTime() - new Date(last).getTime()) / 1000)) : null,
    };
  });
}
