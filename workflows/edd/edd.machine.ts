import type { MachineDef } from '../lib/machine';
import { PROCESS_WRITERS } from '../lib/roles';

export const EDD_STATES = ['open', 'pending_supervisor', 'approved', 'closed'] as const;
export type EddStatus = (typeof EDD_STATES)[number];

export const EDD_ACTIONS = ['aggiungi-step', 'completa-step', 'approva', 'approva-supervisore', 'respingi', 'chiudi'] as const;
export type EddAction = (typeof EDD_ACTIONS)[number];

const WRITERS = PROCESS_WRITERS;

/**
 * EDD case (adeguata verifica rafforzata), as in docs/processes.md. Steps are the enhanced
 * measures; they are added and completed while the case is open and frozen while a supervisor
 * looks at it. The supervisor (a compliance officer) is never the one who submitted it:
 * art. 25 d.lgs. 231/2007 asks for senior management approval, which a submitter cannot give
 * to themselves. Guards the machine cannot express (no open step at `approva`, the step
 * exists and is open) live in the workflow (edd.guards.ts).
 */
export const eddMachine: MachineDef<EddStatus, EddAction> = {
  name: 'edd',
  initial: 'open',
  states: EDD_STATES,
  final: ['closed'],
  transitions: [
    { action: 'aggiungi-step', from: ['open'], roles: WRITERS, requires: ['step'] },
    { action: 'completa-step', from: ['open'], roles: WRITERS, requires: ['step_id', 'esito'] },
    { action: 'approva', from: ['open'], to: 'pending_supervisor', roles: WRITERS },
    { action: 'approva-supervisore', from: ['pending_supervisor'], to: 'approved', roles: ['co'], fourEyes: { against: 'submitted_by' } },
    { action: 'respingi', from: ['pending_supervisor'], to: 'open', roles: ['co'], requires: ['reason'] },
    { action: 'chiudi', from: ['approved'], to: 'closed', roles: WRITERS },
  ],
};
