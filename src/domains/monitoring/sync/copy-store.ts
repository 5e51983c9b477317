import type { Knex } from 'knex';
import type { ListeRiferimento, ProfiloCliente } from '../engine';
import type { RuleVersionData } from '../evaluation/rule-set';
import type { MonitoringStore } from '../evaluation/store';
import { platformStore } from '../evaluation/store.platform';
import { ensureReferenceLists } from '../lists/lists.repo';
import { SYNC_SOURCES, type ListaCopiata, type SyncTipo } from './sync.sources';

/**
 * The engine's store (docs/monitoring.md, "The engine process and its sync"): profiles, rules and
 * lists from the synchronised copy, movement histories and peer medians from the platform (they
 * are the events themselves, not something to copy). A copied record is used only when its stamp
 * is the platform's stamp now: whatever changed since the last sync, or is missing from the copy
 * (new, or a dead letter), is read from the platform in the same transaction. So an evaluation
 * never reads a stale profile, rule or list; the sync keeps the share read from the platform small.
 * `reads` counts both sides (the health and the pilot report them).
 */
export const copyReads = { copia: 0, piattaforma: 0 };

async function fresh<T>(trx: Knex.Transaction, codAzienda: string, tipo: SyncTipo, keys: readonly string[] | undefined) {
  const stamps = await SYNC_SOURCES[tipo].stamps(trx, codAzienda, keys ? { keys } : {});
  const q = trx('engine_copia').where({ cod_azienda: codAzienda, tipo }).select('chiave', 'fonte', 'contenuto');
  if (keys) q.whereIn('chiave', [...keys]);
  const copy = new Map((await q as { chiave: string; fonte: string; contenuto: T }[]).map((r) => [r.chiave, r]));
  const hit = new Map<string, T>();
  const stale: string[] = [];
  for (const s of stamps) {
    const c = copy.get(s.chiave);
    if (c && c.fonte === s.fonte) hit.set(s.chiave, c.contenuto); else stale.push(s.chiave);
  }
  copyReads.copia += hit.size;
  copyReads.piattaforma += stale.length;
  return { hit, stale };
}

async function profiles(trx: Knex.Transaction, codAzienda: string, cods: readonly string[]): Promise<Map<string, ProfiloCliente>> {
  if (!cods.length) return new Map();
  const { hit, stale } = await fresh<ProfiloCliente>(trx, codAzienda, 'cliente', [...new Set(cods)]);
  if (stale.length) for (const [k, v] of await platformStore.profiles(trx, codAzienda, stale)) hit.set(k, v);
  return hit;
}

async function activeRules(trx: Knex.Transaction, codAzienda: string): Promise<RuleVersionData[]> {
  const { hit, stale } = await fresh<RuleVersionData>(trx, codAzienda, 'regola', undefined);
  if (stale.length) return platformStore.activeRules(trx, codAzienda);
  return [...hit.values()].sort((a, b) => a.cod_regola.localeCompare(b.cod_regola));
}

async function lists(trx: Knex.Transaction, codAzienda: string): Promise<ListeRiferimento> {
  // As the platform's store does: the tenant's reference lists up to date with the reference data (a no-op once this process checked them).
  await ensureReferenceLists(trx, codAzienda);
  const { hit, stale } = await fresh<ListaCopiata>(trx, codAzienda, 'lista', undefined);
  // The platform's lists also bring the reference copies up to date: any list stale, read them all there.
  if (stale.length || !hit.size) return platformStore.lists(trx, codAzienda);
  const out: Record<string, { versione: string; voci: ReadonlySet<string> }> = {};
  for (const [codice, l] of hit) out[codice] = { versione: l.versione, voci: new Set(l.voci) };
  return out;
}

export const engineCopyStore: MonitoringStore = {
  profiles, activeRules, lists,
  histories: (trx, codAzienda, cods, dal, al) => platformStore.histories(trx, codAzienda, cods, dal, al),
  peerStatistics: (trx, codAzienda, giorno) => platformStore.peerStatistics(trx, codAzienda, giorno),
};
