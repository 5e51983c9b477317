/** The first periodic due-diligence review of a new customer, scheduled at onboarding approval. */
export const cddReviewWorkflowId = (codAzienda: string, reviewId: string) => `cdd-review:${codAzienda}:${reviewId}`;
export const CDD_REVIEW_WORKFLOW_TYPE = 'cddReviewWorkflow';

export interface CddReviewInput {
  codAzienda: string;
  codAnagrafe: string;
  reviewId: string;
  /** ISO date: by risk class (high 1 year, medium 3, low 5; tenant settings). */
  dueAt: string;
}

/** Years until the next periodic review, by risk class (docs/processes.md, CDD task). */
export const REVIEW_YEARS: Record<string, number> = { alto: 1, medio_alto: 2, medio: 3, basso: 5 };
