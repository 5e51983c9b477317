import { defineQuery } from '@temporalio/workflow';

/** The one place that builds the import workflow's id. */
export const screeningImportWorkflowId = (runId: string) => `screening-import:${runId}`;
export const SCREENING_IMPORT_WORKFLOW_TYPE = 'screeningImportWorkflow';
export const SCREENING_IMPORT_RECORD_TYPE = 'screening-import';
export const SCREENING_IMPORT_SCHEDULE_ID = 'screening-import-daily';

export const screeningBatchWorkflowId = (codAzienda: string, batchId: string) => `screening-batch:${codAzienda}:${batchId}`;
export const SCREENING_BATCH_WORKFLOW_TYPE = 'screeningBatchWorkflow';
export const SCREENING_BATCH_RECORD_TYPE = 'screening-batch';
/** Batches up to this size are screened inside the request. */
export const INLINE_BATCH_LIMIT = 50;

export type ImportTrigger = 'manual' | 'schedule';

export interface ScreeningImportInput {
  /** Absent when the Schedule starts the workflow: the workflow makes one. */
  runId?: string;
  trigger: ImportTrigger;
  requestedBy?: string;
}

export interface ListImportResult {
  list: string;
  versionId: number | null;
  entries: number;
  added: number;
  modified: number;
  removed: number;
  skipped: boolean;
}

export interface ScreeningImportResult {
  runId: string;
  lists: ListImportResult[];
  matchesCreated: number;
}

export interface ScreeningSubjectInput {
  nome: string;
  tipo: 'person' | 'company';
  data_nascita?: string;
  nazionalita?: string;
  cod_anagrafe?: string;
  wallets?: string[];
}

export interface ScreeningBatchInput {
  codAzienda: string;
  batchId: string;
  actor: string;
  subjects: ScreeningSubjectInput[];
}

export interface ScreeningBatchProgress {
  total: number;
  done: number;
  matchesCreated: number;
  status: 'running' | 'completed';
}

export const screeningBatchProgressQuery = defineQuery<ScreeningBatchProgress>('progress');
