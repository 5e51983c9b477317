import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { CaseAction, CaseStatus } from './case.machine';

/** The one place that builds a case's workflow id: `case:<cod_azienda>:<id>`. */
export const caseWorkflowId = (codAzienda: string, caseId: string) => `case:${codAzienda}:${caseId}`;
export const CASE_WORKFLOW_TYPE = 'caseWorkflow';
export const CASE_RECORD_TYPE = 'case';

export const CASE_TIPI = ['indagine', 'alert_monitoraggio', 'screening', 'segnalazione_interna', 'altro'] as const;
export const CASE_PRIORITA = ['bassa', 'media', 'alta', 'critica'] as const;
export const CASE_ESITI = ['nessuna_anomalia', 'sos_inviata', 'rimediazione', 'archiviato'] as const;
export const CASE_EVENT_TIPI = ['nota', 'documento', 'contatto', 'altro'] as const;

export interface CaseNewData {
  titolo: string;
  descrizione: string;
  tipo: (typeof CASE_TIPI)[number];
  priorita: (typeof CASE_PRIORITA)[number];
  cod_anagrafe?: string | null;
  assegnatario?: string | null;
}

export interface CaseWorkflowInput {
  codAzienda: string;
  caseId: string;
  slaDays: number;
  /** ISO date: absolute, so it survives continue-as-new unchanged. */
  slaDueAt: string;
  /** Set when continuing as new. */
  state?: CaseWorkflowState;
}

export interface CaseWorkflowState {
  status: CaseStatus;
  created: boolean;
  overdue: boolean;
  slaDueAt: string;
  /** Actor id of who asked to close: complete-closure must come from someone else. */
  closingRequestedBy: string | null;
  outcome: string | null;
  transitions: number;
}

export interface CreateCaseArgs {
  actor: MachineActor;
  data: CaseNewData;
}

export interface CaseTransitionArgs {
  action: CaseAction;
  actor: MachineActor;
  reason?: string;
  outcome?: (typeof CASE_ESITI)[number];
  event?: { tipo: (typeof CASE_EVENT_TIPI)[number]; testo: string };
}

export const createCaseUpdate = defineUpdate<CaseWorkflowState, [CreateCaseArgs]>('createCase');
export const caseTransitionUpdate = defineUpdate<CaseWorkflowState, [CaseTransitionArgs]>('transition');
export const caseStateQuery = defineQuery<CaseWorkflowState>('state');

/** What the projection activity receives for one transition. */
export interface CaseProjection {
  codAzienda: string;
  caseId: string;
  /** Idempotency key: a retried activity finds its case event and writes nothing twice. */
  transitionId: string;
  action: CaseAction;
  from: CaseStatus;
  to: CaseStatus;
  actor: MachineActor;
  reason?: string;
  outcome?: string;
  event?: { tipo: string; testo: string };
}

export interface CaseCreation {
  codAzienda: string;
  caseId: string;
  workflowId: string;
  actor: MachineActor;
  data: CaseNewData;
  slaDays: number;
  slaDueAt: string;
}

export interface CaseOverdue {
  codAzienda: string;
  caseId: string;
  slaDueAt: string;
}
