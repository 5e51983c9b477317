import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { RiskAssessmentAction, RiskAssessmentStatus } from './risk-assessment.machine';

/** The one place that builds an assessment's workflow id: `risk-assessment:<cod_azienda>:<id>`. */
export const riskAssessmentWorkflowId = (codAzienda: string, assessmentId: string) => `risk-assessment:${codAzienda}:${assessmentId}`;
export const RISK_ASSESSMENT_WORKFLOW_TYPE = 'riskAssessmentWorkflow';
export const RISK_ASSESSMENT_RECORD_TYPE = 'risk_assessment';

/** Why an assessment was started (the CHECK of rischio_valutazioni.motivo). */
export const RISK_MOTIVI = [
  'manuale', 'onboarding', 'evento_screening', 'evento_anagrafe', 'evento_cdd', 'evento_monitoraggio', 'portafoglio', 'scadenza_override',
] as const;
export type RiskMotivo = (typeof RISK_MOTIVI)[number];

/** The risk classes (the same list as src/domains/risk/risk.types.ts: workflow code may not import src/). */
export const RISK_CLASSES = ['basso', 'medio', 'medio_alto', 'alto'] as const;
export type RiskClass = (typeof RISK_CLASSES)[number];

/** The platform acting on a tenant's behalf (automatic release, archive when superseded, events, expiries). */
export const RISK_SYSTEM_ACTOR: MachineActor = { id: 'system', username: 'system', roles: ['co'] };

export interface RiskAssessmentNewData {
  cod_anagrafe: string;
  motivo: RiskMotivo;
  /** What started it: a match id, a CDD task, the expired assessment's code... */
  riferimento?: string | null;
}

export interface RiskAssessmentWorkflowInput {
  codAzienda: string;
  assessmentId: string;
  /** Set when nobody sends the create update (an expired override starts its successor): the workflow creates itself. */
  autoStart?: { actor: MachineActor; data: RiskAssessmentNewData };
  /** Set when continuing as new. */
  state?: RiskAssessmentWorkflowState;
}

export interface RiskAssessmentWorkflowState {
  status: RiskAssessmentStatus;
  created: boolean;
  transitions: number;
  codAnagrafe: string | null;
  codValutazione: string | null;
  /** Actor id of the override's author: the confirming compliance officer must be someone else. */
  overrideBy: string | null;
  /** When the released override stops applying (ISO instant), and whether it already did. */
  overrideExpiresAt: string | null;
  overrideExpired: boolean;
  /** Release effects not yet applied after their commit (CDD consequences, superseded workflows told). */
  pendingEffects: RiskReleaseEffects[];
}

export interface CreateRiskAssessmentArgs {
  actor: MachineActor;
  data: RiskAssessmentNewData;
}

export interface RiskAssessmentTransitionArgs {
  action: RiskAssessmentAction;
  actor: MachineActor;
  /** override: the new class and the reason (both required by the machine). */
  classe?: RiskClass;
  motivo?: string;
  /** override: the last day the override applies (yyyy-mm-dd) and that day's end as an instant. */
  scadenza?: string | null;
  scadenza_at?: string | null;
  /** release, archive: an optional note. */
  nota?: string | null;
}

/** The row of the assessment as its projection left it (dates as ISO strings once serialised). */
export interface RiskAssessmentRecord {
  id: string;
  cod_azienda: string;
  cod_valutazione: string;
  cod_anagrafe: string;
  stato: RiskAssessmentStatus;
  motivo: RiskMotivo;
  riferimento: string | null;
  versione_id: string | null;
  punteggio: number | null;
  classe_calcolata: RiskClass | null;
  classe_effettiva: RiskClass | null;
  classe_precedente: RiskClass | null;
  pavimento: { regola: string; classe: RiskClass } | null;
  contributi: unknown[];
  profilo: Record<string, unknown>;
  probabilita: number | null;
  impatto: number | null;
  override_classe: RiskClass | null;
  override_motivo: string | null;
  override_scadenza: string | null;
  override_by: string | null;
  override_at: string | Date | null;
  override_confirmed_by: string | null;
  override_confirmed_at: string | Date | null;
  override_scaduto: boolean;
  released_by: string | null;
  released_at: string | Date | null;
  archived_by: string | null;
  archived_at: string | Date | null;
  superata_da: string | null;
  cod_caso: string | null;
  workflow_id: string;
  created_by: string;
  created_at: string | Date;
  updated_at: string | Date;
}

/** What an update answers: the state and the row as the last projection left it (null for a repeated create). */
export interface RiskAssessmentReply {
  state: RiskAssessmentWorkflowState;
  record: RiskAssessmentRecord | null;
}

/** What a release leaves to do once committed. */
export interface RiskReleaseEffects {
  codAzienda: string;
  assessmentId: string;
  codAnagrafe: string;
  actor: MachineActor;
  /** The customer's class before and after: the CDD consequences follow only a change. */
  da: RiskClass | null;
  a: RiskClass;
  /** The assessments this release archived (their workflows are told). */
  superseded: string[];
}

export const createRiskAssessmentUpdate = defineUpdate<RiskAssessmentReply, [CreateRiskAssessmentArgs]>('createRiskAssessment');
export const riskAssessmentTransitionUpdate = defineUpdate<RiskAssessmentReply, [RiskAssessmentTransitionArgs]>('transition');
export const riskAssessmentStateQuery = defineQuery<RiskAssessmentWorkflowState>('state');
/** Another assessment's release archived this one (its row already says so): the workflow ends. */
export const riskAssessmentSupersededSignal = defineSignal<[{ by: string }]>('superseded');

export const RISK_ASSESSMENT_FAILURES = {
  notFound: 'ASSESSMENT_NOT_FOUND',
  customerNotFound: 'CUSTOMER_NOT_FOUND',
  customerDeleted: 'CUSTOMER_DELETED',
} as const;

export interface RiskAssessmentCreation {
  codAzienda: string;
  assessmentId: string;
  workflowId: string;
  actor: MachineActor;
  data: RiskAssessmentNewData;
}

/** What the projection activity receives for one transition. */
export interface RiskAssessmentProjection {
  codAzienda: string;
  assessmentId: string;
  /** Idempotency key: the audit event carries it, so a retried activity writes nothing twice. */
  transitionId: string;
  action: RiskAssessmentAction;
  from: RiskAssessmentStatus;
  to: RiskAssessmentStatus;
  actor: MachineActor;
  args: Omit<RiskAssessmentTransitionArgs, 'actor' | 'action'>;
  /** Set on an automatic step (a release by the system, an archive on supersession). */
  automatico?: boolean;
}

/** The calculation's and the release's answers: the row, and what the workflow decides next. */
export interface RiskAssessmentWritten {
  record: RiskAssessmentRecord;
  /** calculate: the calculated class is not lower than the class in force, so the system releases it. */
  autoRelease?: boolean;
  /** release: what to do after the commit. */
  effects?: RiskReleaseEffects;
}

const ORDER: Record<RiskClass, number> = { basso: 1, medio: 2, medio_alto: 3, alto: 4 };
/** a ≥ b in the class order; anything is ≥ no class. */
export const classAtLeast = (a: RiskClass, b: RiskClass | null) => !b || ORDER[a] >= ORDER[b];

/** The driver reads a `date` as a local midnight: the row keeps the override's expiry as the day it is (yyyy-mm-dd). */
export function normaliseAssessmentRow<T extends { override_scadenza?: unknown }>(row: T): T {
  const d = row.override_scadenza;
  if (!(d instanceof Date)) return row;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { ...row, override_scadenza: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` };
}
