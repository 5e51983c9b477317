import type { MachineDef } from '../lib/machine';
import { PROCESS_WRITERS } from '../lib/roles';

/**
 * Monitoring alert: a table process (docs/processes.md, "Monitoring alert"; docs/monitoring.md).
 * No workflow per alert: the same machine is decided on the locked row (decideInTransaction).
 *
 * A closure that dismisses an alert (falso_positivo, giustificato) whose score reaches the
 * tenant's threshold (`monitoring.soglia_quattro_occhi`) needs a second person: the service
 * then takes `propose-closure` (the alert waits in `closing`) instead of `close`, and a
 * compliance officer or SOS delegate other than the proposer confirms it. Which of the two
 * applies is the service's guard (it needs the disposition and the tenant's setting); both are
 * here so the diagram, the 409s and the buttons show them.
 */
export const ALERT_STATES = ['new', 'assigned', 'closing', 'escalated', 'closed'] as const;
export type AlertStatus = (typeof ALERT_STATES)[number];

export const ALERT_ACTIONS = ['assign', 'escalate', 'close', 'propose-closure', 'confirm-closure', 'reopen'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

/** How an alert is closed: false positive, justified by what is known of the customer, or suspicious (suggests an SOS). */
export const DISPOSIZIONI = ['falso_positivo', 'giustificato', 'sospetto'] as const;
export type Disposizione = (typeof DISPOSIZIONI)[number];

/** Closures that end an alert without any further action: the ones a second person confirms above the threshold. */
export const DISMISSALS: readonly Disposizione[] = ['falso_positivo', 'giustificato'];

/** Where an alert came from. */
export const ORIGINI = ['tempo_reale', 'giornaliero', 'replay', 'manuale', 'kyt'] as const;
export type Origine = (typeof ORIGINI)[number];

const WRITERS = PROCESS_WRITERS;
/** Who confirms a dismissal under four-eyes: the compliance officer and the SOS delegate. */
export const CLOSURE_CONFIRMERS = ['co', 'sos'] as const;

export const alertMachine: MachineDef<AlertStatus, AlertAction> = {
  name: 'monitoring-alert',
  initial: 'new',
  states: ALERT_STATES,
  final: ['escalated', 'closed'],
  transitions: [
    { action: 'assign', from: ['new', 'assigned'], to: 'assigned', roles: WRITERS, requires: ['assegnatario'] },
    { action: 'escalate', from: ['assigned'], to: 'escalated', roles: WRITERS },
    { action: 'close', from: ['assigned'], to: 'closed', roles: WRITERS, requires: ['disposizione', 'motivazione'] },
    { action: 'propose-closure', from: ['assigned'], to: 'closing', roles: WRITERS, requires: ['disposizione', 'motivazione'] },
    { action: 'confirm-closure', from: ['closing'], to: 'closed', roles: CLOSURE_CONFIRMERS, fourEyes: { against: 'chiusura_richiesta_da' } },
    { action: 'reopen', from: ['closing'], to: 'assigned', roles: WRITERS, requires: ['motivazione'] },
  ],
};
