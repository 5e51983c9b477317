import type { Knex } from 'knex';
import type { Giorno, StatistichePari } from '../engine';
import { referenceListsKey } from '../lists/lists.repo';
import { ruleSetFor, type RuleSet } from './rule-set';
import type { MonitoringStore } from './store';
import { platformStore } from './store.platform';

/**
 * What an evaluation needs besides the customers (docs/monitoring.md, "Real time"): the prepared
 * rule versions in force, the named lists, the peer medians of a day. They rarely change, so the
 * web process keeps them per tenant under the tenant's freshness stamp
 * (monitoring_contesto_versione: raised by triggers in the same transaction as every change of
 * rules, lists and peer medians) and the reference lists' key. The stamp is read in the first
 * statement of the evaluation's transaction (CONTEXT_STAMP_SQL, beside the tenant's settings) or,
 * when the caller did not, with one small query; a different stamp reads everything again.
 *
 * The stamp is read before what it guards, so a cache is never older than its stamp (a change
 * that commits in between makes the next evaluation read again, nothing worse). A cache is kept
 * only once its transaction committed: what it read may have been written by it (the reference
 * lists brought up to date). Only a store that says `stamped` (the platform's: the stamp follows
 * its tables) is cached; another (the engine's synchronised copy) is read every time.
 */

export interface EvaluationContext {
  set: RuleSet;
  /** The peer medians in force on a day (undefined: none yet). */
  peers(giorno: Giorno): Promise<StatistichePari | undefined>;
}

/** The select-list expression that reads the stamp (its one binding: the tenant), for withTenantFirst. */
export const CONTEXT_STAMP_SQL = 'monitoring_contesto_stamp(?)::text as contesto';

interface Cached { stamp: string; refKey: string; set: RuleSet; peers: Map<Giorno, StatistichePari | undefined> }
const cached = new Map<string, Cached>();

/** Forgets every tenant's cache (tests that change the tables behind the triggers' back). */
export function forgetEvaluationContexts(): void {
  cached.clear();
}

/** The transaction a savepoint (Knex's nested transaction) belongs to. */
function outermost(trx: Knex.Transaction): Knex.Transaction {
  let t = trx;
  while (t.parentTransaction) t = t.parentTransaction;
  return t;
}

async function readStamp(trx: Knex.Transaction, codAzienda: string): Promise<string> {
  const { rows } = await trx.raw<{ rows: { contesto: string }[] }>(`select ${CONTEXT_STAMP_SQL}`, [codAzienda]);
  return rows[0]!.contesto;
}

/** Reads through to the store, memoising the peer medians by day for this call only. */
async function uncached(trx: Knex.Transaction, store: MonitoringStore, codAzienda: string): Promise<EvaluationContext> {
  const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
  const memo = new Map<Giorno, Promise<StatistichePari | undefined>>();
  return { set, peers: (g) => memo.get(g) ?? memo.set(g, store.peerStatistics(trx, codAzienda, g)).get(g)! };
}

export async function evaluationContext(trx: Knex.Transaction, codAzienda: string, opts: { store?: MonitoringStore; stamp?: string } = {}): Promise<EvaluationContext> {
  const store = opts.store ?? platformStore;
  if (!store.stamped) return uncached(trx, store, codAzienda);
  const stamp = opts.stamp ?? await readStamp(trx, codAzienda);
  const refKey = await referenceListsKey(trx);
  let entry = cached.get(codAzienda);
  if (!entry || entry.stamp !== stamp || entry.refKey !== refKey) {
    const set = ruleSetFor(codAzienda, await store.activeRules(trx, codAzienda), await store.lists(trx, codAzienda));
    const fresh: Cached = { stamp, refKey, set, peers: new Map() };
    // An older stamp committing last only costs the next evaluation a read: it sees the newer stamp.
    // Kept once the outermost transaction commits (a savepoint's release is not a commit).
    outermost(trx).executionPromise.then(() => cached.set(codAzienda, fresh), () => undefined);
    entry = fresh;
  }
  const e = entry;
  return {
    set: e.set,
    peers: async (g) => {
      if (e.peers.has(g)) return e.peers.get(g);
      const p = await store.peerStatistics(trx, codAzienda, g);
      e.peers.set(g, p);
      return p;
    },
  };
}
