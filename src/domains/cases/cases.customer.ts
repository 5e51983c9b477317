import type { Knex } from 'knex';
import { STATO_LABELS, STATO_TONES, TIPO_LABELS, PRIORITA_LABELS } from './cases.labels';
import { caseWorkflowId } from '../../../workflows/case/case.contract';

/** One case of a customer, as another area shows it (the customer file): words already in Italian. */
export interface CustomerCase {
  id: string;
  titolo: string;
  tipo: string;
  stato: string;
  statoLabel: string;
  statoTone: string;
  prioritaLabel: string;
  created_at: Date;
  closed_at: Date | null;
  workflowId: string;
}

/**
 * The investigation cases opened on a customer, newest first (at most `limit`). Inside withTenant:
 * row-level security keeps it to the tenant; the tenant predicate is explicit for the planner.
 */
export async function casesForCustomer(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string, limit = 50): Promise<CustomerCase[]> {
  const rows = await trx('cases').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit)
    .select('id', 'titolo', 'tipo', 'stato', 'priorita', 'created_at', 'closed_at', 'workflow_id') as
    { id: string; titolo: string; tipo: string; stato: keyof typeof STATO_LABELS; priorita: string; created_at: Date; closed_at: Date | null; workflow_id: string }[];
  return rows.map((r) => ({
    id: r.id, titolo: r.titolo, tipo: TIPO_LABELS[r.tipo] ?? r.tipo, stato: r.stato, statoLabel: STATO_LABELS[r.stato] ?? r.stato,
    statoTone: STATO_TONES[r.stato] ?? 'secondary', prioritaLabel: PRIORITA_LABELS[r.priorita] ?? r.priorita, created_at: r.created_at, closed_at: r.closed_at,
    workflowId: r.workflow_id || caseWorkflowId(codAzienda, r.id),
  }));
}
