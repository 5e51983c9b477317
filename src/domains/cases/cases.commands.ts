import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  CASE_RECORD_TYPE, CASE_WORKFLOW_TYPE, caseTransitionUpdate, caseWorkflowId, createCaseUpdate,
  type CaseNewData, type CaseReply, type CaseTransitionArgs, type CaseWorkflowInput,
} from '../../../workflows/case/case.contract';
import { caseMachine } from '../../../workflows/case/case.machine';
import { isFinal } from '../../../workflows/lib/machine';
import { addDays } from '../../../workflows/lib/sla';
import type { SessionUser } from '../../http/context';
import { staffActor } from '../../kit/actor';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type RejectionMessages } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import type { CaseRow } from './cases.repo';

const MESSAGES: RejectionMessages = { FOUR_EYES_REQUIRED: 'La chiusura deve essere confermata da un utente diverso da chi l\'ha richiesta' };

/**
 * Opens a case: the workflow starts and, in the same call, its create update writes the
 * row. A repeated call with the same id (the same Idempotency-Key) finds the running
 * workflow and succeeds again.
 */
export async function createCase(pc: ProcessClient, p: {
  codAzienda: string; user: SessionUser; data: CaseNewData; slaDays: number; caseId?: string; now?: Date;
}): Promise<{ caseId: string; workflowId: string; reply: CaseReply }> {
  const caseId = p.caseId ?? newRecordId();
  const workflowId = caseWorkflowId(p.codAzienda, caseId);
  const input: CaseWorkflowInput = { codAzienda: p.codAzienda, caseId, slaDays: p.slaDays, slaDueAt: addDays(p.now ?? new Date(), p.slaDays).toISOString() };
  const reply = await startWithUpdate(pc, {
    workflowType: CASE_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: CASE_RECORD_TYPE, recordId: caseId, status: caseMachine.initial }),
    update: createCaseUpdate, args: [{ actor: staffActor(p.user), data: { ...p.data, descrizione: p.data.descrizione ?? '' } }],
  });
  return { caseId, workflowId, reply };
}

/**
 * Sends one transition to the case's workflow; its validator is the authority. A case in a
 * final state has no running workflow any more, so the machine answers for it here.
 */
export async function transitionCase(pc: ProcessClient, row: CaseRow, user: SessionUser, args: Omit<CaseTransitionArgs, 'actor'>): Promise<CaseReply> {
  const actor = staffActor(user);
  if (isFinal(caseMachine, row.stato)) {
    decideInTransaction(caseMachine, { state: row.stato, action: args.action, actor, record: { ...row }, input: { ...args }, messages: MESSAGES });
  }
  return executeUpdate(pc, row.workflow_id, caseTransitionUpdate, [{ ...args, actor }], { fallback: { state: row.stato, action: args.action }, messages: MESSAGES });
}
