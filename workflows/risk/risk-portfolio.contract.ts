/**
 * Portfolio runs of the risk area: a recalculation of every active customer with the active rule
 * set (ricalcolo), or a dry run of a version (simulazione) that changes nothing but its own
 * results. One workflow per run; the progress lives in rischio_esecuzioni, which the pages read.
 */
export const RISK_RUN_WORKFLOW_TYPE = 'riskPortfolioWorkflow';
export const RISK_RUN_RECORD_TYPE = 'risk-run';

export const riskRunWorkflowId = (codAzienda: string, runId: string) => `risk-run:${codAzienda}:${runId}`;

export const RISK_RUN_TIPI = ['ricalcolo', 'simulazione'] as const;
export type RiskRunTipo = (typeof RISK_RUN_TIPI)[number];
export const RISK_RUN_STATI = ['running', 'completed', 'failed', 'cancelled'] as const;
export type RiskRunStato = (typeof RISK_RUN_STATI)[number];

/** Customers per batch: one keyset read, one scoring call, one bulk write, one progress update. */
export const RISK_RUN_BATCH = 2_500;
/** Batches per activity call, so 100,000 customers are a handful of workflow events, not one per batch. */
export const RISK_RUN_BATCHES_PER_CHUNK = 20;

/**
 * Lanes walked side by side: slices of the customer codes, so that PostgreSQL computes one lane's
 * aggregates while the worker scores the other's (two cores both busy).
 */
export const RISK_RUN_LANES = 2;

/** A slice of the customers: codes after the lane's start (kept in the run row) up to `until` (null: to the end). */
export interface RiskRunLane { index: number; until: string | null; done?: boolean }

export interface RiskRunInput {
  runId: string;
  codAzienda: string;
  /** Absent on the first run: planned by the workflow. A continued run carries them (positions are in the run row). */
  lanes?: RiskRunLane[];
  batchSize?: number;
}

export interface RiskRunChunkResult {
  done: boolean;
  /** The run was stopped from outside (its row is no longer running). */
  stopped: boolean;
}
