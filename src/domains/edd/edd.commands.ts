import { WorkflowNotFoundError, type ApplicationFailure } from '@temporalio/client';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  createEddUpdate, EDD_FAILURES, EDD_RECORD_TYPE, EDD_WORKFLOW_TYPE, eddTransitionUpdate, eddWorkflowId,
  type EddNewData, type EddReply, type EddTransitionArgs, type EddWorkflowInput,
} from '../../../workflows/edd/edd.contract';
import { eddMachine } from '../../../workflows/edd/edd.machine';
import { isFinal, type MachineActor } from '../../../workflows/lib/machine';
import { conflict, HttpError, notFound } from '../../http/errors';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient, type RejectionMessages, type UpdateErrorMapping } from '../../kit/process';
import type { EddRow } from './edd.repo';
import { REJECTION_MESSAGES } from './edd.labels';

const MESSAGES: RejectionMessages = { FOUR_EYES_REQUIRED: REJECTION_MESSAGES.FOUR_EYES_REQUIRED };

/** The HTTP answer to the EDD's own refusals (edd.guards.ts): 409 with the allowed actions, 404 for a step that is not there. */
function eddFailure(type: string, failure: ApplicationFailure): HttpError | undefined {
  const d = (failure.details?.[0] ?? {}) as { state?: string; allowed_actions?: string[]; open_steps?: string[] };
  const extra = { state: d.state, allowed_actions: d.allowed_actions ?? [], ...(d.open_steps ? { open_steps: d.open_steps } : {}) };
  switch (type) {
    case EDD_FAILURES.stepsOpen: return conflict(type, REJECTION_MESSAGES.STEPS_OPEN!, extra);
    case EDD_FAILURES.noSteps: return conflict(type, REJECTION_MESSAGES.NO_STEPS!, extra);
    case EDD_FAILURES.stepCompleted: return conflict(type, REJECTION_MESSAGES.STEP_COMPLETED!, extra);
    case EDD_FAILURES.stepExists: return conflict(type, REJECTION_MESSAGES.STEP_EXISTS!, extra);
    case EDD_FAILURES.stepNotFound: return notFound('Misura');
    case EDD_FAILURES.notFound: return notFound('Verifica rafforzata');
    default: return undefined;
  }
}

const MAPPING: UpdateErrorMapping = { messages: MESSAGES, failures: eddFailure };

/**
 * Opens an EDD case: the workflow starts and, in the same call, its create update writes the
 * row with its progressive code and its opening steps. A repeated call with the same id (the
 * same Idempotency-Key) finds the running workflow and succeeds again.
 */
export async function createEdd(pc: ProcessClient, p: { codAzienda: string; actor: MachineActor; eddId: string; data: EddNewData }): Promise<{ workflowId: string; reply: EddReply }> {
  const workflowId = eddWorkflowId(p.codAzienda, p.eddId);
  const input: EddWorkflowInput = { codAzienda: p.codAzienda, eddId: p.eddId };
  const reply = await startWithUpdate(pc, {
    workflowType: EDD_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: EDD_RECORD_TYPE, recordId: p.eddId, status: eddMachine.initial }),
    update: createEddUpdate, args: [{ actor: p.actor, data: p.data }], map: MAPPING,
  });
  return { workflowId, reply };
}

/**
 * Sends one transition to the case's workflow; its validator is the authority. The workflow id
 * follows from the session's tenant and the case id, so another tenant's case cannot be
 * addressed. Only when no workflow runs (an unknown id, or a closed case whose workflow ended)
 * is the row read, to answer 404 or the machine's 409.
 */
export async function transitionEdd(pc: ProcessClient, ref: { codAzienda: string; eddId: string }, actor: MachineActor,
  args: Omit<EddTransitionArgs, 'actor'>, readRow: () => Promise<EddRow>): Promise<EddReply> {
  try {
    return await executeUpdate(pc, eddWorkflowId(ref.codAzienda, ref.eddId), eddTransitionUpdate, [{ ...args, actor }], MAPPING);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const row = await readRow();
    if (isFinal(eddMachine, row.stato)) {
      decideInTransaction(eddMachine, { state: row.stato, action: args.action, actor, record: { ...row }, input: { ...args }, messages: MESSAGES });
    }
    throw err;
  }
}
