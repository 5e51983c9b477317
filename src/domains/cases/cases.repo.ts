import type { Knex } from 'knex';
import { getSetting } from '../admin';
import type { CaseRecord } from '../../../workflows/case/case.contract';
import type { ListCasesQuery } from './cases.schemas';
import { isUuid } from '../../kit/ids';

/** Reads of the case projection. Always inside withTenant: RLS hides other tenants' rows. */

/** A case row as read from PostgreSQL: the contract's record, with its dates as Date. */
export interface CaseRow extends Omit<CaseRecord, 'sla_due_at' | 'created_at' | 'updated_at' | 'closed_at'> {
  sla_due_at: Date;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

export const DEFAULT_SLA_DAYS = 30;

const PRIORITY_ORDER = "case priorita when 'critica' then 4 when 'alta' then 3 when 'media' then 2 else 1 end";

export async function listCases(trx: Knex.Transaction, q: ListCasesQuery) {
  const base = trx('cases').modify((b) => {
    if (q.stato) b.where('stato', q.stato);
    if (q.priorita) b.where('priorita', q.priorita);
    if (q.overdue !== undefined) b.where('overdue', q.overdue);
    if (q.q) {
      const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      b.where((w) => w.whereILike('titolo', like).orWhereILike('descrizione', like).orWhereILike('cod_anagrafe', like));
    }
  });
  const desc = q.sort.startsWith('-');
  const col = q.sort.replace(/^-/, '');
  const dir = desc ? 'desc' : 'asc';
  const items = base.clone().select('*').limit(q.limit).offset(q.offset);
  if (col === 'priorita') items.orderByRaw(`${PRIORITY_ORDER} ${dir}`);
  else items.orderBy(col, dir);
  items.orderBy('id');
  const [rows, count] = await Promise.all([items, base.clone().count<{ n: string }[]>({ n: '*' })]);
  return { items: rows as CaseRow[], total: Number(count[0]?.n ?? 0), limit: q.limit, offset: q.offset };
}

export async function getCase(trx: Knex.Transaction, id: string): Promise<CaseRow | undefined> {
  if (!isUuid(id)) return undefined;
  return trx('cases').where({ id }).first();
}

/** The tenant's SLA for cases: setting `case.sla_days` (validated by the admin catalogue), default 30 days. */
export async function readSlaDays(trx: Knex.Transaction, codAzienda: string): Promise<number> {
  const v = Number(await getSetting(trx, 'case.sla_days', codAzienda));
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_SLA_DAYS;
}
