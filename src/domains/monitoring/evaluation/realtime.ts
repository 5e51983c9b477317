import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { withTenantFirst } from '../../../db/tenant';
import { EvaluationLate } from '../../../kit/evaluators';
import { evaluateEvent, type Giorno, type MovimentoMonitorato } from '../engine';
import { addDays } from '../engine/engine.dates';
import { CONTEXT_STAMP_SQL, evaluationContext } from './context';
import { DECISION_PARTITIONS_SQL, decisionKey, notePartitionsEnsured } from './decisions.repo';
import { recordEvaluations, type DecisionSummary, type Evaluated } from './record';
import type { MonitoringStore } from './store';
import { monitoringStore } from './store.current';

/**
 * Real time (docs/monitoring.md, "Evaluation paths"): events just written (movements of a
 * POST /api/movimenti, KYT events) evaluated in the process that received them, against the
 * store, each with the window ending at it; the decisions and their alerts recorded in the
 * caller's tenant transaction: the recording's own, under a savepoint (evaluateInTransaction),
 * or one after its commit (evaluateInOwnTransaction). The answer is each event's decision.
 */

/** Which engine made a decision: ENGINE_INSTANCE, or this host and process. */
export const engineInstance = () => process.env.ENGINE_INSTANCE || `${hostname()}:${process.pid}`;

export interface EventRef {
  fonte: 'movimento' | 'kyt';
  id: string;
  cod_anagrafe: string;
  giorno: Giorno;
}

export async function evaluateEvents(trx: Knex.Transaction, codAzienda: string, events: readonly EventRef[], opts: {
  store?: MonitoringStore; actor?: string; now?: Date;
  /** The tenant's freshness stamp, when the transaction's first statement read it (CONTEXT_STAMP_SQL). */
  stamp?: string;
  /** Epoch ms: past it, once the reads are done, nothing is recorded (EvaluationLate). */
  deadline?: number;
} = {}): Promise<Map<string, DecisionSummary>> {
  const out = new Map<string, DecisionSummary>();
  if (!events.length) return out;
  const store = opts.store ?? monitoringStore();
  const started = performance.now();
  const { set, peers } = await evaluationContext(trx, codAzienda, { store, stamp: opts.stamp });
  const cods = [...new Set(events.map((e) => e.cod_anagrafe))];
  const days = events.map((e) => e.giorno).sort();
  const profiles = await store.profiles(trx, codAzienda, cods);
  // Only the event rules run here: their look-back, not the daily rules' (often a year or two longer).
  const histories = await store.histories(trx, codAzienda, cods, addDays(days[0]!, -set.regole.giorni_storico_evento), days.at(-1)!);
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
  if (opts.deadline !== undefined && Date.now() >= opts.deadline) throw new EvaluationLate();
  const recorded = await recordEvaluations(trx, codAzienda, items, set, {
    origine: 'tempo_reale', history: byId, motore: engineInstance(), actor: opts.actor, now: opts.now,
  });
  for (const e of events) {
    const s = recorded.summaries.get(decisionKey({ tipo: 'evento', evento_id: e.id, cod_anagrafe: e.cod_anagrafe, giorno: e.giorno }));
    if (s) out.set(e.id, s);
  }
  return out;
}

/**
 * Events evaluated in a tenant transaction of their own (after the commit that recorded them): its
 * first statement sets the tenant, reads the freshness stamp of the cached rules, lists and peer
 * medians, and makes sure of the decisions' partitions for the events' days, in one round trip.
 */
export async function evaluateInOwnTransaction(db: Knex, codAzienda: string, actor: string, events: readonly EventRef[], opts: { decisionActor?: string } = {}) {
  if (!events.length) return new Map<string, DecisionSummary>();
  const giorni = [...new Set(events.map((e) => e.giorno))];
  return withTenantFirst<Map<string, DecisionSummary>, { contesto: string }>(db, { codAzienda, actor },
    { sql: `${CONTEXT_STAMP_SQL}, ${DECISION_PARTITIONS_SQL}`, bindings: [codAzienda, giorni] },
    (trx, first) => {
      notePartitionsEnsured(trx, giorni);
      return evaluateEvents(trx, codAzienda, events, { stamp: first.contesto, actor: opts.decisionActor });
    });
}

/**
 * The events' customers locked for the rest of the transaction (sorted: two requests never wait
 * for each other in a circle). In the recording's transaction the evaluation reads the history
 * before the records commit, so two requests at once for one customer would each miss the other's
 * event; with the lock the second reads after the first committed and sees it (each statement of
 * READ COMMITTED reads what committed before it started), as when evaluations ran after the
 * commit. Its one binding: the keys (customerLockKeys).
 */
const CUSTOMER_LOCKS_SQL = '(select count(pg_advisory_xact_lock(hashtextextended(k, 0))) from (select unnest(?::text[]) as k order by 1) l) as clienti';
const customerLockKeys = (codAzienda: string, events: readonly EventRef[]) =>
  [...new Set(events.map((e) => `monitoring-cliente|${codAzienda}|${e.cod_anagrafe}`))].sort();

/**
 * Events evaluated inside the transaction that recorded them (the caller opened a savepoint for
 * it: src/kit/evaluators.ts), so the records and the decisions commit together. The first
 * statement bounds the rest by the deadline (statement_timeout and lock_timeout: a statement
 * still running then is cancelled by the server), locks the events' customers, reads the tenant's
 * freshness stamp and makes sure of the decisions' partitions: one round trip.
 */
export async function evaluateInTransaction(trx: Knex.Transaction, codAzienda: string, events: readonly EventRef[], opts: { deadline: number; decisionActor?: string }) {
  if (!events.length) return new Map<string, DecisionSummary>();
  const left = Math.floor(opts.deadline - Date.now());
  if (left <= 0) throw new EvaluationLate();
  const giorni = [...new Set(events.map((e) => e.giorno))];
  const { rows } = await trx.raw<{ rows: { contesto: string }[] }>(
    `select set_config('statement_timeout', ?, true) as st, set_config('lock_timeout', ?, true) as lt, ${CUSTOMER_LOCKS_SQL}, ${CONTEXT_STAMP_SQL}, ${DECISION_PARTITIONS_SQL}`,
    [String(left), String(left), customerLockKeys(codAzienda, events), codAzienda, giorni]);
  notePartitionsEnsured(trx, giorni);
  return evaluateEvents(trx, codAzienda, events, { stamp: rows[0]!.contesto, actor: opts.decisionActor, deadline: opts.deadline });
}
