import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit } from '../../src/domains/audit';
import { nextCode } from '../../src/domains/records';
import { evaluateTransfer, readTransfer, screenTransferParties, type TravelRuleRow } from '../../src/domains/verifications';
import {
  TRAVEL_RULE_FAILURES, type TravelRuleCreation, type TravelRuleProjection, type TravelRuleRecord,
} from '../../workflows/travel-rule/travel-rule.contract';
import type { ActivityDeps } from '../deps';

const fail = (type: string, message: string, details?: Record<string, unknown>) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, ...(details ? { details: [details] } : {}) });

const DECISIONS: Record<string, string> = { approve: 'approved', hold: 'held', return: 'returned', reject: 'rejected' };

async function lockRow(trx: Knex.Transaction, id: string): Promise<TravelRuleRow> {
  const row = await readTransfer(trx, id, true);
  if (!row) throw fail(TRAVEL_RULE_FAILURES.notFound, `travel-rule transfer ${id} not found`);
  return row;
}

/** This transition's audit event, when a previous attempt already committed it (its data carries the transition id). */
const written = (trx: Knex.Transaction, p: TravelRuleProjection) => trx('audit_events')
  .where({ cod_azienda: p.codAzienda, entity_type: 'travel_rule', entity_id: p.transferId })
  .whereRaw("data->>'transition_id' = ?", [p.transitionId]).first('id');

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * The travel-rule transfer's projections: each step is one transaction on
 * travel_rule_transazioni (and travel_rule_decisioni for a decision) with its audit event,
 * idempotent on the transition id so a retried activity writes nothing twice.
 */
export function createTravelRuleActivities(deps: ActivityDeps) {
  const { db } = deps;
  const tx = <T>(p: { codAzienda: string; actor: { username: string } }, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(db, { codAzienda: p.codAzienda, actor: p.actor.username }, fn);

  return {
    /** Records the transfer (received) with its code, or answers the row this id already wrote. */
    async createTravelRuleProjection(p: TravelRuleCreation): Promise<TravelRuleRecord> {
      return tx(p, async (trx) => {
        const mine = await readTransfer(trx, p.transferId);
        if (mine) return mine;
        const d = p.data;
        if (d.cod_anagrafe && !(await trx('anagrafe').where({ cod_anagrafe: d.cod_anagrafe }).first('cod_anagrafe'))) {
          throw fail(TRAVEL_RULE_FAILURES.customerNotFound, `customer ${d.cod_anagrafe} not found`, { cod_anagrafe: d.cod_anagrafe });
        }
        if (d.riferimento_esterno) {
          const other = await trx('travel_rule_transazioni').where({ riferimento_esterno: d.riferimento_esterno }).first('cod_transazione');
          if (other) throw fail(TRAVEL_RULE_FAILURES.duplicateReference, 'reference already used', { cod_transazione: other.cod_transazione });
        }
        const cod = await nextCode(trx, p.codAzienda, 'TRR');
        await trx('travel_rule_transazioni').insert({
          id: p.transferId, cod_azienda: p.codAzienda, cod_transazione: cod, direzione: d.direzione, cod_anagrafe: d.cod_anagrafe, asset: d.asset, rete: d.rete,
          importo: d.importo, importo_eur: d.importo_eur, tx_hash: d.tx_hash, indirizzo_originatore: d.indirizzo_originatore,
          indirizzo_beneficiario: d.indirizzo_beneficiario, tipo_wallet: d.tipo_wallet, vasp_controparte: d.vasp_controparte,
          prova_controllo: json(d.prova_controllo), ivms101: JSON.stringify(d.ivms101), stato: 'received',
          riferimento_esterno: d.riferimento_esterno, workflow_id: p.workflowId, created_by: p.actor.id,
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'travel_rule.record', entityType: 'travel_rule', entityId: p.transferId,
          data: {
            cod_transazione: cod, direzione: d.direzione, to: 'received', asset: d.asset, importo: d.importo, importo_eur: d.importo_eur,
            tipo_wallet: d.tipo_wallet, cod_anagrafe: d.cod_anagrafe, riferimento_esterno: d.riferimento_esterno, workflow_id: p.workflowId,
          },
        });
        return (await readTransfer(trx, p.transferId))!;
      });
    },

    /** Screens names and addresses (outside the transaction: the lists are read), then writes the result and the rules. */
    async screenTravelRule(p: TravelRuleProjection): Promise<TravelRuleRecord> {
      const before = await tx(p, (trx) => readTransfer(trx, p.transferId));
      if (!before) throw fail(TRAVEL_RULE_FAILURES.notFound, `travel-rule transfer ${p.transferId} not found`);
      const screening = await screenTransferParties(db, p.codAzienda, before);
      return tx(p, async (trx) => {
        const row = await lockRow(trx, p.transferId);
        if (await written(trx, p)) return row;
        const evaluation = await evaluateTransfer(trx, { ...row, screening });
        await trx('travel_rule_transazioni').where({ id: p.transferId }).update({
          stato: p.to, screening: JSON.stringify(screening), screened_at: new Date(), screened_by: p.actor.id,
          regole: JSON.stringify(evaluation.regole), informazioni_mancanti: JSON.stringify(evaluation.informazioni_mancanti), updated_at: new Date(),
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'travel_rule.screen', entityType: 'travel_rule', entityId: p.transferId,
          data: {
            cod_transazione: row.cod_transazione, from: p.from, to: p.to, transition_id: p.transitionId, proposta: evaluation.proposta,
            nomi: screening.nomi.length, corrispondenze_nomi: screening.nomi.filter((n) => n.hits.some((h) => h.alert)).map((n) => n.nome),
            indirizzi: screening.indirizzi.length, indirizzi_sanzionati: screening.indirizzi.filter((a) => a.hit).map((a) => a.indirizzo),
          },
        });
        return (await readTransfer(trx, p.transferId))!;
      });
    },

    /**
     * A decision: the rules are evaluated again on the committed data, a decision laxer than they
     * allow is refused (a person's; the platform's own at the deadline is the strict one anyway),
     * and the row, the history row and the audit event carry the rules that led to it.
     */
    async decideTravelRule(p: TravelRuleProjection): Promise<TravelRuleRecord> {
      return tx(p, async (trx) => {
        const row = await lockRow(trx, p.transferId);
        if (await written(trx, p)) return row;
        const decisione = DECISIONS[p.action]!;
        const evaluation = await evaluateTransfer(trx, row);
        if (!p.automatico && !(evaluation.decisioni_ammesse as string[]).includes(decisione)) {
          throw fail(TRAVEL_RULE_FAILURES.decisionNotAllowed, `decision ${decisione} not allowed by the rules (proposal ${evaluation.proposta})`, {
            state: row.stato, action: p.action, decisione, proposta: evaluation.proposta, decisioni_ammesse: evaluation.decisioni_ammesse,
            regole: evaluation.regole.filter((r) => r.esito === 'mancante' || r.esito === 'violata'),
          });
        }
        const regole = p.automatico
          ? [...evaluation.regole, { regola: 'termine_integrazione', articolo: 'art. 17(1)', esito: 'violata', messaggio: p.motivo }]
          : evaluation.regole;
        const motivo = p.motivo ?? 'Regole rispettate: nessuna informazione mancante, nessuna corrispondenza nelle liste sanzioni';
        const now = new Date();
        await trx('travel_rule_transazioni').where({ id: p.transferId }).update({
          stato: p.to, decisione, motivo, regole: JSON.stringify(regole), informazioni_mancanti: JSON.stringify(evaluation.informazioni_mancanti),
          decided_by: p.actor.id, decided_at: now, updated_at: now,
        });
        await trx('travel_rule_decisioni').insert({
          id: randomUUID(), cod_azienda: p.codAzienda, transazione_id: p.transferId, decisione, motivo, regole: JSON.stringify(regole),
          informazioni_mancanti: JSON.stringify(evaluation.informazioni_mancanti), decided_by: p.actor.id, decided_at: now,
        });
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'travel_rule.decide', entityType: 'travel_rule', entityId: p.transferId,
          data: {
            cod_transazione: row.cod_transazione, from: p.from, to: p.to, transition_id: p.transitionId, decisione, motivo, proposta: evaluation.proposta,
            automatico: !!p.automatico, regole: regole.map((r) => ({ regola: r.regola, esito: r.esito })),
            informazioni_mancanti: evaluation.informazioni_mancanti.map((m) => m.campo),
          },
        });
        return (await readTransfer(trx, p.transferId))!;
      });
    },

    /** The missing data of a held transfer: the new payload (the old one stays in the audit event), received again. */
    async completeTravelRule(p: TravelRuleProjection): Promise<TravelRuleRecord> {
      return tx(p, async (trx) => {
        const row = await lockRow(trx, p.transferId);
        if (await written(trx, p)) return row;
        const patch: Record<string, unknown> = { stato: p.to, ivms101: JSON.stringify(p.ivms101), updated_at: new Date() };
        if (p.prova_controllo !== undefined) patch.prova_controllo = json(p.prova_controllo);
        if (p.indirizzo_originatore !== undefined) patch.indirizzo_originatore = p.indirizzo_originatore;
        await trx('travel_rule_transazioni').where({ id: p.transferId }).update(patch);
        await appendAudit(trx, {
          codAzienda: p.codAzienda, actor: p.actor.username, action: 'travel_rule.complete', entityType: 'travel_rule', entityId: p.transferId,
          data: {
            cod_transazione: row.cod_transazione, from: p.from, to: p.to, transition_id: p.transitionId,
            informazioni_richieste: (row.informazioni_mancanti as { campo: string }[]).map((m) => m.campo),
            ivms101_precedente: row.ivms101, prova_controllo_aggiunta: p.prova_controllo !== undefined && p.prova_controllo !== null,
          },
        });
        return (await readTransfer(trx, p.transferId))!;
      });
    },
  };
}
