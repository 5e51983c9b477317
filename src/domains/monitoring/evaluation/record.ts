import type { Knex } from 'knex';
import { raiseAlerts } from '../alerts/alerts.raise';
import type { Decisione, MovimentoMonitorato } from '../engine';
import { decisionOutcome, toCandidates, type OrigineAlert } from './candidates';
import { encodeRules, newDecisionCode } from './decisions.codec';
import { decisionKey, findDecision, insertDecisions, type DecisionAlert, type EsitoDecisione, type NewDecision, type OrigineDecisione } from './decisions.repo';
import type { RuleSet } from './rule-set';

/**
 * Records what the engine decided, in the caller's tenant transaction: the decisions first (one
 * per event, one per customer and day: a decision already made is kept and this one dropped),
 * then the alerts of the decisions this call made, each hit under its key, then each decision's
 * list of the alerts it raised or added to. Real time and the daily batch record this way.
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
  for (const row of rows) {
    const key = decisionKey(row);
    const code = held.get(key) ?? row.cod_decisione;
    const ours = code === row.cod_decisione;
    let alert: DecisionAlert[] = [];
    if (ours) {
      out.decisioni++;
      // A KYT event's row already names its decision: insertDecisions wrote it in the same statement.
      const origine: OrigineAlert = row.fonte_evento === 'kyt' ? 'kyt' : row.tipo === 'giornaliera' ? 'giornaliero' : p.origine;
      const candidates = toCandidates(row.item.decisione.candidati, set, { origine, history: p.history, now: p.now, codDecisione: code });
      if (candidates.length) {
        const raised = await raiseAlerts(trx, codAzienda, candidates, { actor: p.actor ?? 'sistema:monitoraggio' });
        alert = raised.map((r) => ({ id: r.id, cod_alert: r.cod_alert, esito: r.esito }));
        out.alertNuovi += raised.filter((r) => r.esito === 'nuovo').length;
        out.alertAggiornati += raised.filter((r) => r.esito === 'aggiornato').length;
        await trx('monitoring_decisioni').where({ cod_azienda: codAzienda, cod_decisione: code, giorno: row.giorno }).update({ alert: JSON.stringify(alert) });
      }
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
