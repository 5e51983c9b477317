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

/** The row of the case as its projection left it (dates as ISO strings once serialised). */
export interface CaseRecord {
  id: string;
  cod_azienda: string;
  titolo: string;
  descrizione: string;
  tipo: string;
  priorita: string;
  stato: CaseStatus;
  cod_anagrafe: string | null;
  assegnatario: string | null;
  esito: string | null;
  motivazione_chiusura: string | null;
  opened_by: string;
  closing_requested_by: string | null;
  closed_by: string | null;
  sla_days: number;
  sla_due_at: string | Date;
  overdue: boolean;
  workflow_id: string;
  created_at: string | Date;
  updated_at: string | Date;
  closed_at: string | Date | null;
}

export interface CaseEventRecord { id: string; tipo: string; testo: string; actor: string; created_at: string | Date }

/**
 * What an update answers: the workflow's state and the record as the projection wrote it,
 * so the API answers from the update itself, never from a second read that could fail
 * after the change was committed. `record` is null for a repeated create.
 */
export interface CaseReply {
  state: CaseWorkflowState;
  record: CaseRecord | null;
  /** The case event the transition wrote (the note, or the transition's own line). */
  event?: CaseEventRecord;
}

export const createCaseUpdate = defineUpdate<CaseReply, [CreateCaseArgs]>('createCase');
export const caseTransitionUpdate = defineUpdate<CaseReply, [CaseTransitionArgs]>('transition');
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
