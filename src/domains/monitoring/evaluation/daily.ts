import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { replayCustomer, type Decisione, type Giorno, type MovimentoMonitorato } from '../engine';
import { addDays } from '../engine/engine.dates';
import { decidedEvents } from './decisions.repo';
import { recordEvaluations, type Evaluated } from './record';
import { engineInstance } from './realtime';
import { ruleSetFor } from './rule-set';
import type { MonitoringStore } from './store';
import { monitoringStore } from './store.current';

/**
 * The daily batch's evaluation of some customers on one closed day (docs/monitoring.md, "Daily
 * batch"): each customer's events of the day in order (event rules: only those real time did not
 * decide, so the batch and real time never decide an event twice) and the close of the day (daily
 * rules, for a customer who moved that day), exactly as a replay of that one day; recorded in the
 * caller's tenant transaction.
 */
export async function evaluateClosedDay(trx: Knex.Transaction, codAzienda: string, giorno: Giorno, cods: readonly string[], opts: { store?: MonitoringStore } = {}) {
  const store = opts.store ?? monitoringStore();
  const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
  const profiles = await store.profiles(trx, codAzienda, cods);
  const histories = await store.histories(trx, codAzienda, cods, addDays(giorno, -set.regole.giorni_storico), giorno);
  const pari = await store.peerStatistics(trx, codAzienda, giorno);
  const decided = await decidedEvents(trx, codAzienda, giorno, cods);
  const byId = new Map<string, MovimentoMonitorato>();
  const items: Evaluated[] = [];
  let eventi = 0;
  for (const cod of cods) {
    const profilo = profiles.get(cod);
    const storico = histories.get(cod) ?? [];
    if (!profilo) continue;
    for (const m of storico) byId.set(m.id, m);
    const started = performance.now();
    const made: Decisione[] = [];
    const r = replayCustomer(set.regole, {
      profilo, storico, dal: giorno, al: giorno, pari: () => pari,
      onDecisione: (d) => { if (d.tipo !== 'evento' || !decided.has(d.movimento_id!)) made.push(d); },
    });
    eventi += r.eventi;
    const each = made.length ? (performance.now() - started) / made.length : 0;
    for (const d of made) {
      const fonte = d.tipo === 'evento' ? (byId.get(d.movimento_id!)?.cod_rapporto.startsWith('kyt:') ? 'kyt' as const : 'movimento' as const) : null;
      items.push({ decisione: d, fonte, durata_ms: each });
    }
  }
  const recorded = await recordEvaluations(trx, codAzienda, items, set, { origine: 'giornaliero', history: byId, motore: engineInstance() });
  return { eventi, decisioni: recorded.decisioni, alertNuovi: recorded.alertNuovi, alertAggiornati: recorded.alertAggiornati };
}
