import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import { syncSourceDb } from './sync.replica';
import { contentHash, SYNC_SOURCES, SYNC_TIPI, type SyncTipo } from './sync.sources';

/**
 * Reconciliation (docs/monitoring.md, "The engine process and its sync"): for each kind, every
 * record the platform would give the engine now, hashed as the sync hashes it, against the
 * copy's rows. Counts on both sides, a content hash per side (over the sorted keys and their
 * hashes: equal when the copy is exactly the platform), and the ids that differ, bounded: those
 * only the platform has (new since the last sync, or dead letters), only the copy has (removed
 * since), or both with different content. Read in pages, one tenant transaction each.
 */
const PAGE = 500;

export interface ReconcileKind {
  tipo: SyncTipo;
  piattaforma: { record: number; hash: string };
  copia: { record: number; hash: string };
  allineati: number;
  solo_piattaforma: { totale: number; chiavi: string[] };
  solo_copia: { totale: number; chiavi: string[] };
  diversi: { totale: number; chiavi: string[] };
  allineato: boolean;
}

async function reconcileKind(db: Knex, codAzienda: string, actor: string, tipo: SyncTipo, limite: number): Promise<ReconcileKind> {
  const source = SYNC_SOURCES[tipo];
  const platform = new Map<string, string>();
  let after: string | undefined;
  for (;;) {
    const page = await withTenant(syncSourceDb(db), { codAzienda, actor }, async (trx) => {
      const stamps = await source.stamps(trx, codAzienda, { after, limit: PAGE });
      const records = await source.read(trx, codAzienda, stamps.map((s) => s.chiave));
      for (const [k, v] of records) platform.set(k, contentHash(v));
      return stamps;
    });
    if (page.length < PAGE) break;
    after = page.at(-1)!.chiave;
  }
  const copy = new Map((await withTenant(db, { codAzienda, actor }, (trx) => trx('engine_copia').where({ cod_azienda: codAzienda, tipo }).select('chiave', 'hash')) as
    { chiave: string; hash: string }[]).map((r) => [r.chiave, r.hash]));
  const out: ReconcileKind = {
    tipo, piattaforma: { record: platform.size, hash: sideHash(platform) }, copia: { record: copy.size, hash: sideHash(copy) }, allineati: 0,
    solo_piattaforma: { totale: 0, chiavi: [] }, solo_copia: { totale: 0, chiavi: [] }, diversi: { totale: 0, chiavi: [] }, allineato: false,
  };
  const note = (bucket: { totale: number; chiavi: string[] }, k: string) => { bucket.totale++; if (bucket.chiavi.length < limite) bucket.chiavi.push(k); };
  for (const k of [...platform.keys()].sort()) {
    const c = copy.get(k);
    if (c === undefined) note(out.solo_piattaforma, k);
    else if (c !== platform.get(k)) note(out.diversi, k);
    else out.allineati++;
  }
  for (const k of [...copy.keys()].sort()) if (!platform.has(k)) note(out.solo_copia, k);
  out.allineato = out.piattaforma.hash === out.copia.hash;
  return out;
}

function sideHash(m: Map<string, string>): string {
  const h = createHash('sha256');
  for (const k of [...m.keys()].sort()) h.update(`${k}\u0000${m.get(k)}\n`);
  return h.digest('hex').slice(0, 32);
}

export async function reconcile(db: Knex, codAzienda: string, actor: string, q: { tipo?: SyncTipo; limite: number }) {
  const tipi = q.tipo ? [q.tipo] : SYNC_TIPI;
  const per_tipo: ReconcileKind[] = [];
  for (const tipo of tipi) per_tipo.push(await reconcileKind(db, codAzienda, actor, tipo, q.limite));
  return { verificato_at: new Date().toISOString(), allineato: per_tipo.every((k) => k.allineato), per_tipo };
}
