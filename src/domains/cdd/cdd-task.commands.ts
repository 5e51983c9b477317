import type { Knex } from 'knex';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  CDD_TASK_FAILURES, CDD_TASK_RECORD_TYPE, CDD_TASK_WORKFLOW_TYPE, cddTaskTransitionUpdate, cddTaskWorkflowId, createCddTaskUpdate,
  type CddMotivo, type CddTaskNewData, type CddTaskRecord, type CddTaskWorkflowInput,
} from '../../../workflows/cdd/cdd-task.contract';
import { cddTaskMachine, type CddTaskAction } from '../../../workflows/cdd/cdd-task.machine';
import { allowedActions, isFinal, type MachineActor } from '../../../workflows/lib/machine';
import { addDays } from '../../../workflows/lib/sla';
import { withTenant } from '../../db/tenant';
import { conflict, forbidden, HttpError, notFound } from '../../http/errors';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type RejectionMessages } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { getSetting } from '../admin';
import { cddLevel } from './cdd-level';
import { cddLevelInputs } from './cdd-level.inputs';
import { getCddTask, openCddTaskFor, type CddTaskRow } from './cdd-task.repo';
import { highRiskLists } from './high-risk-countries';

export interface CddDeps extends ProcessClient {
  db: Knex;
}

const MESSAGES: RejectionMessages = {
  FOUR_EYES_REQUIRED: 'La pratica deve essere completata da un utente diverso da chi l\'ha inviata in revisione',
  FORBIDDEN: 'Il tuo ruolo non consente questa azione sulla pratica di adeguata verifica',
};

/** The task's own refusals from the completion projection, as HTTP answers. */
function ownFailure(type: string, f: ApplicationFailure): HttpError | undefined {
  if (type === CDD_TASK_FAILURES.questionnaireIncomplete) {
    return conflict(type, 'Per completare la pratica serve il questionario di adeguata verifica completato', { ...(f.details?.[0] as object ?? {}) });
  }
  if (type === CDD_TASK_FAILURES.eddRequired) {
    return conflict(type, 'Per completare una pratica rafforzata serve un caso di adeguata verifica rafforzata (EDD) approvato', { ...(f.details?.[0] as object ?? {}) });
  }
  if (type === CDD_TASK_FAILURES.notFound) return notFound('Pratica di adeguata verifica');
  return undefined;
}

export interface InitiateCddInput {
  codAzienda: string;
  actor: MachineActor;
  codAnagrafe: string;
  motivo: CddMotivo;
  /** What started it (a review, a document, a match, a class change). */
  origine?: Record<string, unknown>;
  /** The event's idempotency key: the same key never starts a second task. */
  chiave?: string;
  reviewId?: string;
  nota?: string;
  /** The event's own deadline (a document's expiry): the task is due by then if that is sooner. */
  dueBy?: Date;
  now?: Date;
}

export interface InitiateCddResult { task: CddTaskRecord; created: boolean }

const asRecord = (row: CddTaskRow) => row as unknown as CddTaskRecord;

/** Records that an event joined an existing task (the next sweep finds the key and starts nothing). */
async function recordActivation(trx: Knex.Transaction, codAzienda: string, chiave: string | undefined, taskId: string, motivo: CddMotivo) {
  if (!chiave) return;
  await trx('cdd_attivazioni').insert({ cod_azienda: codAzienda, chiave, cdd_pratica_id: taskId, motivo }).onConflict(['cod_azienda', 'chiave']).ignore();
}

/**
 * Starts a CDD task for a customer, at the level the rules decide (cdd-level.ts), or answers
 * the task already being worked for that customer: one open task per customer (a unique index
 * holds it under races). An event's key (`chiave`) that already started or joined a task
 * starts nothing again.
 */
export async function initiateCdd(deps: CddDeps, p: InitiateCddInput): Promise<InitiateCddResult> {
  const now = p.now ?? new Date();
  const prepared = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
    if (p.chiave) {
      const seen = await trx('cdd_attivazioni').where({ chiave: p.chiave }).first('cdd_pratica_id');
      if (seen) return { existing: await getCddTask(trx, seen.cdd_pratica_id) };
    }
    const gathered = await cddLevelInputs(trx, p.codAnagrafe);
    if (!gathered) throw notFound('Cliente', 'm');
    // A soft-deleted record is kept for the retention only: nobody works its due diligence any more.
    if (gathered.customer.stato === 'eliminato') throw conflict('CUSTOMER_DELETED', 'Il cliente è stato eliminato: non si apre una nuova adeguata verifica');
    const open = await openCddTaskFor(trx, p.codAnagrafe);
    if (open) {
      await recordActivation(trx, p.codAzienda, p.chiave, open.id, p.motivo);
      return { existing: open };
    }
    const level = cddLevel(gathered.input, highRiskLists());
    const analystPolicy = await getSetting(trx, 'cdd.analyst_can_complete', p.codAzienda);
    const days = await getSetting(trx, 'cdd.task_days', p.codAzienda);
    const byPolicy = addDays(now, days);
    const dueAt = p.dueBy && p.dueBy.getTime() < byPolicy.getTime() ? p.dueBy : byPolicy;
    const data: CddTaskNewData = {
      cod_anagrafe: p.codAnagrafe, motivo: p.motivo, livello: level.livello, motivazioni_livello: level.motivazioni,
      classe_rischio: gathered.customer.classe_rischio, pep: gathered.input.pep,
      analista_puo_completare: analystPolicy && level.livello !== 'rafforzata',
      origine: p.origine ?? {}, chiave: p.chiave ?? null, review_id: p.reviewId ?? null, nota: p.nota ?? null, due_at: dueAt.toISOString(),
    };
    return { data };
  });
  if ('existing' in prepared) return { task: asRecord(prepared.existing!), created: false };

  const taskId = newRecordId();
  const input: CddTaskWorkflowInput = { codAzienda: p.codAzienda, taskId };
  const reply = await startWithUpdate(deps, {
    workflowType: CDD_TASK_WORKFLOW_TYPE, workflowId: cddTaskWorkflowId(p.codAzienda, taskId), input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: CDD_TASK_RECORD_TYPE, recordId: taskId, status: cddTaskMachine.initial }),
    update: createCddTaskUpdate, args: [{ actor: p.actor, data: prepared.data }], map: { failures: ownFailure },
  });
  if (reply.record) return { task: reply.record, created: true };
  // Another initiation won the race for this customer: answer its task.
  const other = await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor.username }, async (trx) => {
    const row = reply.existing ? await getCddTask(trx, reply.existing) : await getCddTask(trx, taskId);
    if (row) await recordActivation(trx, p.codAzienda, p.chiave, row.id, p.motivo);
    return row;
  });
  if (!other) throw notFound('Pratica di adeguata verifica');
  return { task: asRecord(other), created: false };
}

/** The task or 404 (another tenant's is invisible under RLS). */
export async function requireCddTask(db: Knex, codAzienda: string, idOrCode: string): Promise<CddTaskRow> {
  const row = await withTenant(db, { codAzienda }, (trx) => getCddTask(trx, idOrCode));
  if (!row) throw notFound('Pratica di adeguata verifica');
  return row;
}

/** Who may complete this task: the compliance officer always; an analyst when the level and the tenant's policy allow it. */
export const completerRoles = (row: Pick<CddTaskRow, 'analista_puo_completare'>) => (row.analista_puo_completare ? ['co', 'analyst'] : ['co']);

/** The actions this user may take on the task now (buttons, the API's detail). */
export function cddAllowedActions(row: CddTaskRow, actor: MachineActor): CddTaskAction[] {
  const all = allowedActions(cddTaskMachine, row.stato, actor, { review_requested_by: row.review_requested_by });
  return all.filter((a) => a !== 'complete' || completerRoles(row).some((r) => actor.roles.includes(r)));
}

/**
 * Sends one transition to the task's workflow; its validator is the authority (409 with the
 * allowed actions, 403, four-eyes 403, 422 for a missing note). A finished task's workflow has
 * ended: the machine answers for it here.
 */
export async function transitionCddTask(deps: CddDeps, p: {
  codAzienda: string; taskId: string; actor: MachineActor; action: CddTaskAction; nota?: string;
}): Promise<CddTaskRecord> {
  const row = await requireCddTask(deps.db, p.codAzienda, p.taskId);
  if (p.action === 'complete' && row.stato === 'pending_review' && !completerRoles(row).some((r) => p.actor.roles.includes(r))) {
    const e = forbidden('Questa pratica può essere completata solo dal responsabile antiriciclaggio (livello o politica dell\'azienda)');
    Object.assign(e.extra, { state: row.stato, allowed_actions: cddAllowedActions(row, p.actor) });
    throw e;
  }
  const args = { action: p.action, actor: p.actor, ...(p.nota !== undefined ? { nota: p.nota } : {}) };
  try {
    if (isFinal(cddTaskMachine, row.stato)) {
      decideInTransaction(cddTaskMachine, { state: row.stato, action: p.action, actor: p.actor, record: { ...row }, input: args, messages: MESSAGES });
    }
    const reply = await executeUpdate(deps, row.workflow_id, cddTaskTransitionUpdate, [args], {
      fallback: { state: row.stato, action: p.action }, messages: MESSAGES, failures: ownFailure,
    });
    return reply.record ?? asRecord(await requireCddTask(deps.db, p.codAzienda, row.id));
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      // Ended between the read and the update: answer from the row as it is now.
      const now = await requireCddTask(deps.db, p.codAzienda, row.id);
      decideInTransaction(cddTaskMachine, { state: now.stato, action: p.action, actor: p.actor, record: { ...now }, input: args, messages: MESSAGES });
    }
    throw err;
  }
}

/**
 * Abstention (art. 42 d.lgs. 231/2007): the customer's open task is moved to `abstained` with
 * the reasons, or a task is opened to record it. The SOS delegates are told (the projection);
 * nothing reaches the customer.
 */
export async function abstainCdd(deps: CddDeps, p: { codAzienda: string; actor: MachineActor; codAnagrafe: string; motivazione: string }): Promise<CddTaskRecord> {
  const { task } = await initiateCdd(deps, { codAzienda: p.codAzienda, actor: p.actor, codAnagrafe: p.codAnagrafe, motivo: 'manuale', nota: 'Aperta per registrare l\'astensione' });
  return transitionCddTask(deps, { codAzienda: p.codAzienda, taskId: task.id, actor: p.actor, action: 'abstain', nota: p.motivazione });
}
