/** The hourly sweep that turns events (a due review, an expiring document, a new match) into CDD tasks. */
export const CDD_SWEEP_WORKFLOW_TYPE = 'cddSweepWorkflow';
export const CDD_SWEEP_SCHEDULE_ID = 'cdd-sweep';

export interface CddSweepTenantResult {
  codAzienda: string;
  /** Tasks opened by this sweep. */
  created: number;
  /** Events that joined a task already open for the customer. */
  joined: number;
  /** Events that could not start their task, or reviews not cancelled (logged; the next sweep tries again). */
  failed: number;
  /** Scheduled reviews cancelled because every relationship of the customer ended (or the customer was deleted). */
  reviewsCancelled: number;
}
