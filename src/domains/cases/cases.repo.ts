import type { Knex } from 'knex';
import { getSetting } from '../admin';
import { CASE_PRIORITA, type CaseRecord } from '../../../workflows/case/case.contract';

type Priorita = (typeof CASE_PRIORITA)[number];
import type { ListCasesQuery } from './cases.schemas';
import { isUuid } from '../../kit/ids';
import { runList, tenantScope } from '../../kit/list';
import { casesList } from './cases.list';

/** Reads of the case projection. Always inside withTenant: RLS hides other tenants' rows. */

/** A case row as read from PostgreSQL: the contract's record, with its dates as Date. */
export interface CaseRow extends Omit<CaseRecord, 'sla_due_at' | 'created_at' | 'updated_at' | 'closed_at'> {
  sla_due_at: Date;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

/** Used only when a stored setting is unreadable: the catalogue's defaults are the real ones. */
export const DEFAULT_SLA_DAYS = 30;

/**
 * The cases list (src/kit/list): keyset pages, capped count, the tenant predicate explicit.
 * `assegnatario=me` is the caller (`me`, their cod_utente).
 */
export function listCases(trx: Knex.Transaction, codAzienda: string, q: ListCasesQuery, me: string) {
  const req: ListCasesQuery = { ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario };
  return runList<CaseRow>(trx, casesList, tenantScope(codAzienda), req);
}

export async function getCase(trx: Knex.Transaction, id: string): Promise<CaseRow | undefined> {
  if (!isUuid(id)) return undefined;
  return trx('cases').where({ id }).first();
}

/**
 * The tenant's SLA for a case of this priority: setting `case.sla_days.<priorita>` (validated by
 * the admin catalogue), else the single `case.sla_days` a tenant saved before SLAs were per
 * priority, else the catalogue's default for the priority.
 */
export async function readSlaDays(trx: Knex.Transaction, codAzienda: string, priorita: Priorita): Promise<number> {
  const v = Number(await getSetting(trx, `case.sla_days.${priorita}`, codAzienda));
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_SLA_DAYS;
}

/** The SLA of every priority, for the new-case form. */
export async function readSlaDaysByPriority(trx: Knex.Transaction, codAzienda: string): Promise<Record<Priorita, number>> {
  const days = {} as Record<Priorita, number>;
  // One connection per transaction: the reads run one after the other anyway.
  for (const p of CASE_PRIORITA) days[p] = await readSlaDays(trx, codAzienda, p);
  return days;
}
