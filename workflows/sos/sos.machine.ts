import type { MachineDef } from '../lib/machine';

export const SOS_STATES = ['draft', 'submitted', 'under_evaluation', 'archived', 'to_transmit', 'transmitted', 'closed'] as const;
export type SosStatus = (typeof SOS_STATES)[number];

export const SOS_ACTIONS = ['submit', 'evaluate', 'archive', 'to_transmit', 'complete-transmission', 'close'] as const;
export type SosAction = (typeof SOS_ACTIONS)[number];

/** Who may draft and submit a report: any staff member who may see one being written (docs/sos.md). */
export const SOS_REPORTERS = ['analyst', 'sos', 'co'] as const;
/** The SOS delegate (delegato SOS) decides; the compliance officer may act as one. */
const DELEGATE = ['sos', 'co'] as const;

/** The states in which the evaluation timer runs (docs/sos.md, "Evaluation timer"). */
export const SOS_EVALUATION_STATES: readonly SosStatus[] = ['submitted', 'under_evaluation'];
/** The states in which the report's content may still change. */
export const SOS_EDITABLE_STATES: readonly SosStatus[] = ['draft', 'submitted', 'under_evaluation'];

/** SOS (segnalazione di operazioni sospette), as in docs/processes.md. */
export const sosMachine: MachineDef<SosStatus, SosAction> = {
  name: 'sos',
  initial: 'draft',
  states: SOS_STATES,
  final: ['archived', 'closed'],
  transitions: [
    { action: 'submit', from: ['draft'], to: 'submitted', roles: SOS_REPORTERS },
    { action: 'evaluate', from: ['submitted'], to: 'under_evaluation', roles: DELEGATE },
    { action: 'archive', from: ['under_evaluation'], to: 'archived', roles: DELEGATE, requires: ['reason'] },
    { action: 'to_transmit', from: ['under_evaluation'], to: 'to_transmit', roles: DELEGATE },
    { action: 'complete-transmission', from: ['to_transmit'], to: 'transmitted', roles: DELEGATE, requires: ['protocollo'] },
    { action: 'close', from: ['transmitted'], to: 'closed', roles: DELEGATE },
  ],
};
