import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { OnboardingAction, OnboardingStatus, WalletStatus } from './onboarding.machine';

/** The one place that builds an onboarding case's workflow id: `onboarding:<cod_azienda>:<id>`. */
export const onboardingWorkflowId = (codAzienda: string, caseId: string) => `onboarding:${codAzienda}:${caseId}`;
export const ONBOARDING_WORKFLOW_TYPE = 'onboardingCaseWorkflow';
export const ONBOARDING_RECORD_TYPE = 'onboarding';

export const SUBJECT_TYPES = ['persona_fisica', 'ditta_individuale', 'societa'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** Parts of the draft the applicant saves one at a time (each wizard step writes one). */
export const DRAFT_SECTIONS = ['subject_type', 'anagrafe', 'ubo', 'cdd_answers', 'countries'] as const;
export type DraftSection = (typeof DRAFT_SECTIONS)[number];

export interface OnboardingSettings {
  draftIdleDays: number;
  infoReminderDays: number;
  infoExpiryDays: number;
}

export interface OnboardingWorkflowInput {
  codAzienda: string;
  caseId: string;
  settings: OnboardingSettings;
  /** Set when the workflow continues as new: the whole state of the run before (timers are derived from its dates). */
  state?: OnboardingWorkflowState;
}

export interface OnboardingNewData {
  email: string;
  /** How the applicant came: 'online' for the public wizard (a risk factor). */
  canale: 'online' | 'sportello';
  subjectType?: SubjectType | null;
}

/** A document already written to the content-addressed store by the web process. */
export interface DocumentMeta {
  id: string;
  tipo: string;
  /** 'soggetto' or the beneficial owner's id the document belongs to. */
  riferimento: string;
  nome_file: string;
  mime: string;
  dimensione: number;
  sha256: string;
}

export interface WalletProof {
  metodo: 'firma_messaggio' | 'dichiarazione';
  messaggio?: string;
  firma?: string;
  /** Set by the web process after checking the signature: true, false, or null when the chain cannot be checked automatically. */
  verificata?: boolean | null;
}

export interface WalletInput {
  id: string;
  rete: string;
  indirizzo: string;
  tipo: 'custodial' | 'self_hosted';
  vasp_nome?: string | null;
  volume_annuo_eur?: number | null;
  prova?: WalletProof | null;
}

export interface WalletSummary {
  id: string;
  status: WalletStatus;
  selfHosted: boolean;
  volumeEur: number | null;
  proof: 'firma_verificata' | 'firma_non_verificata' | 'dichiarazione' | null;
}

export type OnboardingEdit =
  | { kind: 'section'; section: DraftSection; data: unknown }
  | { kind: 'document-add'; document: DocumentMeta }
  | { kind: 'document-delete'; documentId: string }
  | { kind: 'wallet-add'; wallet: WalletInput }
  | { kind: 'travel-rule-sign'; declaration: Record<string, unknown> }
  | { kind: 'travel-rule-reset' }
  | { kind: 'travel-rule-complete' };

export interface CeremonyRef {
  ceremonyId: string;
  /** active: waiting for the signer; signed; ended: expired or locked unsigned. */
  status: 'active' | 'signed' | 'ended';
}

export interface OnboardingWorkflowState {
  status: OnboardingStatus;
  created: boolean;
  subjectType: SubjectType | null;
  lastEditAt: string;
  submittedAt: string | null;
  submissions: number;
  /** First approver (four-eyes: the second must differ). */
  approvedBy: string | null;
  secondApprovalRequired: boolean;
  risk: { score: number; classe: string } | null;
  declarations: CeremonyRef | null;
  travelRule: { status: 'none' | 'signing' | 'signed' | 'completed'; ceremonyId: string | null };
  wallets: WalletSummary[];
  infoRequestedAt: string | null;
  reminderSent: boolean;
  codAnagrafe: string | null;
  transitions: number;
}

export interface OnboardingTransitionArgs {
  action: Exclude<OnboardingAction, 'edit' | 'expire'>;
  actor: MachineActor;
  input?: { reason?: string; message?: string; wallet_id?: string; note?: string };
}

export interface OnboardingEditArgs { actor: MachineActor; edit: OnboardingEdit }
export interface OnboardingEditResult { state: OnboardingWorkflowState; ceremonyId?: string | null }

export const createOnboardingUpdate = defineUpdate<OnboardingWorkflowState, [{ actor: MachineActor; data: OnboardingNewData }]>('createOnboarding');
export const editOnboardingUpdate = defineUpdate<OnboardingEditResult, [OnboardingEditArgs]>('edit');
export const onboardingTransitionUpdate = defineUpdate<OnboardingWorkflowState, [OnboardingTransitionArgs]>('transition');
export const onboardingStateQuery = defineQuery<OnboardingWorkflowState>('state');

/** Failure types the update handlers raise besides the machine's rejections (the API maps them). */
export const ONBOARDING_FAILURES = {
  validation: 'VALIDATION_FAILED',
  signaturePending: 'SIGNATURE_PENDING',
  walletsPending: 'WALLETS_PENDING',
  proofRequired: 'PROOF_OF_CONTROL_REQUIRED',
  notFound: 'ONBOARDING_NOT_FOUND',
  conflict: 'ONBOARDING_CONFLICT',
  /** The case already holds the most documents its tenant allows (onboarding.max_documents). */
  tooManyDocuments: 'TOO_MANY_DOCUMENTS',
  /** The case's documents would exceed the tenant's total size (onboarding.max_documents_mb). */
  documentsTooLarge: 'DOCUMENTS_TOO_LARGE',
  /** An activity failed for another reason (database down, bad data): nothing changed, the caller may retry. */
  projectionFailed: 'PROJECTION_FAILED',
} as const;

/** Activity payloads. */
export interface OnboardingStep {
  codAzienda: string;
  caseId: string;
  /** Idempotency key, recorded in the audit event. */
  transitionId: string;
  actor: MachineActor;
}

/** How one of the case's signing ceremonies ended, as its signal told the case. */
export interface OnboardingCeremonyOutcome extends OnboardingStep {
  ceremonyId: string;
  purpose: 'dichiarazioni' | 'travel_rule';
  outcome: 'signed' | 'ended';
}

export interface ValidationIssue { path: string; message: string; step: number }
export interface RiskFactor { codice: string; descrizione: string; punti: number }
export interface RiskResult {
  score: number;
  classe: 'basso' | 'medio' | 'medio_alto' | 'alto';
  fattori: RiskFactor[];
  pep: boolean;
  screeningMatches: number;
  walletHits: number;
  secondApprovalRequired: boolean;
  modello: string;
}

export interface SigningDocument {
  ceremonyId: string;
  signer: { nome: string; email: string };
  document: { nome: string; contenuto_base64: string };
  consent: { testo: string; versione: string };
  tokenHash: string;
}
