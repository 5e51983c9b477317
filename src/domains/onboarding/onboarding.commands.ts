import type { Client } from '@temporalio/client';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import { checkTransition, isFinal, type MachineActor } from '../../../workflows/lib/machine';
import type { TransitionFailureDetails } from '../../../workflows/lib/transition-failure';
import {
  createOnboardingUpdate, editOnboardingUpdate, ONBOARDING_FAILURES, ONBOARDING_RECORD_TYPE, ONBOARDING_WORKFLOW_TYPE, onboardingTransitionUpdate,
  onboardingWorkflowId, type OnboardingEdit, type OnboardingEditResult, type OnboardingNewData, type OnboardingSettings,
  type OnboardingTransitionArgs, type OnboardingWorkflowInput, type OnboardingWorkflowState, type ValidationIssue,
} from '../../../workflows/onboarding/onboarding.contract';
import { CUSTOMER_ROLE, onboardingMachine, type OnboardingStatus } from '../../../workflows/onboarding/onboarding.machine';
import { conflict, HttpError, invalidTransition, notFound, ValidationError } from '../../http/errors';
import { documentLimitMessage } from './document-limits';
import { executeUpdate, rejectionToHttp, startWithUpdate, type RejectionMessages, type UpdateErrorMapping } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';

export interface OnboardingTemporal { client: Client; taskQueue: string }

export const customerActor = (caseId: string): MachineActor => ({ id: `cliente:${caseId}`, username: 'cliente', roles: [CUSTOMER_ROLE] });

/** The minimum of a case row the commands need. */
export interface CaseRef { id: string; cod_azienda: string; stato: OnboardingStatus; workflow_id: string; approved_by?: string | null }

/**
 * Opens an onboarding case: the workflow starts and, in the same call, its create update
 * writes the row. The tenant's timer settings are fixed into the workflow's input.
 */
export async function startOnboarding(t: OnboardingTemporal, p: { codAzienda: string; data: OnboardingNewData; settings: OnboardingSettings; caseId?: string }) {
  const caseId = p.caseId ?? newRecordId();
  const workflowId = onboardingWorkflowId(p.codAzienda, caseId);
  const input: OnboardingWorkflowInput = { codAzienda: p.codAzienda, caseId, settings: p.settings };
  const state = await startWithUpdate(t, {
    workflowType: ONBOARDING_WORKFLOW_TYPE, workflowId, input,
    searchAttributes: recordSearchAttributes({ codAzienda: p.codAzienda, recordType: ONBOARDING_RECORD_TYPE, recordId: caseId, status: onboardingMachine.initial }),
    update: createOnboardingUpdate, args: [{ actor: customerActor(caseId), data: p.data }],
    map: { failures: (type, f) => knownFailure(type, f.message, f.details?.[0], 'create') },
  });
  return { caseId, workflowId, state };
}

const MESSAGES: RejectionMessages = { FOUR_EYES_REQUIRED: 'L\'approvazione definitiva deve essere data da un utente diverso da chi ha approvato per primo' };

const RETENTION_DETAIL = 'La pratica è già stata inviata: i dati e i documenti raccolti per l\'adeguata verifica devono essere conservati per 10 anni '
  + '(art. 31 d.lgs. 231/2007), e l\'obbligo di conservazione prevale sulla richiesta di cancellazione (art. 17, par. 3, lett. b, GDPR).';

/** Turns a rejection (machine or handler) into the HTTP error the API documents. */
export function onboardingFailureToHttp(type: string, message: string, details: unknown, action?: string): HttpError {
  const d = (details ?? {}) as Partial<TransitionFailureDetails> & Record<string, unknown>;
  switch (type) {
    case 'INVALID_TRANSITION':
      if (action === 'erase') return conflict('AML_RETENTION', RETENTION_DETAIL, { state: d.state, action, allowed_actions: d.allowed_actions ?? [], retention_years: 10 });
      return invalidTransition(String(d.state), String(d.action ?? action), d.allowed_actions ?? []);
    case 'FOUR_EYES_REQUIRED':
    case 'FORBIDDEN':
    case 'MISSING_FIELDS':
      return rejectionToHttp(type, { state: String(d.state ?? ''), action: String(d.action ?? action ?? ''), allowed_actions: d.allowed_actions ?? [], missing: d.missing }, MESSAGES);
    case ONBOARDING_FAILURES.validation: {
      const issues = (d.issues ?? []) as ValidationIssue[];
      const e = new ValidationError(issues.map((i) => ({ path: i.path, message: i.message })), 'La pratica è incompleta: completa i campi indicati prima di inviarla');
      Object.assign(e.extra, { issues });
      return e;
    }
    case ONBOARDING_FAILURES.signaturePending:
      return conflict('SIGNATURE_PENDING', 'La firma delle dichiarazioni non è ancora completata', d);
    case ONBOARDING_FAILURES.walletsPending:
      return conflict('WALLETS_PENDING', 'Prima di approvare, ogni wallet deve essere verificato o revocato', d);
    case ONBOARDING_FAILURES.proofRequired:
      return conflict('PROOF_OF_CONTROL_REQUIRED', 'Un wallet self-hosted oltre 1.000 euro richiede la prova del controllo (messaggio firmato o dichiarazione firmata) prima della verifica (Reg. UE 2023/1113, artt. 14 e 16)', d);
    case ONBOARDING_FAILURES.notFound:
      return notFound('Elemento della pratica', 'm');
    case ONBOARDING_FAILURES.conflict:
      return conflict('ONBOARDING_CONFLICT', message, d);
    case ONBOARDING_FAILURES.tooManyDocuments:
    case ONBOARDING_FAILURES.documentsTooLarge: {
      const detail = documentLimitMessage(type, d);
      const tooMany = type === ONBOARDING_FAILURES.tooManyDocuments;
      return new HttpError(tooMany ? 422 : 413, type, tooMany ? 'Troppi documenti' : 'Documenti troppo grandi', detail, { errors: [{ path: 'file', message: detail }], ...d });
    }
    case ONBOARDING_FAILURES.projectionFailed:
      // Nothing moved: the same request can simply be sent again.
      return new HttpError(503, 'PROJECTION_FAILED', 'Servizio temporaneamente non disponibile', 'La modifica non è stata registrata e la pratica non è cambiata: riprova tra poco', { retry_after: 5 });
    default:
      return new HttpError(500, 'INTERNAL', 'Errore interno', message);
  }
}

/** The onboarding mapping for the failure types it knows; the kit answers the others (503 for an unavailable projection). */
const knownFailure = (type: string, message: string, details: unknown, action?: string) =>
  KNOWN_TYPES.has(type) ? onboardingFailureToHttp(type, message, details, action) : undefined;
const KNOWN_TYPES = new Set<string>(['INVALID_TRANSITION', 'FOUR_EYES_REQUIRED', 'FORBIDDEN', 'MISSING_FIELDS', ...Object.values(ONBOARDING_FAILURES)]);

/** A case in a final state has no running workflow: the machine answers here. */
function decideIfFinal(row: CaseRef, action: string, actor: MachineActor, input: Record<string, unknown>) {
  if (!isFinal(onboardingMachine, row.stato)) return;
  const c = checkTransition(onboardingMachine, { state: row.stato, action, actor, record: { approved_by: row.approved_by ?? null }, input });
  if (!c.ok) throw onboardingFailureToHttp(c.code, c.message, { state: c.state, action: c.action, allowed_actions: c.allowedActions, missing: c.missing }, action);
}

const mapping = (row: CaseRef, action: string): UpdateErrorMapping => ({
  fallback: { state: row.stato, action },
  failures: (type, f) => knownFailure(type, f.message, f.details?.[0], action),
});

/** The applicant's edit of the draft (a section, a document, a wallet, the travel-rule declaration). */
export function editOnboarding(t: OnboardingTemporal, row: CaseRef, edit: OnboardingEdit): Promise<OnboardingEditResult> {
  const actor = customerActor(row.id);
  decideIfFinal(row, 'edit', actor, {});
  return executeUpdate(t, row.workflow_id, editOnboardingUpdate, [{ actor, edit }], mapping(row, 'edit'));
}

/** A transition by the applicant (actor omitted) or by staff. */
export function transitionOnboarding(
  t: OnboardingTemporal, row: CaseRef, args: Omit<OnboardingTransitionArgs, 'actor'> & { actor?: MachineActor },
): Promise<OnboardingWorkflowState> {
  const actor = args.actor ?? customerActor(row.id);
  decideIfFinal(row, args.action, actor, { ...args.input });
  return executeUpdate(t, row.workflow_id, onboardingTransitionUpdate, [{ action: args.action, input: args.input, actor }], mapping(row, args.action));
}

/**
 * GDPR erasure also reaches the workflow's history (it carried the applicant's edits):
 * once the erase has run, the closed execution is deleted from Temporal.
 */
export async function deleteErasedHistory(t: OnboardingTemporal, row: CaseRef, ceremonyWorkflowIds: string[] = []): Promise<void> {
  const handle = t.client.workflow.getHandle(row.workflow_id);
  await handle.result().catch(() => undefined);
  const del = (workflowId: string) => t.client.workflowService.deleteWorkflowExecution({ namespace: t.client.options.namespace, workflowExecution: { workflowId } });
  await del(row.workflow_id);
  // Ceremonies started by the case (a travel-rule declaration signed in draft) carried the
  // declaration's PDF in their input: they go too, running or not.
  for (const id of ceremonyWorkflowIds) await del(id).catch(() => undefined);
}
