import type { Aggregato, Condizione } from '../../../kit/conditions';

/**
 * What the templates share. The customer's "own history" is read twice: the half year before the
 * window (the recent normal, which exists for most customers: a ratio against a year of which half
 * is missing would double every figure) and the year before it (which holds last year's season, so
 * a seasonal business in its season is compared with its previous one). A spike is unusual against
 * both.
 */
export const STORICO_GIORNI = 180;
export const STORICO_ANNO = 365;

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

/**
 * The ratio to the customer's own history is above `x` against the half year and against the year,
 * or there is no history to compare with (a new customer, or a new behaviour).
 */
export const aboveOwnHistory = (a: Omit<Aggregato, 'fn' | 'storico_giorni'>, x: number): Condizione => ({ tutti: [STORICO_GIORNI, STORICO_ANNO].map((storico_giorni) =>
  ({ non: { aggregato: { ...a, fn: 'ratio_history', storico_giorni }, op: 'lte', valore: x } } as Condizione)) });

/**
 * Unless the customer's peers (same kind of subject and ATECO section) do the same: below `x` times
 * their median. Missing peers (a group too small) exclude nothing.
 */
export const unlikePeers = (a: Omit<Aggregato, 'fn'>, x: number): Condizione =>
  ({ non: { aggregato: { ...a, fn: 'peer_ratio' }, op: 'lt', valore: x } });
