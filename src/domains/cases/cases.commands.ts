import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  CASE_RECORD_TYPE, CASE_WORKFLOW_TYPE, caseTransitionUpdate, caseWorkflowId, createCaseUpdate,
  type CaseNewData, type CaseTransitionArgs, type CaseWorkflowInput, type CaseWorkflowState,
} from '../../../workflows/case/case.contract';
import { caseMachine } from '../../../workflows/case/case.machine';
import { checkTransition, isFinal } from '../../../workflows/lib/machine';
import { addDays } from '../../../workflows/lib/sla';
import type { TransitionFailureDetails } from '../../../workflows/lib/transition-failure';
import type { SessionUser } from '../../http/context';
import { forbidden, fourEyesRequired, HttpError, invalidTransition, ValidationError } from '../../http/errors';
import type { CaseRow } from './cases.repo';
import { staffActor } from '../../kit/actor';

export interface CaseTemporal {
  client: Client;
  taskQueue: string;
}


/**
 * Opens a case: the workflow starts and, in the same call, its create update writes the
 * row. A repeated call with the same id finds the running workflow and succeeds again.
 */
export async function createCase(t: CaseTemporal, p: {
  codAzienda: string; user: SessionUser; data: CaseNewData; slaDays: number; caseId?: string; now?: Date;
}): Promise<{ caseId: string; workflowId: string; state: CaseWorkflowState }> {
  const caseId = p.caseId ?? randomUUID();
  const workflowId = caseWorkflowId(p.codAzienda, caseId);
  const input: CaseWorkflowInput = { codAzienda: p.codAzienda, caseId, slaDays: p.slaDays, slaDueAt: addDays(p.now ?? new Date(), p.slaDays).toISOString() };
  const start = new WithStartWorkflowOperation(CASE_WORKFLOW_TYPE, {
    workflowId, taskQueue: t.taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: CASE_RECORD_TYPE, recordId: caseId, status: caseMachine.initial }),
  });
  const state = await t.client.workflow.executeUpdateWithStart(createCaseUpdate, {
    args: [{ actor: staffActor(p.user), data: { ...p.data, descrizione: p.data.descrizione ?? '' } }],
    startWorkflowOperation: start,
  });
  return { caseId, workflowId, state };
}

/** Turns a machine rejection into the HTTP error the API documents. */
export function rejectionToHttp(code: string, d: TransitionFailureDetails): HttpError {
  switch (code) {
    case 'FOUR_EYES_REQUIRED': {
      const e = fourEyesRequired('La chiusura deve essere confermata da un utente diverso da chi l\'ha richiesta');
      Object.assign(e.extra, { allowed_actions: d.allowed_actions, state: d.state });
      return e;
    }
    case 'FORBIDDEN': {
      const e = forbidden('Il tuo ruolo non consente questa azione');
      Object.assign(e.extra, { allowed_actions: d.allowed_actions, state: d.state });
      return e;
    }
    case 'MISSING_FIELDS':
      return new ValidationError((d.missing ?? []).map((f) => ({ path: f, message: 'Campo obbligatorio' })));
    default:
      return invalidTransition(d.state, d.action, d.allowed_actions);
  }
}

/**
 * Sends one transition to the case's workflow; its validator is the authority. A case in a
 * final state has no running workflow any more, so the machine answers for it here.
 */
export async function transitionCase(t: CaseTemporal, row: CaseRow, user: SessionUser, args: Omit<CaseTransitionArgs, 'actor'>): Promise<CaseWorkflowState> {
  const actor = staffActor(user);
  if (isFinal(caseMachine, row.stato)) {
    const c = checkTransition(caseMachine, { state: row.stato, action: args.action, actor, record: { ...row }, input: { ...args } });
    if (!c.ok) throw rejectionToHttp(c.code, { state: c.state, action: c.action, allowed_actions: c.allowedActions, missing: c.missing });
  }
  const handle = t.client.workflow.getHandle(row.workflow_id);
  try {
    return await handle.executeUpdate(caseTransitionUpdate, { args: [{ ...args, actor }] });
  } catch (err) {
    const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type) {
      const details = (cause.details?.[0] ?? { state: row.stato, action: args.action, allowed_actions: [] }) as TransitionFailureDetails;
      throw rejectionToHttp(cause.type, details);
    }
    throw err;
  }
}
