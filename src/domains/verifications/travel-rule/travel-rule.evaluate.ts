import type { Knex } from 'knex';
import type { TravelRuleRecord } from '../../../../workflows/travel-rule/travel-rule.contract';
import { evaluateTravelRule, type TravelRuleEvaluation } from './travel-rule.rules';
import type { TravelRuleScreening } from './travel-rule.types';

/** A transfer's row as the database gives it (numeric columns as text). */
export type TravelRuleRow = TravelRuleRecord;

/**
 * The row's columns with the amounts as text: the driver reads numeric as a JS number, which
 * would round an 18-decimal token amount; the API and the pages show it as stored.
 */
export const transferColumns = (db: Knex | Knex.Transaction) => ['*', db.raw('importo::text as importo'), db.raw('importo_eur::text as importo_eur')];

export async function readTransfer(trx: Knex.Transaction, id: string, lock = false): Promise<TravelRuleRow | undefined> {
  const q = trx('travel_rule_transazioni').where({ id }).first(transferColumns(trx));
  return (lock ? q.forUpdate() : q) as Promise<TravelRuleRow | undefined>;
}

/** The held decisions already taken on a transfer: how many times information was asked for (art. 17(2)). */
export async function informationRequests(trx: Knex.Transaction, transferId: string): Promise<number> {
  const r = await trx('travel_rule_decisioni').where({ transazione_id: transferId, decisione: 'held' }).count<{ n: string }[]>({ n: '*' });
  return Number(r[0]?.n ?? 0);
}

/** The rules on a row (its committed data and screening), with the information requests so far. */
export async function evaluateTransfer(trx: Knex.Transaction, row: TravelRuleRow): Promise<TravelRuleEvaluation> {
  return evaluateTravelRule({
    codAzienda: row.cod_azienda, codTransazione: row.cod_transazione, direzione: row.direzione, ivms101: row.ivms101, rete: row.rete, asset: row.asset,
    indirizzo_originatore: row.indirizzo_originatore, indirizzo_beneficiario: row.indirizzo_beneficiario, tipo_wallet: row.tipo_wallet,
    importo_eur: row.importo_eur === null || row.importo_eur === undefined ? null : Number(row.importo_eur),
    prova_controllo: row.prova_controllo, screening: (row.screening ?? null) as TravelRuleScreening | null,
    richiesteInformazioni: await informationRequests(trx, row.id),
  });
}
