import type { MachineDef } from '../lib/machine';
import { PROCESS_WRITERS } from '../lib/roles';

export const MATCH_STATES = ['open', 'assigned', 'true_match', 'false_positive'] as const;
export type MatchStatus = (typeof MATCH_STATES)[number];

export const MATCH_ESITI = ['true_match', 'false_positive'] as const;
export type MatchEsito = (typeof MATCH_ESITI)[number];

/**
 * assegna, risolvi and conferma. With four-eyes on, risolvi only records the request
 * (the match stays assigned) and conferma, by someone else, completes it; with four-eyes
 * off, risolvi completes at once. The resolved state is the chosen esito, so the
 * transitions leave `to` to the service.
 */
export const MATCH_ACTIONS = ['assegna', 'risolvi', 'conferma'] as const;
export type MatchAction = (typeof MATCH_ACTIONS)[number];

const WRITERS = PROCESS_WRITERS;

/** Screening match, as in docs/processes.md (table process: no workflow per match). */
export const matchMachine: MachineDef<MatchStatus, MatchAction> = {
  name: 'screening-match',
  initial: 'open',
  states: MATCH_STATES,
  final: ['true_match', 'false_positive'],
  transitions: [
    { action: 'assegna', from: ['open', 'assigned'], to: 'assigned', roles: WRITERS, requires: ['assegnatario'] },
    { action: 'risolvi', from: ['assigned'], roles: WRITERS, requires: ['esito', 'motivazione'] },
    { action: 'conferma', from: ['assigned'], roles: WRITERS, fourEyes: { against: 'resolution_requested_by' }, requires: ['esito'] },
  ],
};
