import { WorkflowNotFoundError } from '@temporalio/client';
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
 * Sends one transition to the case's workflow; its validator is the authority. The workflow
 * id follows from the session's tenant and the case id, so nothing is read first: another
 * tenant's case cannot be addressed. Only when no workflow runs (an unknown id, or a case in
 * a final state, whose workflow has ended) is the row read, to answer 404 or the machine's 409.
 */
export async function transitionCase(pc: ProcessClient, ref: { codAzienda: string; caseId: string }, user: SessionUser,
  args: Omit<CaseTransitionArgs, 'actor'>, readRow: () => Promise<CaseRow>): Promise<CaseReply> {
  const actor = staffActor(user);
  try {
    return await executeUpdate(pc, caseWorkflowId(ref.codAzienda, ref.caseId), caseTransitionUpdate, [{ ...args, actor }], { messages: MESSAGES });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const row = await readRow();
    if (isFinal(caseMachine, row.stato)) {
      decideInTransaction(caseMachine, { state: row.stato, action: args.action, actor, record: { ...row }, input: { ...args }, messages: MESSAGES });
    }
    throw err;
  }
}
