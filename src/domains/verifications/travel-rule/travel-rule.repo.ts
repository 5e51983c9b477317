import type { Knex } from 'knex';
import { runList, tenantScope, type ListRequest } from '../../../kit/list';
import { transferColumns, type TravelRuleRow } from './travel-rule.evaluate';
import { travelRuleList } from './travel-rule.list';
import type { ListTransfersQuery } from './travel-rule.schemas';

/** Reads of the transfers' projection. Always inside withTenant: RLS hides other tenants' rows. */

const CODE = /^TRR-[0-9]{6,}$/;

/** The transfer by its code (TRR-000001); undefined when it is not this tenant's. */
export async function getTransfer(trx: Knex.Transaction, codAzienda: string, codTransazione: string): Promise<TravelRuleRow | undefined> {
  if (!CODE.test(codTransazione)) return undefined;
  return trx('travel_rule_transazioni').where({ cod_azienda: codAzienda, cod_transazione: codTransazione }).first(transferColumns(trx));
}

export async function transferByReference(trx: Knex.Transaction, codAzienda: string, riferimento: string): Promise<TravelRuleRow | undefined> {
  return trx('travel_rule_transazioni').where({ cod_azienda: codAzienda, riferimento_esterno: riferimento }).first(transferColumns(trx));
}

export function listTransfers(trx: Knex.Transaction, codAzienda: string, q: ListTransfersQuery) {
  return runList<TravelRuleRow>(trx, travelRuleList, tenantScope(codAzienda), q as ListRequest);
}

/** The decisions taken on a transfer, oldest first (a held transfer is decided again). */
export async function transferDecisions(trx: Knex.Transaction, transferId: string) {
  return trx('travel_rule_decisioni').where({ transazione_id: transferId }).orderBy('decided_at').orderBy('id')
    .select('decisione', 'motivo', 'regole', 'informazioni_mancanti', 'decided_by', 'decided_at');
}

export async function transferAudit(trx: Knex.Transaction, codAzienda: string, transferId: string) {
  return trx('audit_events').where({ cod_azienda: codAzienda, entity_type: 'travel_rule', entity_id: transferId })
    .orderByRaw('seq nulls last, id').select('seq', 'action', 'actor', 'occurred_at', 'data');
}
