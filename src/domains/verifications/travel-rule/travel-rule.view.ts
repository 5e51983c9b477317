import type { Knex } from 'knex';
import type { MachineActor } from '../../../../workflows/lib/machine';
import type { Deps } from '../../../deps';
import { transferAllowedActions } from './travel-rule.commands';
import { evaluateTransfer, type TravelRuleRow } from './travel-rule.evaluate';
import { travelRuleProofMessage } from './travel-rule.proof';
import { transferDecisions } from './travel-rule.repo';

/** The self-hosted address whose control must be proven: the counterparty's (art. 14(5) outgoing, 16(2) incoming). */
export const selfHostedAddress = (row: Pick<TravelRuleRow, 'direzione' | 'indirizzo_originatore' | 'indirizzo_beneficiario'>) =>
  (row.direzione === 'in_uscita' ? row.indirizzo_beneficiario : row.indirizzo_originatore);

/**
 * The transfer as the API answers it: what this user may do now, the rules' proposal and the
 * decisions they allow (while it waits for a decision), the text to sign for proof of control,
 * and the workflow behind it.
 */
export async function transferView(trx: Knex.Transaction, temporal: Pick<Deps['temporal'], 'webUiLink'>, row: TravelRuleRow, actor: MachineActor) {
  const open = row.stato === 'screened' || row.stato === 'held';
  const evaluation = open ? await evaluateTransfer(trx, row) : null;
  const address = selfHostedAddress(row);
  return {
    ...row,
    allowed_actions: transferAllowedActions(row, actor),
    proposta: evaluation?.proposta ?? null,
    decisioni_ammesse: evaluation?.decisioni_ammesse ?? [],
    messaggio_prova_controllo: row.tipo_wallet === 'self_hosted' && address ? travelRuleProofMessage(row.cod_azienda, row.cod_transazione, row.rete ?? row.asset, address) : null,
    workflow: { id: row.workflow_id, url: temporal.webUiLink(row.workflow_id) },
  };
}

export async function transferDetail(trx: Knex.Transaction, temporal: Pick<Deps['temporal'], 'webUiLink'>, row: TravelRuleRow, actor: MachineActor) {
  return { ...(await transferView(trx, temporal, row, actor)), decisioni: await transferDecisions(trx, row.id) };
}
