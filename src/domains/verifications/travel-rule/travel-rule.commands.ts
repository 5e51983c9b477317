import { createHash } from 'node:crypto';
import { WorkflowNotFoundError, type ApplicationFailure } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import { allowedActions, isFinal, type MachineActor } from '../../../../workflows/lib/machine';
import {
  createTravelRuleUpdate, TRAVEL_RULE_FAILURES, TRAVEL_RULE_RECORD_TYPE, TRAVEL_RULE_WORKFLOW_TYPE, travelRuleTransitionUpdate, travelRuleWorkflowId,
  type TravelRuleNewData, type TravelRuleTransitionArgs, type TravelRuleWorkflowInput,
} from '../../../../workflows/travel-rule/travel-rule.contract';
import { DECISION_ACTIONS, travelRuleMachine, type TravelRuleAction } from '../../../../workflows/travel-rule/travel-rule.machine';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { conflict, HttpError, notFound, ValidationError } from '../../../http/errors';
import { canonicalJson } from '../../../lib/canonical-json';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type UpdateErrorMapping } from '../../../kit/process';
import { newRecordId } from '../../../kit/request-context';
import type { DecisioneTravelRule } from '../verifications.vocabulary';
import { validateIvms101 } from './ivms101.validate';
import { DECISIONE_LABELS, REJECTION_MESSAGES } from './travel-rule.labels';
import { getTransfer, transferByReference } from './travel-rule.repo';
import { readTransfer, type TravelRuleRow } from './travel-rule.evaluate';
import type { RecordTransferInput } from './travel-rule.schemas';

/** The web process's deps (the Temporal client provider) or a client at hand (tests, scripts). */
export type TravelRuleDeps = { db: Knex } & ({ temporal: Deps['temporal'] } | ProcessClient);

async function processClient(deps: TravelRuleDeps): Promise<ProcessClient> {
  if ('client' in deps) return { client: deps.client, taskQueue: deps.taskQueue };
  return { client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

function ownFailure(type: string, f: ApplicationFailure): HttpError | undefined {
  const d = (f.details?.[0] ?? {}) as Record<string, unknown>;
  switch (type) {
    case TRAVEL_RULE_FAILURES.customerNotFound: return new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato in anagrafe' }]);
    case TRAVEL_RULE_FAILURES.duplicateReference:
      return conflict('DUPLICATE_REFERENCE', `Il riferimento esterno è già usato dal trasferimento ${String(d.cod_transazione ?? '')}`, { cod_transazione: d.cod_transazione });
    case TRAVEL_RULE_FAILURES.notFound: return notFound('Trasferimento', 'm');
    case TRAVEL_RULE_FAILURES.decisionNotAllowed: {
      const ammesse = (d.decisioni_ammesse as DecisioneTravelRule[] | undefined) ?? [];
      return conflict('DECISION_NOT_ALLOWED',
        `Le regole non consentono la decisione «${DECISIONE_LABELS[d.decisione as DecisioneTravelRule] ?? String(d.decisione)}»: proposta «${DECISIONE_LABELS[d.proposta as DecisioneTravelRule] ?? String(d.proposta)}», ammesse ${ammesse.map((x) => `«${DECISIONE_LABELS[x]}»`).join(', ')}`,
        { state: d.state, proposta: d.proposta, decisioni_ammesse: ammesse, allowed_actions: ammesse.map((x) => DECISION_ACTIONS[x]), regole: d.regole });
    }
    default: return undefined;
  }
}
const MAPPING: UpdateErrorMapping = { messages: REJECTION_MESSAGES, failures: ownFailure };

/** A stable id for an external reference: a retry of the same transfer reaches the same workflow, even in a race. */
const idFromReference = (codAzienda: string, riferimento: string) => {
  const x = createHash('sha256').update(`travel-rule:${codAzienda}:${riferimento}`).digest('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-4${x.slice(13, 16)}-${((parseInt(x[16]!, 16) & 0x3) | 0x8).toString(16)}${x.slice(17, 20)}-${x.slice(20, 32)}`;
};

/** What makes two recordings the same transfer (the fields the sender states). */
const sameTransfer = (row: TravelRuleRow, d: TravelRuleNewData) => canonicalJson({
  direzione: row.direzione, asset: row.asset, importo: Number(row.importo), indirizzo_beneficiario: row.indirizzo_beneficiario, ivms101: row.ivms101,
}) === canonicalJson({ direzione: d.direzione, asset: d.asset, importo: Number(d.importo), indirizzo_beneficiario: d.indirizzo_beneficiario, ivms101: d.ivms101 });

/** 422 naming each invalid IVMS101 field (JSON pointer) when the payload does not pass the schema. */
export function requireValidIvms101(payload: unknown, prefix = '/ivms101'): void {
  const check = validateIvms101(payload, prefix);
  if (!check.valid) throw new ValidationError(check.errors, 'Il messaggio IVMS101 non è conforme allo schema: ogni campo non valido è indicato');
}

/**
 * Records a transfer (received): the IVMS101 payload must pass the schema first, so bad input
 * never reaches the workflow. The sender's reference (riferimento_esterno) makes it idempotent:
 * the same transfer again answers the one recorded (created: false); a different transfer under a
 * reference already used is a 409.
 */
export async function recordTransfer(deps: TravelRuleDeps, p: { codAzienda: string; actor: MachineActor; input: RecordTransferInput }): Promise<{ record: TravelRuleRow; created: boolean }> {
  requireValidIvms101(p.input.ivms101);
  const data: TravelRuleNewData = { ...p.input, ivms101: p.input.ivms101 as Record<string, unknown> };
  const tx = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor.username }, fn);
  const existing = data.riferimento_esterno ? await tx((trx) => transferByReference(trx, p.codAzienda, data.riferimento_esterno!)) : undefined;
  if (existing) {
    if (!sameTransfer(existing, data)) {
      throw conflict('DUPLICATE_REFERENCE', `Il riferimento esterno è già usato dal trasferimento ${existing.cod_transazione}, con dati diversi`, { cod_transazione: existing.cod_transazione });
    }
    return { record: existing, created: false };
  }
  if (data.cod_anagrafe && !(await tx((trx) => trx('anagrafe').where({ cod_azienda: p.codAzienda, cod_anagrafe: data.cod_anagrafe! }).first('cod_anagrafe')))) {
    throw new ValidationError([{ path: 'cod_anagrafe', message: 'Cliente non trovato in anagrafe' }]);
  }
  const transferId = data.riferimento_esterno ? idFromReference(p.codAzienda, data.riferimento_esterno) : newRecordId();
  const input: TravelRuleWorkflowInput = { codAzienda: p.codAzienda, transferId };
  const reply = await startWithUpdate(await processClient(deps), {
    workflowType: TRAVEL_RULE_WORKFLOW_TYPE, workflowId: travelRuleWorkflowId(p.codAzienda, transferId), input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: TRAVEL_RULE_RECORD_TYPE, recordId: transferId, status: travelRuleMachine.initial }),
    update: createTravelRuleUpdate, args: [{ actor: p.actor, data }], map: MAPPING,
  });
  if (reply.record) return { record: reply.record, created: true };
  // A concurrent recording of the same reference won: answer its row.
  const row = await tx((trx) => readTransfer(trx, transferId));
  if (!row) throw notFound('Trasferimento', 'm');
  return { record: row, created: false };
}

/** The transfer or 404 (another tenant's is invisible under RLS). */
export async function requireTransfer(db: Knex, codAzienda: string, codTransazione: string): Promise<TravelRuleRow> {
  const row = await withTenant(db, { codAzienda }, (trx) => getTransfer(trx, codAzienda, codTransazione));
  if (!row) throw notFound('Trasferimento', 'm');
  return row;
}

export const transferAllowedActions = (row: Pick<TravelRuleRow, 'stato'>, actor: MachineActor): TravelRuleAction[] => allowedActions(travelRuleMachine, row.stato, actor);

/**
 * One transition through the transfer's workflow: its validator is the authority (409 with the
 * allowed actions, 403, 422 for a missing reason); the decision's projection refuses a decision
 * laxer than the rules allow (409 DECISION_NOT_ALLOWED with the decisions they allow). A closed
 * transfer's workflow has ended: the machine answers for it here.
 */
export async function transitionTransfer(deps: TravelRuleDeps, p: {
  codAzienda: string; actor: MachineActor; codTransazione: string; action: TravelRuleAction; motivo?: string | undefined;
  ivms101?: Record<string, unknown>; prova_controllo?: TravelRuleTransitionArgs['prova_controllo']; indirizzo_originatore?: string | null;
}): Promise<TravelRuleRow> {
  const row = await requireTransfer(deps.db, p.codAzienda, p.codTransazione);
  const args: TravelRuleTransitionArgs = {
    action: p.action, actor: p.actor, ...(p.motivo !== undefined ? { motivo: p.motivo } : {}), ...(p.ivms101 !== undefined ? { ivms101: p.ivms101 } : {}),
    ...(p.prova_controllo !== undefined ? { prova_controllo: p.prova_controllo } : {}), ...(p.indirizzo_originatore !== undefined ? { indirizzo_originatore: p.indirizzo_originatore } : {}),
  };
  const decideHere = (stato: TravelRuleRow['stato']) => decideInTransaction(travelRuleMachine, { state: stato, action: p.action, actor: p.actor, input: { ...args }, messages: REJECTION_MESSAGES });
  if (isFinal(travelRuleMachine, row.stato)) decideHere(row.stato);
  if (p.action === 'complete') requireValidIvms101(p.ivms101);
  try {
    const reply = await executeUpdate(await processClient(deps), row.workflow_id, travelRuleTransitionUpdate, [args], {
      ...MAPPING, fallback: { state: row.stato, action: p.action },
    });
    return reply.record ?? await requireTransfer(deps.db, p.codAzienda, p.codTransazione);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) decideHere((await requireTransfer(deps.db, p.codAzienda, p.codTransazione)).stato);
    throw err;
  }
}

/** A decision (approved, held, returned, rejected) as the transition that takes it. */
export function decideTransfer(deps: TravelRuleDeps, p: { codAzienda: string; actor: MachineActor; codTransazione: string; decisione: DecisioneTravelRule; motivo?: string | undefined }) {
  return transitionTransfer(deps, { codAzienda: p.codAzienda, actor: p.actor, codTransazione: p.codTransazione, action: DECISION_ACTIONS[p.decisione], motivo: p.motivo });
}
