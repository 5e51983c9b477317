import { defineQuery } from '@temporalio/workflow';

/** The one place that builds the import workflow's id. */
export const screeningImportWorkflowId = (runId: string) => `screening-import:${runId}`;
export const SCREENING_IMPORT_WORKFLOW_TYPE = 'screeningImportWorkflow';
export const SCREENING_IMPORT_RECORD_TYPE = 'screening-import';
export const SCREENING_IMPORT_SCHEDULE_ID = 'screening-import-daily';

/** One tenant's re-screen within a run (a list import's run id): a child of the import. */
export const screeningRescreenWorkflowId = (codAzienda: string, runId: string) => `screening-rescreen:${codAzienda}:${runId}`;
export const SCREENING_RESCREEN_WORKFLOW_TYPE = 'screeningRescreenWorkflow';
export const SCREENING_RESCREEN_RECORD_TYPE = 'screening-rescreen';
/** Subjects per page: each page is one activity and one short transaction. */
export const RESCREEN_PAGE_SIZE = 200;
/** Tenants re-screened at the same time after an import. */
export const RESCREEN_PARALLEL_TENANTS = 4;

export interface ScreeningRescreenInput {
  runId: string;
  codAzienda: string;
  /** List versions whose added and modified entries the subjects are screened against. */
  versionIds: number[];
  pageSize?: number;
  /** Where a continued run resumes: the last subject id of the pages already done. */
  after?: string | null;
}

export interface RescreenPageResult {
  screened: number;
  matchesCreated: number;
  /** The last subject id of the page; the next page starts after it. */
  lastId: string | null;
  done: boolean;
}

export interface ScreeningRescreenResult {
  codAzienda: string;
  pages: number;
  screened: number;
  matchesCreated: number;
}

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
  /** Subjects per page of the re-screen that follows (RESCREEN_PAGE_SIZE when absent). */
  rescreenPageSize?: number;
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
