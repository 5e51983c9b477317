import type { Knex } from 'knex';
import { runList, tenantScope } from '../../kit/list';
import type { Segno } from './movements.labels';
import { movementColumns, movementsList } from './movements.list';
import type { ListMovementsQuery } from './movements.schemas';

/** Reads of movements. Always inside withTenant: row-level security hides other tenants' rows. */

/** A movement as read: dates as 'YYYY-MM-DD', amounts as numbers (euro cents are exact below 2^53). */
export interface MovementRecord {
  id: string;
  cod_azienda: string;
  cod_rapporto: string;
  cod_anagrafe: string;
  data_operazione: string;
  /** 'HH:MM:SS', when the source had it. */
  ora_operazione: string | null;
  data_valuta: string | null;
  importo: number;
  valuta: string;
  importo_eur: number;
  segno: Segno;
  causale: string | null;
  canale: string | null;
  contanti: boolean;
  controparte_nome: string | null;
  controparte_conto: string | null;
  controparte_paese: string | null;
  chiave_esterna: string;
  /** Who executed it (any subject of the tenant), when known. */
  cod_anagrafe_esecutore: string | null;
  import_id: string | null;
  created_by: string;
  created_at: Date;
}

export function listMovements(trx: Knex.Transaction, codAzienda: string, q: ListMovementsQuery) {
  return runList<MovementRecord>(trx, movementsList, tenantScope(codAzienda), q);
}

/** The tenant the transaction was opened for (withTenant): the explicit predicate lets the planner use the tenant-first indexes. */
const currentTenant = (trx: Knex) => trx.raw('(select app_current_tenant())');

/** A customer's latest movements, newest first: one index read backwards, stopping after `limit` rows. */
export function recentMovementsQuery(trx: Knex, codAnagrafe: string, limit = 10): Knex.QueryBuilder {
  return trx('movimenti').select(movementColumns(trx))
    .where('cod_azienda', currentTenant(trx)).andWhere('cod_anagrafe', codAnagrafe)
    .orderBy([{ column: 'movimenti.data_operazione', order: 'desc' }, { column: 'movimenti.id', order: 'desc' }]) // the column, not the selected text
    .limit(Math.max(1, Math.min(Math.trunc(limit), 200)));
}

export async function recentMovements(trx: Knex.Transaction, codAnagrafe: string, limit = 10): Promise<MovementRecord[]> {
  return recentMovementsQuery(trx, codAnagrafe, limit) as Promise<MovementRecord[]>;
}

/** One month of a customer's movements, in euro. */
export interface MonthlyVolume {
  /** 'YYYY-MM' */
  mese: string;
  entrate: number;
  uscite: number;
  contanti: number;
  numero: number;
}

/** The first day of the first month and of the month after the last, for `months` months up to today's. */
function monthsRange(months: number, today: Date): { n: number; first: Date; next: Date } {
  const n = Math.max(1, Math.min(Math.trunc(months), 120));
  return {
    n,
    first: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (n - 1), 1)),
    next: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1)),
  };
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The volumes' query: one customer's index, the date bounds as values so only those months' partitions are read. */
export function monthlyVolumesQuery(trx: Knex, codAnagrafe: string, months = 12, today = new Date()): Knex.QueryBuilder {
  const { first, next } = monthsRange(months, today);
  return trx('movimenti')
    .select(trx.raw("to_char(data_operazione, 'YYYY-MM') as mese"))
    .select(trx.raw("coalesce(sum(importo_eur) filter (where segno = 'entrata'), 0) as entrate"))
    .select(trx.raw("coalesce(sum(importo_eur) filter (where segno = 'uscita'), 0) as uscite"))
    .select(trx.raw('coalesce(sum(importo_eur) filter (where contanti), 0) as contanti'))
    .select(trx.raw('count(*)::int as numero'))
    .where('cod_azienda', currentTenant(trx)).andWhere('cod_anagrafe', codAnagrafe)
    .andWhere('data_operazione', '>=', isoDay(first))
    .andWhere('data_operazione', '<', isoDay(next))
    .groupByRaw('1');
}

/**
 * A customer's monthly volumes in euro (incoming, outgoing, cash, count) over the last `months`
 * months, this one included, oldest first, months without movements as zeros: the customer file's chart.
 */
export async function movementsMonthlyVolumes(trx: Knex.Transaction, codAnagrafe: string, months = 12, today = new Date()): Promise<MonthlyVolume[]> {
  const { n, first } = monthsRange(months, today);
  const rows = (await monthlyVolumesQuery(trx, codAnagrafe, months, today)) as MonthlyVolume[];
  const byMonth = new Map(rows.map((r) => [r.mese, r]));
  return Array.from({ length: n }, (_, i) => {
    const mese = isoDay(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1))).slice(0, 7);
    const r = byMonth.get(mese);
    return { mese, entrate: Number(r?.entrate ?? 0), uscite: Number(r?.uscite ?? 0), contanti: Number(r?.contanti ?? 0), numero: r?.numero ?? 0 };
  });
}

/**
 * Movements by id (an alert's operations, a movement's page), inside withTenant. Each month's
 * primary key (id, data_operazione) answers the id; with the dates the caller knows, only those
 * months are read.
 */
export async function movementsByIds(trx: Knex.Transaction, codAzienda: string, ids: readonly string[], dates?: readonly string[]): Promise<MovementRecord[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const q = trx('movimenti').select(movementColumns(trx)).where('cod_azienda', codAzienda).whereIn('id', wanted);
  if (dates?.length) q.whereIn('data_operazione', [...new Set(dates)]);
  return q.orderBy([{ column: 'movimenti.data_operazione', order: 'desc' }, { column: 'movimenti.id', order: 'desc' }]) as Promise<MovementRecord[]>;
}
