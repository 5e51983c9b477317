import type { MachineDef } from '../../../../workflows/lib/machine';

export const ESERCIZIO_STATES = ['bozza', 'in_approvazione', 'approvata'] as const;
export type EsercizioStato = (typeof ESERCIZIO_STATES)[number];
export const ESERCIZIO_ACTIONS = ['modifica', 'invia', 'approva', 'respingi'] as const;
export type EsercizioAction = (typeof ESERCIZIO_ACTIONS)[number];

/** Who writes the self-assessment: the compliance officer and the tenant admin. */
export const SELF_WRITERS = ['co', 'admin'] as const;

/**
 * The yearly exercise (docs/risk-self-assessment.md). It is edited in draft, submitted, and
 * approved by a compliance officer who is neither its author nor the one who submitted it (the
 * second check, against the author, is in the service: the machine guards one field). The
 * approved exercise is final and frozen. Decided in the database transaction on the locked row
 * (decideInTransaction): a table-kept process, no workflow.
 */
export const esercizioMachine: MachineDef<EsercizioStato, EsercizioAction> = {
  name: 'autovalutazione',
  initial: 'bozza',
  states: ESERCIZIO_STATES,
  final: ['approvata'],
  transitions: [
    { action: 'modifica', from: ['bozza'], roles: SELF_WRITERS },
    { action: 'invia', from: ['bozza'], to: 'in_approvazione', roles: SELF_WRITERS },
    { action: 'approva', from: ['in_approvazione'], to: 'approvata', roles: ['co'], fourEyes: { against: 'submitted_by' } },
    { action: 'respingi', from: ['in_approvazione'], to: 'bozza', roles: ['co'], requires: ['reason'] },
  ],
};
