import type { Knex } from 'knex';
import { raiseAlerts, type AlertCandidate } from '../alerts/alerts.raise';
import type { Decisione, MovimentoMonitorato } from '../engine';
import { decisionOutcome, toCandidates, type OrigineAlert } from './candidates';
import { encodeRules, newDecisionCode } from './decisions.codec';
import { decisionKey, findDecision, insertDecisions, type DecisionAlert, type EsitoDecisione, type NewDecision, type OrigineDecisione } from './decisions.repo';
import type { RuleSet } from './rule-set';

/**
 * Records what the engine decided, in the caller's tenant transaction: the decisions first (one
 * per event, one per customer and day: a decision already made is kept and this one dropped),
 * then the alerts of the decisions this call made, each hit under its key (all of them in one
 * set-based raiseAlerts), then each decision's list of the alerts it raised or added to. Real time and the daily batch record this way.
 */

export interface Evaluated {
  decisione: Decisione;
  fonte: 'movimento' | 'kyt' | null;
  durata_ms: number;
}

/** A decision as the answer to its event (POST /api/movimenti, POST /api/kyt/events). */
export interface DecisionSummary {
  stato: 'valutata';
  cod_decisione: string;
  esito: EsitoDecisione;
  punteggio: number;
  /** The rules that fired (their codes), observing ones included. */
  regole_attivate: string[];
  alert: DecisionAlert[];
  /** false when the event had been decided before (this evaluation was dropped). */
  nuova: boolean;
}

export interface RecordResult {
  /** By decisionKey (`e:<event id>` or `g:<customer>:<day>`). */
  summaries: Map<string, DecisionSummary>;
  alertNuovi: number;
  alertAggiornati: number;
  decisioni: number;
}

export async function recordEvaluations(trx: Knex.Transaction, codAzienda: string, items: readonly Evaluated[], set: RuleSet, p: {
  origine: OrigineDecisione; history: ReadonlyMap<string, MovimentoMonitorato>; motore: string; actor?: string; now?: Date;
}): Promise<RecordResult> {
  const rows: (NewDecision & { item: Evaluated })[] = items.map((item) => {
    const d = item.decisione;
    const { esito, punteggio } = decisionOutcome(d, set);
    return {
      item, cod_decisione: newDecisionCode(d.giorno), giorno: d.giorno, tipo: d.tipo === 'evento' ? 'evento' : 'giornaliera',
      fonte_evento: d.tipo === 'evento' ? item.fonte : null, evento_id: d.tipo === 'evento' ? d.movimento_id : null, cod_anagrafe: d.cod_anagrafe,
      esito, punteggio, regole: encodeRules(d.regole, set.osserva, set.escluse), versioni_regole: d.versioni_regole, versioni_liste: d.versioni_liste,
      alert: [], origine: p.origine, motore: p.motore, durata_ms: Math.round(item.durata_ms * 1000) / 1000,
    };
  });
  const held = await insertDecisions(trx, codAzienda, rows);
  const out: RecordResult = { summaries: new Map(), alertNuovi: 0, alertAggiornati: 0, decisioni: 0 };
  // The hits of every decision this call made, raised in one call (set-based), in the decisions' order.
  const candidates: AlertCandidate[] = [];
  const hitsOf = rows.map((row) => {
    const code = held.get(decisionKey(row)) ?? row.cod_decisione;
    if (code !== row.cod_decisione) return { from: 0, to: 0 };
    const origine: OrigineAlert = row.fonte_evento === 'kyt' ? 'kyt' : row.tipo === 'giornaliera' ? 'giornaliero' : p.origine;
    const from = candidates.length;
    candidates.push(...toCandidates(row.item.decisione.candidati, set, { origine, history: p.history, now: p.now, codDecisione: code }));
    return { from, to: candidates.length };
  });
  const raised = candidates.length ? await raiseAlerts(trx, codAzienda, candidates, { actor: p.actor ?? 'sistema:monitoraggio' }) : [];
  const alertsOf = hitsOf.map((h) => raised.slice(h.from, h.to));
  // Each decision's alerts, in one statement; before any earlier decision is read back below.
  const withAlerts = rows.flatMap((row, i) => (alertsOf[i]!.length
    ? [{ cod: row.cod_decisione, giorno: row.giorno, alert: alertsOf[i]!.map((r): DecisionAlert => ({ id: r.id, cod_alert: r.cod_alert, esito: r.esito })) }] : []));
  if (withAlerts.length) {
    await trx.raw(`update monitoring_decisioni d set alert = v.alert
      from jsonb_to_recordset(?::jsonb) as v(cod text, giorno date, alert jsonb)
     where d.cod_azienda = ? and d.cod_decisione = v.cod and d.giorno = v.giorno`, [JSON.stringify(withAlerts), codAzienda]);
  }
  for (const [i, row] of rows.entries()) {
    const key = decisionKey(row);
    const code = held.get(key) ?? row.cod_decisione;
    const ours = code === row.cod_decisione;
    let alert: DecisionAlert[] = [];
    if (ours) {
      out.decisioni++;
      // A KYT event's row already names its decision: insertDecisions wrote it in the same statement.
      const mine = alertsOf[i]!;
      alert = mine.map((r) => ({ id: r.id, cod_alert: r.cod_alert, esito: r.esito }));
      out.alertNuovi += mine.filter((r) => r.esito === 'nuovo').length;
      out.alertAggiornati += mine.filter((r) => r.esito === 'aggiornato').length;
    }
    if (!ours) {
      // Decided before (the daily batch after real time, or two requests at once): that decision is the answer.
      const before = await findDecision(trx, codAzienda, code);
      if (before) {
        out.summaries.set(key, {
          stato: 'valutata', cod_decisione: code, esito: before.esito, punteggio: before.punteggio, alert: before.alert, nuova: false,
          regole_attivate: before.regole.filter((r) => r.vero).map((r) => r.cod_regola),
        });
        continue;
      }
    }
    out.summaries.set(key, {
      stato: 'valutata', cod_decisione: code, esito: row.esito, punteggio: row.punteggio, alert, nuova: ours,
      regole_attivate: row.item.decisione.regole.filter((r) => r.vero).map((r) => r.cod_regola),
    });
  }
  return out;
}

export type { EsitoDecisione };
