import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { evaluateEvent, type Giorno, type MovimentoMonitorato, type StatistichePari } from '../engine';
import { addDays } from '../engine/engine.dates';
import { decisionKey } from './decisions.repo';
import { recordEvaluations, type DecisionSummary, type Evaluated } from './record';
import { ruleSetFor } from './rule-set';
import type { MonitoringStore } from './store';
import { monitoringStore } from './store.current';

/**
 * Real time (docs/monitoring.md, "Evaluation paths"): events already committed (movements of a
 * POST /api/movimenti, KYT events) evaluated in the process that received them, against the
 * store, each with the window ending at it; the decisions and their alerts recorded in the
 * caller's tenant transaction. The answer is each event's decision.
 */

/** Which engine made a decision: ENGINE_INSTANCE, or this host and process. */
export const engineInstance = () => process.env.ENGINE_INSTANCE || `${hostname()}:${process.pid}`;

export interface EventRef {
  fonte: 'movimento' | 'kyt';
  id: string;
  cod_anagrafe: string;
  giorno: Giorno;
}

/** Memoised per call: the peer medians in force on a day. */
function peersOf(trx: Knex.Transaction, store: MonitoringStore, codAzienda: string) {
  const memo = new Map<Giorno, Promise<StatistichePari | undefined>>();
  return (g: Giorno) => memo.get(g) ?? memo.set(g, store.peerStatistics(trx, codAzienda, g)).get(g)!;
}

export async function evaluateEvents(trx: Knex.Transaction, codAzienda: string, events: readonly EventRef[], opts: {
  store?: MonitoringStore; actor?: string; now?: Date;
} = {}): Promise<Map<string, DecisionSummary>> {
  const out = new Map<string, DecisionSummary>();
  if (!events.length) return out;
  const store = opts.store ?? monitoringStore();
  const started = performance.now();
  const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
  const cods = [...new Set(events.map((e) => e.cod_anagrafe))];
  const days = events.map((e) => e.giorno).sort();
  const profiles = await store.profiles(trx, codAzienda, cods);
  // Only the event rules run here: their look-back, not the daily rules' (often a year or two longer).
  const histories = await store.histories(trx, codAzienda, cods, addDays(days[0]!, -set.regole.giorni_storico_evento), days.at(-1)!);
  const peers = peersOf(trx, store, codAzienda);
  const loading = (performance.now() - started) / events.length;

  const byId = new Map<string, MovimentoMonitorato>();
  for (const h of histories.values()) for (const m of h) byId.set(m.id, m);
  const items: Evaluated[] = [];
  for (const e of events) {
    const profilo = profiles.get(e.cod_anagrafe);
    const evento = byId.get(e.id);
    // Not visible (another tenant's, or not committed): no decision; the daily batch finds what exists.
    if (!profilo || !evento) continue;
    const t = performance.now();
    const pari = await peers(e.giorno);
    const decisione = evaluateEvent(set.regole, { profilo, storico: histories.get(e.cod_anagrafe)!, evento, pari });
    items.push({ decisione, fonte: e.fonte, durata_ms: loading + performance.now() - t });
  }
  const recorded = await recordEvaluations(trx, codAzienda, items, set, {
    origine: 'tempo_reale', history: byId, motore: engineInstance(), actor: opts.actor, now: opts.now,
  });
  for (const e of events) {
    const s = recorded.summaries.get(decisionKey({ tipo: 'evento', evento_id: e.id, cod_anagrafe: e.cod_anagrafe, giorno: e.giorno }));
    if (s) out.set(e.id, s);
  }
  return out;
}
