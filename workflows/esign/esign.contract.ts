import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { EsignStatus } from './esign.machine';

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
  transitions: number;
}

/** Where the signer's request came from: part of the evidence. */
export interface EsignClientInfo { ip: string; userAgent: string }

export interface EsignTransitionArgs {
  action: 'terms' | 'present' | 'sign';
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
