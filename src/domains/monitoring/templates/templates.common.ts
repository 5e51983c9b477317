import type { Aggregato, Condizione } from '../../../kit/conditions';

/**
 * What the templates share. The customer's "own history" is the half year before the window:
 * long enough to hold a customer's ordinary months, short enough that it exists for most customers
 * (a ratio against a year of which half is missing would double every figure).
 */
export const STORICO_GIORNI = 180;

/**
 * Inflows from the customer's own funds: a transfer from their deposit or securities account, a
 * mortgage the bank disburses. They are the look-alike of a spike (a house or a car bought with
 * savings), not new money from a third party. The channel's code is the tenant's data: a tenant
 * whose records name it otherwise edits it in the rule.
 */
export const CANALI_FONDI_PROPRI: readonly string[] = ['interno'];

/** The month's inflows include at least `min` EUR from the customer's own funds. */
export const ownFundsInflow = (min: number, finestra_giorni = 30): Condizione =>
  ({ aggregato: { fn: 'sum', finestra_giorni, segno: 'entrata', canali: CANALI_FONDI_PROPRI }, op: 'gte', valore: min });

/** The ratio to the customer's own history is above `x`, or there is no history to compare with (new customer or behaviour). */
export const aboveOwnHistory = (a: Omit<Aggregato, 'fn' | 'storico_giorni'>, x: number): Condizione =>
  ({ non: { aggregato: { ...a, fn: 'ratio_history', storico_giorni: STORICO_GIORNI }, op: 'lte', valore: x } });

/**
 * Unless the customer's peers (same kind of subject and ATECO section) do the same: below `x` times
 * their median. Missing peers (a group too small) exclude nothing.
 */
export const unlikePeers = (a: Omit<Aggregato, 'fn'>, x: number): Condizione =>
  ({ non: { aggregato: { ...a, fn: 'peer_ratio' }, op: 'lt', valore: x } });
