import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { EsignStatus } from './esign.machine';

export { CEREMONY_TTL_MS } from './esign.machine';
/**
 * The ceremony's activities: the contract names them and activities/esign implements them, so the
 * implementation depends on the contract and never the other way round. A parent process that
 * writes the ceremony's row before starting it uses them too. A type literal, not an interface:
 * an activity map needs the implicit index signature only type literals have.
 */
export type EsignActivities = {
  createEsignProjection(p: EsignCreation): Promise<void>;
  acceptEsignTerms(p: EsignStep): Promise<void>;
  presentEsignDocument(p: EsignStep): Promise<{ documentSha256: string }>;
  resendEsignCode(p: EsignOtpSend): Promise<void>;
  checkEsignOtp(p: EsignOtpCheck): Promise<boolean>;
  completeEsignSignature(p: EsignStep): Promise<{ documentSha256: string; signedAt: string }>;
  endEsignCeremony(p: EsignStep & { to: Extract<EsignStatus, 'expired' | 'locked' | 'cancelled'>; from: EsignStatus }): Promise<void>;
};

/** The one place that builds a ceremony's workflow id: `esign:<cod_azienda>:<id>`. */
export const esignWorkflowId = (codAzienda: string, ceremonyId: string) => `esign:${codAzienda}:${ceremonyId}`;
export const ESIGN_WORKFLOW_TYPE = 'esignCeremonyWorkflow';
export const ESIGN_RECORD_TYPE = 'esign';

export interface EsignNewData {
  signer: { nome: string; email: string };
  document: { nome: string; contenuto_base64: string };
  consent: { testo: string; versione: string };
  /** sha256 of the signing link's token. */
  tokenHash: string;
  parentWorkflowId?: string | null;
}

export interface EsignWorkflowInput {
  codAzienda: string;
  ceremonyId: string;
  /** ISO date, absolute: 24 h after start. */
  expiresAt: string;
  parentWorkflowId?: string | null;
  /** Set when a parent workflow starts the ceremony as its child: the ceremony creates itself. */
  create?: { actor: MachineActor; data: EsignNewData };
}

export interface EsignWorkflowState {
  status: EsignStatus;
  created: boolean;
  otpFailures: number;
  /** The result of the last sign attempt: the API tells a wrong code from a locked ceremony. */
  lastOtp: 'ok' | 'wrong' | null;
  /** Codes issued so far (the first at "present", then one per resend). */
  otpSends?: number;
  /** Workflow time of the last code, epoch ms: the resend cooldown counts from it. */
  lastOtpSentAt?: number | null;
  transitions: number;
}

/** Where the signer's request came from: part of the evidence. */
export interface EsignClientInfo { ip: string; userAgent: string }

export interface EsignTransitionArgs {
  action: 'terms' | 'present' | 'sign' | 'resend';
  actor: MachineActor;
  client: EsignClientInfo;
  otp?: string;
}

export interface EsignCompletedSignal {
  codAzienda: string;
  ceremonyId: string;
  documentSha256: string;
  signedAt: string;
}

/** How a ceremony ended unsigned: its 24 h ran out, three wrong codes, or its workflow was cancelled. */
export interface EsignEndedSignal {
  codAzienda: string;
  ceremonyId: string;
  status: 'expired' | 'locked' | 'cancelled';
}

export const createCeremonyUpdate = defineUpdate<EsignWorkflowState, [{ actor: MachineActor; data: EsignNewData }]>('createCeremony');
export const esignTransitionUpdate = defineUpdate<EsignWorkflowState, [EsignTransitionArgs]>('transition');
export const esignStateQuery = defineQuery<EsignWorkflowState>('state');
/** Sent to the parent (onboarding, dossier, filing) once the ceremony is signed. */
export const esignCompletedSignal = defineSignal<[EsignCompletedSignal]>('esignCompleted');
/**
 * Sent to the parent when the ceremony ends unsigned. A signal, not the child's result: the
 * parent may have continued as new since it started the child, and a new run has no handle.
 */
export const esignEndedSignal = defineSignal<[EsignEndedSignal]>('esignEnded');

export interface EsignCreation {
  codAzienda: string;
  ceremonyId: string;
  workflowId: string;
  actor: MachineActor;
  data: EsignNewData;
  expiresAt: string;
}

export interface EsignStep {
  codAzienda: string;
  ceremonyId: string;
  /** Idempotency key, recorded in the audit event. */
  transitionId: string;
  actor: MachineActor;
  client?: EsignClientInfo;
}

export interface EsignOtpCheck extends EsignStep { otp: string; attempt: number }
/** A new one-time code; `send` is its number in the ceremony (2 for the first resend). */
export interface EsignOtpSend extends EsignStep { send: number }

/** Failure types of a refused resend, besides the machine's own. */
export const RESEND_TOO_SOON = 'RESEND_TOO_SOON';
export const RESEND_LIMIT = 'RESEND_LIMIT';
