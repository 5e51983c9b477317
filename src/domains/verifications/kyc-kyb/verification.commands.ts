import { WorkflowNotFoundError, type ApplicationFailure } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordSearchAttributes } from '../../../../temporal/search-attributes';
import type { MachineActor } from '../../../../workflows/lib/machine';
import {
  VERIFICATION_FAILURES, VERIFICATION_RECORD_TYPE, VERIFICATION_WORKFLOW_TYPE, verificationDocumentsChangedSignal, verificationTransitionUpdate,
  type OpenCheck, type VerificationWorkflowInput,
} from '../../../../workflows/verification/verification.contract';
import { isFinal } from '../../../../workflows/lib/machine';
import { verificationMachine, VERIFICATION_USER_ACTIONS, type VerificationUserAction } from '../../../../workflows/verification/verification.machine';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { conflict, HttpError, notFound } from '../../../http/errors';
import { decideInTransaction, executeUpdate, startRecordWorkflow, updateErrorToHttp, type ProcessClient, type UpdateErrorMapping } from '../../../kit/process';
import type { TipoVerifica } from '../verifications.vocabulary';
import { insertVerification, workflowInputOf, type OpenVerificationRequest } from './verification.open';
import { getVerificationRow, viewOf, type VerificationRow, type VerificationView } from './verification.repo';

/**
 * What opens and moves verifications: the API, the console's pages, the approved onboarding,
 * the document records (documentsChanged). Either the web process's deps (the Temporal client
 * provider) or a client at hand (an activity).
 */
export type VerificationDeps = { db: Knex } & ({ temporal: Deps['temporal'] } | ProcessClient);

async function processClient(deps: VerificationDeps): Promise<ProcessClient> {
  if ('client' in deps) return { client: deps.client, taskQueue: deps.taskQueue };
  return { client: await deps.temporal.get(), taskQueue: deps.temporal.taskQueue };
}

const tx = <T>(deps: VerificationDeps, codAzienda: string, actor: string, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda, actor }, fn);

/** The 409 of an approval refused by the checks: which ones, and what may still be done. */
export function checksOpenConflict(checks: OpenCheck[], allowed: string[]): HttpError {
  const named = checks.map((c) => `${c.cod_check} (${c.tipo}: ${c.stato === 'failed' ? 'non superato' : 'da eseguire'})`).join(', ');
  return conflict('CHECKS_OPEN', `La verifica KYB non può essere approvata: controlli non superati o da eseguire: ${named}`, { state: 'in_progress', action: 'approve', allowed_actions: allowed, checks });
}

function ownFailure(type: string, f: ApplicationFailure): HttpError | undefined {
  switch (type) {
    case VERIFICATION_FAILURES.notFound: return notFound('Verifica');
    case VERIFICATION_FAILURES.checksOpen: {
      const d = (f.details?.[0] ?? {}) as { checks?: OpenCheck[]; allowed_actions?: string[] };
      return checksOpenConflict(d.checks ?? [], d.allowed_actions ?? []);
    }
    case VERIFICATION_FAILURES.stale: return conflict('INVALID_TRANSITION', 'La verifica è cambiata nel frattempo: ricarica e riprova', { allowed_actions: [] });
    default: return undefined;
  }
}
const MAPPING: UpdateErrorMapping = { failures: ownFailure, messages: { FORBIDDEN: 'Il tuo ruolo non consente questa azione sulla verifica' } };

/**
 * Starts a verification's workflow (its row is written): the same id again is the same workflow,
 * so a retry, or a repair of a row whose start was lost, starts nothing twice.
 */
export async function startVerificationWorkflow(pc: ProcessClient, input: VerificationWorkflowInput, workflowId: string): Promise<void> {
  await startRecordWorkflow(pc, {
    workflowType: VERIFICATION_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda: input.codAzienda, recordType: VERIFICATION_RECORD_TYPE, recordId: input.verificaId, status: input.initial.stato }),
  });
}

/**
 * Opens a KYC or KYB verification: the row, its documents and checks, the audit event in one
 * transaction, then its workflow (the validity timer). Answers the view as the caller sees it.
 */
export async function openVerification(deps: VerificationDeps, r: OpenVerificationRequest): Promise<VerificationView> {
  const written = await tx(deps, r.codAzienda, r.actor.username, (trx) => insertVerification(trx, r));
  await startVerificationWorkflow(await processClient(deps), written.input, written.row.workflow_id);
  return tx(deps, r.codAzienda, r.actor.username, (trx) => viewOf(trx, written.row, r.actor));
}

/** A refusal lists what a person may ask for: the timer's own `expire` is no action of theirs. */
function withoutSystemActions(err: unknown): unknown {
  if (err instanceof HttpError && Array.isArray(err.extra.allowed_actions)) {
    err.extra.allowed_actions = (err.extra.allowed_actions as string[]).filter((a) => (VERIFICATION_USER_ACTIONS as readonly string[]).includes(a));
  }
  return err;
}

export interface TransitionVerificationRequest {
  codAzienda: string;
  actor: MachineActor;
  /** The caller's roles when they differ from the actor's (a page acting for a session). */
  roles?: readonly string[];
  tipo: TipoVerifica;
  codVerifica: string;
  action: VerificationUserAction;
  /** reject: the reason. */
  motivo?: string | null;
}

/**
 * Sends one person's action to the verification's workflow; its validator is the authority
 * (409 with the allowed actions, 403 for a role, 422 for a missing reason). A KYB approval with
 * checks pending or failed is a 409 naming them. A decided verification (workflow ended) is
 * answered from its row; an open one whose workflow is missing (its start was lost) gets it
 * started, then the action.
 */
export async function transitionVerification(deps: VerificationDeps, r: TransitionVerificationRequest): Promise<VerificationView> {
  const actor: MachineActor = r.roles ? { ...r.actor, roles: [...r.roles] } : r.actor;
  const row = await tx(deps, r.codAzienda, actor.username, (trx) => getVerificationRow(trx, r.codAzienda, r.tipo, r.codVerifica));
  if (!row) throw notFound('Verifica');
  const pc = await processClient(deps);
  const args = [{ action: r.action, actor, ...(r.motivo ? { motivo: r.motivo } : {}) }] as const;
  const send = () => executeUpdate(pc, row.workflow_id, verificationTransitionUpdate, [...args], MAPPING);
  let record: VerificationRow;
  try {
    record = (await send()).record;
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw withoutSystemActions(err);
    if (isFinal(verificationMachine, row.stato)) {
      try {
        decideInTransaction(verificationMachine, { state: row.stato, action: r.action, actor, input: { motivo: r.motivo }, messages: MAPPING.messages });
      } catch (refusal) {
        throw withoutSystemActions(refusal);
      }
      throw err;
    }
    await startVerificationWorkflow(pc, workflowInputOf(row), row.workflow_id);
    record = (await send()).record;
  }
  return tx(deps, r.codAzienda, actor.username, (trx) => viewOf(trx, record, actor));
}

/**
 * Documents changed (replaced, new expiry: the document records call this after their commit):
 * every open verification relying on one of them reads its deadline again through its workflow.
 */
export async function documentsChanged(deps: VerificationDeps, codAzienda: string, documentoIds: string[]): Promise<void> {
  if (!documentoIds.length) return;
  const open: VerificationRow[] = await tx(deps, codAzienda, 'system', (trx) => trx('verifiche as v')
    .whereIn('v.id', trx('verifiche_documenti').where({ cod_azienda: codAzienda }).whereIn('documento_id', documentoIds).select('verifica_id'))
    .whereIn('v.stato', ['pending', 'in_progress']).select('v.*'));
  if (!open.length) return;
  const pc = await processClient(deps);
  for (const v of open) {
    try {
      await pc.client.workflow.getHandle(v.workflow_id).signal(verificationDocumentsChangedSignal);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw updateErrorToHttp(err);
      // Its start was lost: starting it reads the deadline afresh.
      await startVerificationWorkflow(pc, workflowInputOf(v), v.workflow_id);
    }
  }
}
