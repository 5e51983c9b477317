import type { Knex } from 'knex';
import { withTenant } from '../../db/tenant';
import { isUuid } from '../../kit/ids';
import type { CddTaskRecord } from '../../../workflows/cdd/cdd-task.contract';
import { CDD_OPEN_STATES } from '../../../workflows/cdd/cdd-task.machine';

/** Reads of the CDD task projection. Inside withTenant: RLS hides other tenants' rows. */

/** A task row as read from PostgreSQL: the contract's record with its dates as Date. */
export type CddTaskRow = Omit<CddTaskRecord, 'started_at' | 'review_requested_at' | 'completed_at' | 'abstained_at' | 'deleted_at' | 'next_review_at' | 'due_at' | 'created_at' | 'updated_at'> & {
  started_at: Date | null; review_requested_at: Date | null; completed_at: Date | null; abstained_at: Date | null;
  deleted_at: Date | null; next_review_at: Date | null; due_at: Date; created_at: Date; updated_at: Date;
};

export const CDD_CODE = /^CDD-\d{6,}$/;

/** A task by its uuid or its code ('CDD-000001'); anything else, or another tenant's, is not found. */
export async function getCddTask(trx: Knex.Transaction, idOrCode: string): Promise<CddTaskRow | undefined> {
  if (isUuid(idOrCode)) return trx('cdd_pratiche').where({ id: idOrCode }).first();
  if (CDD_CODE.test(idOrCode)) return trx('cdd_pratiche').where({ cod_pratica: idOrCode }).first();
  return undefined;
}

export function findCddTask(db: Knex, codAzienda: string, idOrCode: string): Promise<CddTaskRow | undefined> {
  return withTenant(db, { codAzienda }, (trx) => getCddTask(trx, idOrCode));
}

/** The customer's task still being worked, if any (there is at most one). */
export async function openCddTaskFor(trx: Knex.Transaction, codAnagrafe: string): Promise<CddTaskRow | undefined> {
  return trx('cdd_pratiche').where({ cod_anagrafe: codAnagrafe }).whereIn('stato', CDD_OPEN_STATES).first();
}

/** Every task of a customer, newest first (the customer file and GET /api/cdd/history). */
export async function cddHistoryForCustomer(trx: Knex.Transaction, codAnagrafe: string): Promise<CddTaskRow[]> {
  return trx('cdd_pratiche').where({ cod_anagrafe: codAnagrafe }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

export interface CddEvidenceRow {
  id: string; cdd_pratica_id: string; tipo: string; descrizione: string; riferimento: string | null;
  sha256: string | null; nome_file: string | null; mime: string | null; dimensione: string | null; created_by: string; created_at: Date;
}

export function cddEvidence(trx: Knex.Transaction, taskId: string): Promise<CddEvidenceRow[]> {
  return trx('cdd_evidenze').where({ cdd_pratica_id: taskId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** The task's audit trail (who moved it, when, with which note), oldest first. */
export function cddTaskAudit(trx: Knex.Transaction, taskId: string) {
  return trx('audit_events').where({ entity_type: 'cdd_task', entity_id: taskId })
    .orderByRaw('seq nulls last, id').select('action', 'actor', 'data', 'occurred_at');
}
