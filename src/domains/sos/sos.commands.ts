import { WorkflowNotFoundError } from '@temporalio/client';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import { isFinal } from '../../../workflows/lib/machine';
import {
  SOS_RECORD_TYPE, SOS_WORKFLOW_TYPE, createSosUpdate, sosTransitionUpdate, sosWorkflowId,
  type SosNewData, type SosReply, type SosTransitionArgs, type SosWorkflowInput,
} from '../../../workflows/sos/sos.contract';
import { sosMachine } from '../../../workflows/sos/sos.machine';
import type { SessionUser } from '../../http/context';
import { staffActor } from '../../kit/actor';
import { decideInTransaction, executeUpdate, startWithUpdate, type ProcessClient } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';

/**
 * Starts a report's workflow and, in the same call, its create update writes the row and the
 * content. The search attributes carry the record type and id only: nothing about the
 * customer reaches Temporal's visibility store (docs/sos.md, "Tipping-off").
 */
export async function startSos(pc: ProcessClient, p: { codAzienda: string; user: SessionUser; data: SosNewData; evaluationDays: number; sosId?: string }) {
  const sosId = p.sosId ?? newRecordId();
  const workflowId = sosWorkflowId(p.codAzienda, sosId);
  const input: SosWorkflowInput = { codAzienda: p.codAzienda, sosId, evaluationDays: p.evaluationDays };
  const reply = await startWithUpdate(pc, {
    workflowType: SOS_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: SOS_RECORD_TYPE, recordId: sosId, status: sosMachine.initial }),
    update: createSosUpdate, args: [{ actor: staffActor(p.user), data: p.data }],
  });
  return { sosId, workflowId, reply };
}

/**
 * One transition through the report's workflow (its validator is the authority). A report in
 * a final state has no running workflow: its row answers the machine's 409.
 */
export async function transitionSos(pc: ProcessClient, ref: { codAzienda: string; sosId: string }, user: SessionUser,
  args: Omit<SosTransitionArgs, 'actor'>, readRow: () => Promise<{ stato: SosReply['state']['status'] }>): Promise<SosReply> {
  const actor = staffActor(user);
  try {
    return await executeUpdate(pc, sosWorkflowId(ref.codAzienda, ref.sosId), sosTransitionUpdate, [{ ...args, actor }]);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const row = await readRow();
    if (isFinal(sosMachine, row.stato)) decideInTransaction(sosMachine, { state: row.stato, action: args.action, actor, input: { ...args } });
    throw err;
  }
}
