import type { MachineDef } from '../lib/machine';

export const REPORT_STATES = ['generating', 'generated', 'approved', 'submitted', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATES)[number];

export const REPORT_ACTIONS = ['approve', 'submit', 'complete-submission'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** Who may ask for a report to be generated (and see the lists): the compliance staff who prepare them. */
export const REPORT_GENERATORS = ['co', 'analyst'] as const;
/** Approval and submission to the UIF are the compliance officer's. */
const OFFICERS = ['co'] as const;

/**
 * Regulatory report (docs/processes.md, "Regulatory report"; docs/reporting.md). The workflow
 * itself moves generating -> generated (or failed); approval is four-eyes against whoever asked
 * for the generation; each submission gets its outcome: accepted completes the report, rejected
 * brings it back to approved for a new submission.
 */
export const reportMachine: MachineDef<ReportStatus, ReportAction> = {
  name: 'reporting',
  initial: 'generating',
  states: REPORT_STATES,
  final: ['completed', 'failed'],
  transitions: [
    { action: 'approve', from: ['generated'], to: 'approved', roles: OFFICERS, fourEyes: { against: 'generated_by' } },
    { action: 'submit', from: ['approved'], to: 'submitted', roles: OFFICERS },
    // One action, two outcomes: the outcome decides (the first is the machine's default).
    { action: 'complete-submission', from: ['submitted'], to: 'completed', roles: OFFICERS, requires: ['submissionId', 'esito'] },
    { action: 'complete-submission', from: ['submitted'], to: 'approved', roles: OFFICERS, requires: ['submissionId', 'esito'] },
  ],
};
