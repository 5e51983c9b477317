import { addDays } from './engine.dates';
import type { AlertMonitoraggio, CandidatoAlert, StatoDedup } from './engine.types';

/**
 * Alerts are deduplicated per customer, rule and window (docs/monitoring.md): a hit's window is
 * the rule's dedup window ending on the hit's day, [day − (W − 1), day]; a hit whose window reaches
 * the day of the latest hit of the customer's latest alert of that rule adds to that alert (last
 * hit, hit count, operations) instead of raising another. Hits arrive in time order (real time, the
 * daily batch, a replay), so "overlaps" is "starts on or before the alert's last day".
 */

/** Most operation ids an alert keeps (its first ones; the hits' own lists are complete up to their cap). */
export const MAX_ALERT_MOVEMENTS = 500;

export const alertStateKey = (codAnagrafe: string, codRegola: string) => `${codAnagrafe}\u0000${codRegola}`;

export type Hit = Omit<CandidatoAlert, 'dedup' | 'alert_id'>;

/** Deduplicates one hit against the state (updated in place) and returns it as a candidate. */
export function applyHit(stato: StatoDedup, hit: Hit, dedupDays: number): CandidatoAlert {
  const key = alertStateKey(hit.cod_anagrafe, hit.cod_regola);
  const open = stato.get(key);
  if (open && hit.finestra.dal <= open.al && hit.data_rilevazione >= open.ultimo_hit) {
    open.al = hit.data_rilevazione;
    open.ultimo_hit = hit.data_rilevazione;
    open.hit += 1;
    if (hit.punteggio > open.punteggio_max) open.punteggio_max = hit.punteggio;
    if (hit.esito === 'blocco') open.esito = 'blocco';
    if (open.movimenti.length < MAX_ALERT_MOVEMENTS) {
      const have = new Set(open.movimenti);
      for (const m of hit.movimenti) if (!have.has(m) && open.movimenti.length < MAX_ALERT_MOVEMENTS) { open.movimenti.push(m); have.add(m); }
    }
    return { ...hit, dedup: 'aggiunto', alert_id: open.id };
  }
  const alert: AlertMonitoraggio = {
    id: `${hit.cod_anagrafe}:${hit.cod_regola}:${hit.data_rilevazione}`,
    cod_anagrafe: hit.cod_anagrafe, cod_regola: hit.cod_regola, tipologia: hit.tipologia,
    dal: addDays(hit.data_rilevazione, -(dedupDays - 1)), al: hit.data_rilevazione,
    primo_hit: hit.data_rilevazione, ultimo_hit: hit.data_rilevazione, hit: 1,
    punteggio_max: hit.punteggio, esito: hit.esito, movimenti: hit.movimenti.slice(0, MAX_ALERT_MOVEMENTS),
  };
  stato.set(key, alert);
  return { ...hit, dedup: 'nuovo', alert_id: alert.id };
}
