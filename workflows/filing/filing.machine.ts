import type { MachineDef } from '../lib/machine';

export const FILING_STATES = [
  'draft', 'classified', 'validated', 'ready', 'pending_approval', 'approved', 'signing', 'signed',
  'packaged', 'submitted', 'acknowledged', 'returned', 'archived',
] as const;
export type FilingStatus = (typeof FILING_STATES)[number];

export const FILING_ACTIONS = [
  'edit', 'classify', 'validate', 'mark-ready', 'submit-for-approval', 'approve', 'reject', 'sign', 'complete-signing',
  'render-package', 'record-submission', 'import-return', 'follow-up', 'archive',
] as const;
export type FilingAction = (typeof FILING_ACTIONS)[number];

const PREPARERS = ['co', 'analyst', 'sos', 'admin'] as const;
const OFFICERS = ['co'] as const;
const SENDERS = ['co', 'sos'] as const;

/**
 * Filing (regulatory report package), as in docs/processes.md. Editing the content is
 * possible in draft only: a classified or validated package is what gets approved and signed.
 * Approval is four-eyes against whoever submitted it for approval (the preparer).
 */
export const filingMachine: MachineDef<FilingStatus, FilingAction> = {
  name: 'filing',
  initial: 'draft',
  states: FILING_STATES,
  final: ['archived'],
  transitions: [
    { action: 'edit', from: ['draft'], roles: PREPARERS },
    { action: 'classify', from: ['draft', 'classified'], to: 'classified', roles: PREPARERS, requires: ['tipo', 'jurisdiction', 'reportCode'] },
    { action: 'validate', from: ['classified'], to: 'validated', roles: PREPARERS },
    { action: 'mark-ready', from: ['validated'], to: 'ready', roles: PREPARERS },
    { action: 'submit-for-approval', from: ['ready'], to: 'pending_approval', roles: PREPARERS },
    { action: 'approve', from: ['pending_approval'], to: 'approved', roles: OFFICERS, fourEyes: { against: 'prepared_by' } },
    { action: 'reject', from: ['pending_approval'], to: 'draft', roles: OFFICERS, requires: ['reason'] },
    // From signing too: a ceremony that ended unsigned (24 h, wrong codes) is started again.
    { action: 'sign', from: ['approved', 'signing'], to: 'signing', roles: OFFICERS },
    { action: 'complete-signing', from: ['signing'], to: 'signed', roles: OFFICERS },
    { action: 'render-package', from: ['signed'], to: 'packaged', roles: SENDERS },
    { action: 'record-submission', from: ['packaged'], to: 'submitted', roles: SENDERS, requires: ['submissionRef'] },
    // One action, two outcomes: the return file decides (the first is the machine's default).
    { action: 'import-return', from: ['submitted'], to: 'acknowledged', roles: SENDERS },
    { action: 'import-return', from: ['submitted'], to: 'returned', roles: SENDERS },
    { action: 'follow-up', from: ['returned'], roles: PREPARERS },
    { action: 'archive', from: ['acknowledged', 'returned'], to: 'archived', roles: OFFICERS },
  ],
};
