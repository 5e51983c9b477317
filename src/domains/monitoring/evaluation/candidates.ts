import type { AlertCandidate } from '../alerts/alerts.raise';
import type { CandidatoAlert, Decisione, Giorno, MovimentoMonitorato } from '../engine';
import type { EsitoDecisione } from './decisions.repo';
import type { RuleSet } from './rule-set';

/**
 * From the engine's answer to what the records keep: a decision's outcome without the rules that
 * only observe, and each hit as a candidate for raiseAlerts with its key. The key is the same
 * whichever path finds the hit (real time, the daily batch, a replay), so a hit recorded once is
 * never recorded again:
 *
 *   event rules  `ev:<event id>:<cod_regola>:<version>`
 *   daily rules  `gg:<day>:<customer>:<relationship or ->:<cod_regola>:<version>`
 */

export type OrigineAlert = 'tempo_reale' | 'giornaliero' | 'replay' | 'kyt';

/** The outcome and score of a decision counting only the rules that may alert. */
export function decisionOutcome(d: Decisione, set: RuleSet): { esito: EsitoDecisione; punteggio: number } {
  let esito: EsitoDecisione = 'nessuna_anomalia';
  let punteggio = 0;
  for (const r of d.regole) {
    if (!r.vero || set.osserva.has(r.versione_id)) continue;
    punteggio += r.punteggio;
    if (r.esito === 'blocco') esito = 'blocco';
    else if (esito === 'nessuna_anomalia') esito = 'alert';
  }
  return { esito, punteggio };
}

export const hitKey = (c: CandidatoAlert) => (c.movimento_id
  ? `ev:${c.movimento_id}:${c.cod_regola}:${c.versione}`
  : `gg:${c.data_rilevazione}:${c.cod_anagrafe}:${c.cod_rapporto ?? '-'}:${c.cod_regola}:${c.versione}`);

/** When an alert found for a day is dated (the day's evening in Rome, whatever the season): the day the daily batch or a replay would have raised it. */
export const eveningOf = (giorno: Giorno) => new Date(`${giorno}T20:00:00Z`);

const isKyt = (m: MovimentoMonitorato | undefined) => !!m?.cod_rapporto.startsWith('kyt:');
const MAX_EVIDENCE_READS = 40;

/**
 * Hits (a decision's, or a replay's) as candidates, the observing rules' left out. `history` resolves the
 * operations behind a hit (their days: the partition each lives in); KYT events are not movements
 * of the records and are named in the evidence instead.
 */
export function toCandidates(candidati: readonly CandidatoAlert[], set: RuleSet, p: {
  origine: OrigineAlert; history: ReadonlyMap<string, MovimentoMonitorato>; now?: Date; codDecisione?: string | null;
}): AlertCandidate[] {
  const out: AlertCandidate[] = [];
  for (const c of candidati) {
    if (set.osserva.has(c.versione_id)) continue;
    const event = c.movimento_id ? p.history.get(c.movimento_id) : undefined;
    const version = set.regole.versioni.find((v) => v.id === c.versione_id);
    // A rule evaluated per relationship on a crypto transfer has no relationship of the records to name.
    const codRapporto = c.cod_rapporto && !c.cod_rapporto.startsWith('kyt:') ? c.cod_rapporto : null;
    if (version?.livello === 'rapporto' && !codRapporto) continue;
    const movimenti = c.movimenti.map((id) => p.history.get(id)).filter((m): m is MovimentoMonitorato => !!m && !isKyt(m))
      .map((m) => ({ id: m.id, data_operazione: m.data_operazione }));
    const kyt = c.movimenti.filter((id) => isKyt(p.history.get(id)));
    out.push({
      codAnagrafe: c.cod_anagrafe, codRapporto, regola: { codRegola: c.cod_regola, versione: c.versione },
      origine: p.origine, punteggio: Math.min(100, c.punteggio),
      dataRilevazione: p.origine === 'tempo_reale' || p.origine === 'kyt' ? (p.now ?? new Date()) : eveningOf(c.data_rilevazione),
      finestraDa: c.finestra.dal, finestraA: c.finestra.al, chiaveRiscontro: hitKey(c), codDecisione: p.codDecisione ?? null,
      evidenza: {
        regola: set.nomi.get(c.versione_id) ?? c.cod_regola, giorno: c.data_rilevazione,
        letti: Object.fromEntries(c.letti.slice(0, MAX_EVIDENCE_READS).map((l) => [l.path, l.valore])),
        ...(event ? { operazione: { id: event.id, data: event.data_operazione, importo_eur: event.importo_eur, segno: event.segno } } : {}),
        ...(kyt.length ? { eventi_kyt: kyt.slice(0, 50) } : {}),
      },
      movimenti,
    });
  }
  return out;
}
