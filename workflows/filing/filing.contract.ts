import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MachineActor } from '../lib/machine';
import type { EsignNewData } from '../esign/esign.contract';
import type { FilingTipo } from './filing.deadlines';
import type { FilingAction, FilingStatus } from './filing.machine';

/** The one place that builds a filing's workflow id: `filing:<cod_azienda>:<id>`. */
export const filingWorkflowId = (codAzienda: string, filingId: string) => `filing:${codAzienda}:${filingId}`;
export const FILING_WORKFLOW_TYPE = 'filingWorkflow';
export const FILING_RECORD_TYPE = 'filing';

/** The goAML report as a JSON tree keyed by element names (src/domains/filing/goaml/report-xml.ts). */
export type FilingContent = Record<string, unknown>;

export interface FilingFindingRecord { code: string; path: string; message: string; source: 'rules' | 'schema' | 'return' }

export interface FilingNewData {
  titolo: string;
  tipo: FilingTipo;
  /** Reference month `YYYY-MM` (comunicazione oggettiva, S.AR.A.). */
  periodo_riferimento?: string | null;
  content?: FilingContent;
  /** The filing this one follows up (a returned one). */
  parent_id?: string | null;
  /** The customer the filing is about (the list's filter), when known. */
  cod_anagrafe?: string | null;
  /** Made from an SOS: visible only to the SOS delegate and the compliance officer (policy `filings_riservate`). */
  riservata?: boolean;
  /** The SOS it is made from: the link is written in the SOS area's confidential table, never on the filing. */
  sos_id?: string | null;
}

export interface FilingWorkflowInput {
  codAzienda: string;
  filingId: string;
  /** ISO: the draft's creation; the STR deadline counts from it. */
  createdAt: string;
  tipo: FilingTipo;
  periodo?: string | null;
  state?: FilingWorkflowState;
}

export interface FilingWorkflowState {
  status: FilingStatus;
  created: boolean;
  transitions: number;
  tipo: FilingTipo;
  periodo: string | null;
  dueAt: string | null;
  warned: boolean;
  overdue: boolean;
  /** Who submitted it for approval: approve must come from someone else. */
  preparedBy: string | null;
  ceremony: { id: string; status: 'active' | 'signed' | 'ended' } | null;
}

export interface CreateFilingArgs { actor: MachineActor; data: FilingNewData }

export interface FilingTransitionArgs {
  action: FilingAction;
  actor: MachineActor;
  reason?: string;
  content?: FilingContent;
  titolo?: string;
  periodo?: string | null;
  tipo?: FilingTipo;
  jurisdiction?: string;
  reportCode?: string;
  submissionRef?: string;
  /** import-return: the FIU's answer as parsed by the web process. */
  returnFile?: { outcome: 'acknowledged' | 'returned'; entityReference: string; fiuRefNumber: string | null; statusDate: string | null; errors: FilingFindingRecord[]; fileName: string; sha256: string };
  /** follow-up: the id of the new filing (chosen by the caller, created after). */
  followUpId?: string;
  /** sign: set by the workflow, the ceremony it started. */
  ceremonyId?: string;
}

export interface FilingRecord {
  id: string;
  cod_azienda: string;
  titolo: string;
  tipo: FilingTipo;
  periodo_riferimento: string | null;
  jurisdiction: string | null;
  report_code: string | null;
  stato: FilingStatus;
  content: FilingContent;
  findings: FilingFindingRecord[];
  return_errors: FilingFindingRecord[];
  package_sha256: string | null;
  submission_ref: string | null;
  fiu_ref_number: string | null;
  reject_reason: string | null;
  created_by: string;
  prepared_by: string | null;
  approved_by: string | null;
  ceremony_id: string | null;
  signed_at: string | Date | null;
  parent_id: string | null;
  follow_up_id: string | null;
  due_at: string | Date | null;
  overdue: boolean;
  workflow_id: string;
  /** Added with the list kit (migration 20261215000100); optional for histories recorded before. */
  cod_anagrafe?: string | null;
  riservata?: boolean;
  created_at: string | Date;
  updated_at: string | Date;
}

/** A refusal of the content (validate, render-package): 422 with the findings. */
export const FILING_INVALID = 'FILING_INVALID';
/** complete-signing before the ceremony is signed. */
export const SIGNATURE_PENDING = 'SIGNATURE_PENDING';
export const FILING_NOT_FOUND = 'FILING_NOT_FOUND';

export interface FilingReply { state: FilingWorkflowState; record: FilingRecord | null }

export const createFilingUpdate = defineUpdate<FilingReply, [CreateFilingArgs]>('createFiling');
export const filingTransitionUpdate = defineUpdate<FilingReply, [FilingTransitionArgs]>('transition');
export const filingStateQuery = defineQuery<FilingWorkflowState>('state');

export interface FilingStep {
  codAzienda: string;
  filingId: string;
  /** Idempotency key: the filing event's id. */
  transitionId: string;
  actor: MachineActor;
}

export interface FilingProjection extends FilingStep {
  action: FilingAction;
  from: FilingStatus;
  to: FilingStatus;
  args: Omit<FilingTransitionArgs, 'actor' | 'action'>;
  dueAt: string | null;
}

export interface FilingCreation { codAzienda: string; filingId: string; workflowId: string; actor: MachineActor; data: FilingNewData; dueAt: string | null }

/** The result of a content check (validate) or of rendering (render-package). */
export interface FilingCheck { valid: boolean; findings: FilingFindingRecord[]; record: FilingRecord }

export interface FilingSigning { ceremonyId: string; create: { actor: MachineActor; data: EsignNewData } }

export interface FilingDeadlineNotice { codAzienda: string; filingId: string; dueAt: string; kind: 'due_soon' | 'overdue' }

/**
 * The filing's activities: the contract names them and activities/filing implements them.
 * A type literal: an activity map needs the implicit index signature only type literals have.
 */
export type FilingActivities = {
  createFilingProjection(p: FilingCreation): Promise<FilingRecord>;
  projectFilingTransition(p: FilingProjection): Promise<FilingRecord>;
  checkFilingContent(p: FilingProjection): Promise<FilingCheck>;
  renderFilingPackage(p: FilingProjection): Promise<FilingCheck>;
  prepareFilingSigning(p: FilingProjection): Promise<FilingSigning>;
  noticeFilingDeadline(p: FilingDeadlineNotice): Promise<{ notified: number }>;
};
