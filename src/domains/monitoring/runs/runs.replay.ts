import type { Knex } from 'knex';
import { raiseAlerts, type AlertCandidate } from '../alerts/alerts.raise';
import { replayCustomer, type Giorno, type MovimentoMonitorato, type StatistichePari } from '../engine';
import { addDays } from '../engine/engine.dates';
import { toCandidates } from '../evaluation/candidates';
import { ruleSetFor } from '../evaluation/rule-set';
import type { MonitoringStore } from '../evaluation/store';
import { monitoringStore } from '../evaluation/store.current';
import type { RunRow } from './runs.repo';

/**
 * A replay's batch (docs/monitoring.md, "Replay"): the rules in force over the run's period, day by
 * day per customer as the daily batch would have run (the engine's replay), and each hit raised
 * with origine `replay`, dated the evening of the day it would have been raised. The hit keys are
 * the daily batch's and real time's, so a period that was already evaluated raises nothing twice.
 * The peer medians are the ones stored for each day (none before the daily batch first ran).
 */
export async function replayBatch(trx: Knex.Transaction, run: RunRow, cods: readonly string[], opts: { store?: MonitoringStore; loaded?: ReplayInput } = {}) {
  const input = opts.loaded ?? await loadReplayBatch(trx, run, cods, opts);
  const codAzienda = run.cod_azienda;
  const { set, profiles, histories, peers } = input;
  let eventi = 0;
  const candidates: AlertCandidate[] = [];
  for (const cod of cods) {
    const profilo = profiles.get(cod);
    const storico = histories.get(cod) ?? [];
    if (!profilo) continue;
    const r = replayCustomer(set.regole, { profilo, storico, dal: run.dal, al: run.al, pari: (g) => peers(g) });
    eventi += r.eventi;
    const history = new Map<string, MovimentoMonitorato>(storico.map((m) => [m.id, m]));
    candidates.push(...toCandidates(r.candidati, set, { origine: 'replay', history }));
  }
  // The batch's hits in one set-based call: about ten statements for the batch, not seven per hit.
  const raised = candidates.length ? await raiseAlerts(trx, codAzienda, candidates, { actor: 'sistema:monitoraggio:replay' }) : [];
  return { eventi, alertNuovi: raised.filter((x) => x.esito === 'nuovo').length, alertAggiornati: raised.filter((x) => x.esito === 'aggiornato').length };
}

/** What a replay's batch reads before it evaluates: the rules and lists, its customers' profiles and histories, the peer medians. */
export interface ReplayInput {
  cods: readonly string[];
  set: ReturnType<typeof ruleSetFor>;
  profiles: Awaited<ReturnType<MonitoringStore['profiles']>>;
  histories: Awaited<ReturnType<MonitoringStore['histories']>>;
  peers: (g: Giorno) => StatistichePari | undefined;
}

/**
 * The reading lane of a replay's batch. It writes nothing and reads nothing a replay writes (alerts,
 * hits, the run's row), so it can run in a transaction of its own while the batch before it is
 * evaluated and written (runs.lifecycle.ts, runChunk): the batch evaluates the same input either way.
 */
export async function loadReplayBatch(trx: Knex.Transaction, run: RunRow, cods: readonly string[], opts: { store?: MonitoringStore } = {}): Promise<ReplayInput> {
  const store = opts.store ?? monitoringStore();
  const codAzienda = run.cod_azienda;
  const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
  const profiles = await store.profiles(trx, codAzienda, cods);
  const histories = await store.histories(trx, codAzienda, cods, addDays(run.dal, -set.regole.giorni_storico), run.al);
  const peers = await storedPeers(trx, codAzienda, run.dal, run.al);
  return { cods, set, profiles, histories, peers };
}

/** The stored peer medians of a period, each day answering the latest computed on or before it (within a week). */
export async function storedPeers(trx: Knex.Transaction, codAzienda: string, dal: Giorno, al: Giorno): Promise<(g: Giorno) => StatistichePari | undefined> {
  const rows = await trx('monitoring_statistiche_pari').where('cod_azienda', codAzienda)
    .andWhere('giorno', '>=', addDays(dal, -6)).andWhere('giorno', '<=', al).orderBy('giorno')
    .select(trx.raw('giorno::text as giorno'), 'mediane') as { giorno: string; mediane: StatistichePari['mediane'] }[];
  if (!rows.length) return () => undefined;
  return (g) => {
    let found: StatistichePari | undefined;
    for (const r of rows) {
      if (r.giorno > g) break;
      if (r.giorno > addDays(g, -7)) found = { giorno: r.giorno, mediane: r.mediane };
    }
    return found;
  };
}
