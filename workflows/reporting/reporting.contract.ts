import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { ReportAction, ReportStatus } from './reporting.machine';
import type { ReportTipo } from './rules';

export { REPORT_TIPI, reportDueAt, type ReportTipo } from './rules';
export { monthsBetween, parseMonth } from './rules/period';

/** The one place that builds a report's workflow id: `reporting:<cod_azienda>:<id>`. */
export const reportWorkflowId = (codAzienda: string, reportId: string) => `reporting:${codAzienda}:${reportId}`;
export const REPORT_WORKFLOW_TYPE = 'reportingWorkflow';
export const REPORT_RECORD_TYPE = 'reporting';
export const REPORT_NOT_FOUND = 'REPORT_NOT_FOUND';
/** complete-submission naming a submission that is not the report's pending one. */
export const SUBMISSION_NOT_PENDING = 'SUBMISSION_NOT_PENDING';
export const REPORT_ESITI = ['accettata', 'scartata'] as const;
export type ReportEsito = (typeof REPORT_ESITI)[number];

export interface ReportWorkflowInput {
  codAzienda: string;
  reportId: string;
  tipo: ReportTipo;
  periodo: string;
  state?: ReportWorkflowState;
}

export interface ReportWorkflowState {
  status: ReportStatus;
  created: boolean;
  transitions: number;
  /** Who asked for the generation: approval must come from someone else. */
  generatedBy: string | null;
  /** The generator, acting for the generation step's audit events. */
  generator: MachineActor | null;
  dueAt: string;
  warned: boolean;
  overdue: boolean;
  /** The submission waiting for its outcome. */
  pendingSubmission: string | null;
}

export interface CreateReportArgs { actor: MachineActor }

export interface ReportTransitionArgs {
  action: ReportAction;
  actor: MachineActor;
  /** submit: the portal's reference of the send, when known. */
  riferimento?: string;
  /** submit: set by the workflow, the new submission's id. */
  submissionId?: string;
  esito?: ReportEsito;
  protocollo?: string;
  note?: string;
}

export interface ReportRecord {
  id: string;
  cod_azienda: string;
  tipo: ReportTipo;
  periodo: string;
  stato: ReportStatus;
  progresso: number;
  fase: string | null;
  negativa: boolean | null;
  righe: number;
  operazioni: number;
  /** Euro; the database's numeric arrives as a number (src/db/knex.ts). */
  totale_eur: number;
  errore: string | null;
  generated_by: string;
  generated_by_username: string;
  approved_by: string | null;
  approved_at: string | Date | null;
  due_at: string | Date;
  due_soon: boolean;
  overdue: boolean;
  filing_id: string | null;
  workflow_id: string;
  created_at: string | Date;
  updated_at: string | Date;
  completed_at: string | Date | null;
}

export interface ReportReply { state: ReportWorkflowState; record: ReportRecord | null }

export const createReportUpdate = defineUpdate<ReportReply, [CreateReportArgs]>('createReport');
export const reportTransitionUpdate = defineUpdate<ReportReply, [ReportTransitionArgs]>('transition');
export const reportStateQuery = defineQuery<ReportWorkflowState>('state');

export interface ReportCreation { codAzienda: string; reportId: string; workflowId: string; actor: MachineActor; tipo: ReportTipo; periodo: string; dueAt: string }

export interface ReportProjection {
  codAzienda: string;
  reportId: string;
  /** Idempotency key of the step. */
  transitionId: string;
  actor: MachineActor;
  action: ReportAction;
  from: ReportStatus;
  to: ReportStatus;
  args: Omit<ReportTransitionArgs, 'actor' | 'action'>;
}

export interface ReportGeneration { codAzienda: string; reportId: string; actor: MachineActor }
export interface ReportGenerated { negativa: boolean; righe: number; operazioni: number }
export interface ReportDeadlineNotice { codAzienda: string; reportId: string; dueAt: string; kind: 'due_soon' | 'overdue' }

/** The report's activities: the contract names them and activities/reporting implements them. */
export type ReportActivities = {
  createReportProjection(p: ReportCreation): Promise<ReportRecord>;
  generateReport(p: ReportGeneration): Promise<ReportGenerated>;
  finishReportGeneration(p: ReportGeneration & { ok: boolean; error?: string }): Promise<ReportRecord>;
  projectReportTransition(p: ReportProjection): Promise<ReportRecord>;
  noticeReportDeadline(p: ReportDeadlineNotice): Promise<{ notified: number }>;
};
