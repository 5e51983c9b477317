import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import { VERIFICATION_SYSTEM_ROLE, type VerificationAction, type VerificationStatus } from './verification.machine';

/** The one place that builds a verification's workflow id: `verification:<cod_azienda>:<cod_verifica>`. */
export const verificationWorkflowId = (codAzienda: string, codVerifica: string) => `verification:${codAzienda}:${codVerifica}`;
export const VERIFICATION_WORKFLOW_TYPE = 'verificationWorkflow';
export const VERIFICATION_RECORD_TYPE = 'verifica';

/** The platform acting on a tenant's behalf: the expiry timer. */
export const VERIFICATION_SYSTEM_ACTOR: MachineActor = { id: 'system', username: 'system', roles: [VERIFICATION_SYSTEM_ROLE] };

/** Workflow code may not import src/: the two kinds as the migration's CHECK writes them. */
export type VerificationKind = 'kyc' | 'kyb';

export interface VerificationWorkflowInput {
  codAzienda: string;
  verificaId: string;
  codVerifica: string;
  /**
   * The row's state and deadline as the opening transaction wrote them (or as a repair found them):
   * the workflow holds them from its first task, so an update sent right after the open is served.
   */
  initial: VerificationDeadline;
  /** Set when continuing as new. */
  state?: VerificationWorkflowState;
}

export interface VerificationWorkflowState {
  status: VerificationStatus;
  created: boolean;
  transitions: number;
  /** When the expiry timer fires (ISO instant): the tenant's validity, earlier when a relied-on document expires. */
  scadeIl: string | null;
  /** A document the verification relied on changed: the deadline is read again. */
  deadlineStale: boolean;
}

/** What a verification is opened with (API, onboarding, CDD). */
export interface VerificationNewData {
  tipo: VerificationKind;
  cod_anagrafe: string;
  origine: 'manuale' | 'onboarding' | 'cdd' | 'rinnovo';
  dati_dichiarati: Record<string, unknown>;
  onboarding_case_id?: string | null;
  /** The documents (documenti.id) the verification relies on. */
  documenti_ids: string[];
  /** KYB: the company profile, already validated. */
  profilo?: Record<string, unknown> | null;
}

export interface VerificationTransitionArgs {
  action: VerificationAction;
  actor: MachineActor;
  /** reject: the reason (required by the machine). */
  motivo?: string;
}

/** The row of `verifiche` as its projection left it (dates as ISO strings once serialised). */
export interface VerificationRecord {
  id: string;
  cod_azienda: string;
  cod_verifica: string;
  tipo: VerificationKind;
  cod_anagrafe: string;
  stato: VerificationStatus;
  origine: string;
  onboarding_case_id: string | null;
  dati_dichiarati: Record<string, unknown>;
  profilo: Record<string, unknown> | null;
  motivo_rifiuto: string | null;
  scade_il: string | Date | null;
  discrepanza_ubo: boolean;
  discrepanze_ubo: unknown[];
  assegnata_a: string | null;
  started_by: string | null;
  started_at: string | Date | null;
  decided_by: string | null;
  decided_at: string | Date | null;
  expired_at: string | Date | null;
  workflow_id: string;
  created_by: string;
  created_at: string | Date;
  updated_at: string | Date;
}

/** What an update answers: the workflow's state and the row as the projection wrote it. */
export interface VerificationReply {
  state: VerificationWorkflowState;
  record: VerificationRecord;
}

export const verificationTransitionUpdate = defineUpdate<VerificationReply, [VerificationTransitionArgs]>('transition');
export const verificationStateQuery = defineQuery<VerificationWorkflowState>('state');
/** A document the verification relied on was replaced or its expiry changed: the deadline is computed again. */
export const verificationDocumentsChangedSignal = defineSignal<[]>('documentsChanged');

/** Failure types of the verification's projections (their HTTP answers: src/domains/verifications/kyc-kyb/). */
export const VERIFICATION_FAILURES = {
  notFound: 'VERIFICATION_NOT_FOUND',
  /** approve of a KYB with a check pending or failed; details name them. */
  checksOpen: 'CHECKS_OPEN',
  /** The row moved on outside this workflow (it cannot, but a projection never trusts that). */
  stale: 'VERIFICATION_STALE',
} as const;

/** What the workflow reads when it starts and when a relied-on document changed. */
export interface VerificationDeadline {
  stato: VerificationStatus;
  /** ISO instant, null when the row has none (it always has one once written). */
  scadeIl: string | null;
}

/** What the projection activity receives for one transition. */
export interface VerificationProjection {
  codAzienda: string;
  verificaId: string;
  /** Idempotency key: the audit event carries it, so a retried activity writes nothing twice. */
  transitionId: string;
  action: VerificationAction;
  from: VerificationStatus;
  to: VerificationStatus;
  actor: MachineActor;
  motivo?: string;
}

/** A check that keeps a KYB from being approved, as the 409 names it. */
export interface OpenCheck { cod_check: string; tipo: string; stato: 'pending' | 'failed' }
