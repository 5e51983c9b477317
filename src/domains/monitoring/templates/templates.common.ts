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
 * savings), not new money from a third party. Sources name them differently, by channel or by
 * causale: the defaults cover the usual codes (a tenant whose records name them otherwise edits
 * the lists in the rule). Matching is exact and case-insensitive. A bare "giroconto" is not among
 * them: a third party at the same bank sends one too, and laundered money arrives so.
 */
export const CANALI_FONDI_PROPRI: readonly string[] = ['interno', 'own_account', 'own-account', 'conti_propri', 'trasferimento_interno'];
export const CAUSALI_FONDI_PROPRI: readonly string[] = [
  'giroconto tra conti propri', 'giroconto conti propri', 'trasferimento tra conti propri', 'own account transfer', 'erogazione mutuo', 'erogazione finanziamento',
];

/** The month's inflows include at least `min` EUR from the customer's own funds (by channel or by causale). */
export const ownFundsInflow = (min: number, finestra_giorni = 30): Condizione => ({ almeno_uno: [
  { aggregato: { fn: 'sum', finestra_giorni, segno: 'entrata', canali: CANALI_FONDI_PROPRI }, op: 'gte', valore: min },
  { aggregato: { fn: 'sum', finestra_giorni, segno: 'entrata', causali: CAUSALI_FONDI_PROPRI }, op: 'gte', valore: min },
] });

/**
 * The ratio to the customer's own history is above `x` against the half year, against the year and
 * (unless `stagione` is false) against the same days one year earlier: last year's season, so a
 * seasonal business in its season, a shop in its December, is compared with the same weeks of the
 * year before, not with the average its quiet months bring down. A missing history counts as
 * unusual (a new customer, a new behaviour, a history that does not reach back a year).
 */
export const aboveOwnHistory = (a: Omit<Aggregato, 'fn' | 'storico_giorni'>, x: number, stagione = true): Condizione => ({ tutti: [
  ...[STORICO_GIORNI, STORICO_ANNO].map((storico_giorni) => ({ non: { aggregato: { ...a, fn: 'ratio_history', storico_giorni }, op: 'lte', valore: x } } as Condizione)),
  ...(stagione ? [aboveLastYear(a, x)] : []),
] });

/**
 * Above `x` times the same days one year earlier, or nothing then to compare with. A window shorter
 * than four weeks is compared with the four weeks centred on it a year back (one week is too few
 * operations to be a normal); a longer one with exactly its days (a season's first weeks against
 * last year's first weeks, not against the weeks around them, half of which were off season).
 */
export const aboveLastYear = (a: Omit<Aggregato, 'fn' | 'storico_giorni'>, x: number): Condizione =>
  ({ non: { aggregato: { ...a, fn: 'ratio_last_year', storico_giorni: Math.max(28, a.finestra_giorni) }, op: 'lte', valore: x } });

/**
 * Unless the customer's peers (same kind of subject and ATECO section) do the same: below `x` times
 * their median. Missing peers (a group too small) exclude nothing.
 */
export const unlikePeers = (a: Omit<Aggregato, 'fn'>, x: number): Condizione =>
  ({ non: { aggregato: { ...a, fn: 'peer_ratio' }, op: 'lt', valore: x } });
