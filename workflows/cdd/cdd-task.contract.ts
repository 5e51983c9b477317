import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { CddTaskAction, CddTaskStatus } from './cdd-task.machine';

/** The one place that builds a CDD task's workflow id: `cdd-task:<cod_azienda>:<id>`. */
export const cddTaskWorkflowId = (codAzienda: string, taskId: string) => `cdd-task:${codAzienda}:${taskId}`;
export const CDD_TASK_WORKFLOW_TYPE = 'cddTaskWorkflow';
export const CDD_TASK_RECORD_TYPE = 'cdd_task';

/** Due-diligence levels (art. 23 simplified, art. 17-18 ordinary, art. 24-25 enhanced, d.lgs. 231/2007). */
export const CDD_LIVELLI = ['semplificata', 'ordinaria', 'rafforzata'] as const;
export type CddLivello = (typeof CDD_LIVELLI)[number];

/** What started a task. */
export const CDD_MOTIVI = [
  'manuale', 'onboarding', 'revisione_periodica', 'nuovo_match_screening', 'cambio_classe_rischio', 'documento_in_scadenza',
] as const;
export type CddMotivo = (typeof CDD_MOTIVI)[number];

/** One reason for the level, stored with the task and shown to the people who work it. */
export interface CddLevelReason { codice: string; testo: string }

/** Failure types of the task's projections (their HTTP answers: src/domains/cdd/cdd-task.commands.ts). */
export const CDD_TASK_FAILURES = {
  notFound: 'CDD_TASK_NOT_FOUND',
  /** complete: the task's questionnaire is not completed. */
  questionnaireIncomplete: 'QUESTIONNAIRE_INCOMPLETE',
  /** complete: an enhanced task needs an approved EDD case. */
  eddRequired: 'EDD_REQUIRED',
  /** complete by an analyst: the level or the tenant's policy reserves it to the compliance officer. */
  completerNotAllowed: 'FORBIDDEN',
} as const;

export interface CddTaskNewData {
  cod_anagrafe: string;
  motivo: CddMotivo;
  livello: CddLivello;
  motivazioni_livello: CddLevelReason[];
  classe_rischio: string | null;
  pep: boolean;
  /** Tenant policy and level together: may an analyst complete this task (four-eyes still applies)? */
  analista_puo_completare: boolean;
  /** What started it (a review id, a document and its expiry, a match id, a class change). */
  origine: Record<string, unknown>;
  /** The event's idempotency key (cdd_attivazioni), when an event started it. */
  chiave?: string | null;
  review_id?: string | null;
  nota?: string | null;
  /** ISO date-time the task should be done by. */
  due_at: string;
}

export interface CddTaskWorkflowInput {
  codAzienda: string;
  taskId: string;
  /** Set when continuing as new. */
  state?: CddTaskWorkflowState;
}

export interface CddTaskWorkflowState {
  status: CddTaskStatus;
  created: boolean;
  /** The create found another task open for the customer: this run ends and the caller gets that one. */
  superseded: string | null;
  transitions: number;
  livello: CddLivello | null;
  analystMayComplete: boolean;
  /** Actor id of who moved the task to pending_review: complete must come from someone else. */
  reviewRequestedBy: string | null;
}

export interface CreateCddTaskArgs {
  actor: MachineActor;
  data: CddTaskNewData;
}

export interface CddTaskTransitionArgs {
  action: CddTaskAction;
  actor: MachineActor;
  /** The note of the step; required by add-note, send-back, abstain and delete. */
  nota?: string;
}

/** The row of a task as its projection left it (dates as ISO strings once serialised). */
export interface CddTaskRecord {
  id: string;
  cod_azienda: string;
  cod_pratica: string;
  cod_anagrafe: string;
  livello: CddLivello;
  motivazioni_livello: CddLevelReason[];
  classe_rischio: string | null;
  pep: boolean;
  motivo: CddMotivo;
  origine: Record<string, unknown>;
  stato: CddTaskStatus;
  assegnatario: string | null;
  revisore: string | null;
  analista_puo_completare: boolean;
  edd_richiesta: boolean;
  nota: string | null;
  due_at: string | Date;
  created_by: string;
  started_by: string | null;
  started_at: string | Date | null;
  review_requested_by: string | null;
  review_requested_by_username: string | null;
  review_requested_at: string | Date | null;
  completed_by: string | null;
  completed_by_username: string | null;
  completed_at: string | Date | null;
  motivazione_astensione: string | null;
  abstained_by: string | null;
  abstained_at: string | Date | null;
  motivo_eliminazione: string | null;
  deleted_by: string | null;
  deleted_at: string | Date | null;
  review_id: string | null;
  next_review_id: string | null;
  next_review_at: string | Date | null;
  workflow_id: string;
  created_at: string | Date;
  updated_at: string | Date;
}

/**
 * What an update answers: the workflow's state and the record as the projection wrote it.
 * `record` is null for a repeated create; `existing` names the open task a create ran into.
 */
export interface CddTaskReply {
  state: CddTaskWorkflowState;
  record: CddTaskRecord | null;
  existing?: string;
}

export const createCddTaskUpdate = defineUpdate<CddTaskReply, [CreateCddTaskArgs]>('createCddTask');
export const cddTaskTransitionUpdate = defineUpdate<CddTaskReply, [CddTaskTransitionArgs]>('transition');
export const cddTaskStateQuery = defineQuery<CddTaskWorkflowState>('state');

export interface CddTaskCreation {
  codAzienda: string;
  taskId: string;
  workflowId: string;
  actor: MachineActor;
  data: CddTaskNewData;
}

/** What the projection activity receives for one transition. */
export interface CddTaskProjection {
  codAzienda: string;
  taskId: string;
  /** Idempotency key: a retried activity finds it on the row and writes nothing twice. */
  transitionId: string;
  action: CddTaskAction;
  from: CddTaskStatus;
  to: CddTaskStatus;
  actor: MachineActor;
  nota?: string;
}

/** What completion leaves for the workflow to start: the next periodic review. */
export interface CddNextReview {
  reviewId: string;
  codAnagrafe: string;
  dueAt: string;
}
