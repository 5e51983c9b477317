import type { MachineDef } from '../lib/machine';
import { PROCESS_WRITERS } from '../lib/roles';
import { CLOSURE_CONFIRMERS } from './monitoring-alert.machine';

/**
 * KYT alert (docs/processes.md, "KYT alert"): an alert raised on a crypto transfer (origine
 * `kyt`), kept in the same table as the monitoring alerts. It is decided at once: escalated
 * into a case or closed with a disposition, with the same four-eyes rule for dismissing a
 * high-score alert as the monitoring alert (closing, then a second person's confirmation).
 */
export const KYT_ALERT_STATES = ['new', 'closing', 'escalated', 'closed'] as const;
export type KytAlertStatus = (typeof KYT_ALERT_STATES)[number];

export const KYT_ALERT_ACTIONS = ['escalate', 'close', 'propose-closure', 'confirm-closure', 'reopen'] as const;
export type KytAlertAction = (typeof KYT_ALERT_ACTIONS)[number];

const WRITERS = PROCESS_WRITERS;

export const kytAlertMachine: MachineDef<KytAlertStatus, KytAlertAction> = {
  name: 'kyt-alert',
  initial: 'new',
  states: KYT_ALERT_STATES,
  final: ['escalated', 'closed'],
  transitions: [
    { action: 'escalate', from: ['new'], to: 'escalated', roles: WRITERS },
    { action: 'close', from: ['new'], to: 'closed', roles: WRITERS, requires: ['disposizione', 'motivazione'] },
    { action: 'propose-closure', from: ['new'], to: 'closing', roles: WRITERS, requires: ['disposizione', 'motivazione'] },
    { action: 'confirm-closure', from: ['closing'], to: 'closed', roles: CLOSURE_CONFIRMERS, fourEyes: { against: 'chiusura_richiesta_da' } },
    { action: 'reopen', from: ['closing'], to: 'new', roles: WRITERS, requires: ['motivazione'] },
  ],
};
