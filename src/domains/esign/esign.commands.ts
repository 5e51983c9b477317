import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  createCeremonyUpdate, ESIGN_RECORD_TYPE, ESIGN_WORKFLOW_TYPE, esignTransitionUpdate, esignWorkflowId, RESEND_LIMIT, RESEND_TOO_SOON,
  type EsignClientInfo, type EsignTransitionArgs, type EsignWorkflowInput, type EsignWorkflowState,
} from '../../../workflows/esign/esign.contract';
import { CEREMONY_TTL_MS, esignMachine, SIGNER_ROLE, type EsignStatus } from '../../../workflows/esign/esign.machine';
import { checkTransition, isFinal, type MachineActor } from '../../../workflows/lib/machine';
import type { TransitionFailureDetails } from '../../../workflows/lib/transition-failure';
import { conflict, HttpError, tooManyRequests } from '../../http/errors';
import { executeUpdate, rejectionToHttp as machineRejection, startWithUpdate, type UpdateErrorMapping } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { DEFAULT_CONSENT, type StartCeremonyInput } from './esign.schemas';

export interface EsignTemporal { client: Client; taskQueue: string }

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
export const signerActor = (ceremonyId: string): MachineActor => ({ id: `signer:${ceremonyId}`, username: 'firmatario', roles: [SIGNER_ROLE] });

/**
 * Starts a ceremony: the workflow starts and its create update writes the row. The
 * signing link's token is returned once and only its hash is kept. Used by the API and,
 * through an activity, by parent workflows (onboarding).
 */
export async function startCeremony(t: EsignTemporal, p: { codAzienda: string; actor: MachineActor; data: StartCeremonyInput; now?: Date }) {
  const ceremonyId = newRecordId();
  const token = randomBytes(32).toString('base64url');
  const workflowId = esignWorkflowId(p.codAzienda, ceremonyId);
  const expiresAt = new Date((p.now ?? new Date()).getTime() + CEREMONY_TTL_MS).toISOString();
  const input: EsignWorkflowInput = { codAzienda: p.codAzienda, ceremonyId, expiresAt, parentWorkflowId: p.data.parent_workflow_id ?? null };
  const state = await startWithUpdate(t, {
    workflowType: ESIGN_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: ESIGN_RECORD_TYPE, recordId: ceremonyId, status: esignMachine.initial }),
    update: createCeremonyUpdate,
    args: [{ actor: p.actor, data: {
      signer: p.data.signer, document: p.data.document, consent: p.data.consent ?? { ...DEFAULT_CONSENT },
      tokenHash: tokenHash(token), parentWorkflowId: p.data.parent_workflow_id ?? null,
    } }],
  });
  return { ceremonyId, workflowId, token, signingPath: `/esign/ceremony/${ceremonyId}?token=${token}`, state };
}

/** The ceremony's own refusals (the resend limits); the machine's are the kit's. */
export function rejectionToHttp(code: string, d: TransitionFailureDetails & { retry_after?: number }): HttpError {
  if (code === RESEND_TOO_SOON) return tooManyRequests(`Hai appena ricevuto un codice: potrai chiederne un altro tra ${d.retry_after ?? 60} secondi`, d.retry_after ?? 60);
  if (code === RESEND_LIMIT) return conflict(RESEND_LIMIT, 'Hai già ricevuto il numero massimo di codici per questa firma: contatta chi ti ha inviato il link');
  return machineRejection(code, d);
}

/** One signer step through the workflow; a finished ceremony is answered by the machine here. */
export async function transitionCeremony(
  t: EsignTemporal, row: { id: string; stato: EsignStatus; workflow_id: string }, args: { action: EsignTransitionArgs['action']; client: EsignClientInfo; otp?: string },
): Promise<EsignWorkflowState> {
  const actor = signerActor(row.id);
  if (isFinal(esignMachine, row.stato)) {
    const c = checkTransition(esignMachine, { state: row.stato, action: args.action, actor, input: { ...args } });
    if (!c.ok) throw rejectionToHttp(c.code, { state: c.state, action: c.action, allowed_actions: c.allowedActions, missing: c.missing });
  }
  const map: UpdateErrorMapping = {
    fallback: { state: row.stato, action: args.action },
    // The resend limits are the ceremony's own; the machine's refusals and 503s are the kit's.
    failures: (type, f) => (type === RESEND_TOO_SOON || type === RESEND_LIMIT
      ? rejectionToHttp(type, (f.details?.[0] ?? { state: row.stato, action: args.action, allowed_actions: [] }) as TransitionFailureDetails)
      : undefined),
  };
  return executeUpdate(t, row.workflow_id, esignTransitionUpdate, [{ ...args, actor }], map);
}
