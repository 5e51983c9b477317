import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendAudit } from '../../audit';
import type { ListeRiferimento } from '../engine';
import { DEFAULT_TENANT_LISTS, hashVoci, referenceLists, type TipoLista } from './lists.reference';

/**
 * The tenant's named lists (liste_riferimento): the reference lists, brought up to date as a new
 * version whenever their content changed, and the tenant's own. Every read of the lists an
 * evaluation makes goes through loadLists, which answers from what this process already read
 * when no list has a new version (one small query per evaluation).
 */

export interface ListRow {
  id: string; cod_azienda: string; codice: string; nome: string; tipo: TipoLista; origine: 'riferimento' | 'tenant'; descrizione: string;
  fonte: string | null; versione_corrente: number; versione_id: string | null; voci: number; created_by: string; created_at: Date; updated_at: Date;
}

export const SYSTEM_ACTOR = 'sistema:monitoraggio';

async function writeVersion(trx: Knex.Transaction, p: {
  codAzienda: string; list: Pick<ListRow, 'id' | 'codice' | 'versione_corrente'>; voci: readonly { valore: string; nota?: string | null }[];
  fonte: string | null; motivazione: string | null; actor: string;
}) {
  const versione = p.list.versione_corrente + 1;
  const id = randomUUID();
  const values = p.voci.map((v) => v.valore);
  const hash = hashVoci(values);
  await trx('liste_riferimento_versioni').insert({
    id, cod_azienda: p.codAzienda, lista_id: p.list.id, versione, hash, voci: values.length, fonte: p.fonte, motivazione: p.motivazione, created_by: p.actor,
  });
  for (let i = 0; i < p.voci.length; i += 1_000) {
    await trx('liste_riferimento_voci').insert(p.voci.slice(i, i + 1_000).map((v) => ({ cod_azienda: p.codAzienda, versione_id: id, valore: v.valore, nota: v.nota ?? null })));
  }
  await trx('liste_riferimento').where({ id: p.list.id })
    .update({ versione_corrente: versione, versione_id: id, voci: values.length, ...(p.fonte ? { fonte: p.fonte } : {}), updated_at: new Date() });
  await appendAudit(trx, {
    codAzienda: p.codAzienda, actor: p.actor, action: 'monitoring.list.version', entityType: 'monitoring_list', entityId: p.list.id,
    data: { codice: p.list.codice, versione, voci: values.length, hash, ...(p.motivazione ? { motivazione: p.motivazione } : {}) },
  });
  return { versione, id, hash };
}

export async function insertList(trx: Knex.Transaction, p: {
  codAzienda: string; codice: string; nome: string; tipo: TipoLista; origine: ListRow['origine']; descrizione?: string; fonte?: string | null; actor: string;
}): Promise<ListRow> {
  const [row] = await trx('liste_riferimento').insert({
    id: randomUUID(), cod_azienda: p.codAzienda, codice: p.codice, nome: p.nome, tipo: p.tipo, origine: p.origine,
    descrizione: p.descrizione ?? '', fonte: p.fonte ?? null, created_by: p.actor,
  }).returning('*') as ListRow[];
  await appendAudit(trx, {
    codAzienda: p.codAzienda, actor: p.actor, action: 'monitoring.list.create', entityType: 'monitoring_list', entityId: row!.id,
    data: { codice: p.codice, nome: p.nome, tipo: p.tipo, origine: p.origine },
  });
  return row!;
}

/** Appends a version of a list with these entries (already normalised and distinct). */
export const appendListVersion = writeVersion;

/** What this process last made sure of, per tenant: the reference hashes it found in force. */
const ensured = new Map<string, string>();

/**
 * Brings the tenant's copies of the reference lists up to date (a new version of each whose
 * content changed) and creates the default tenant lists. Writers of one tenant queue on an
 * advisory lock and look again, so two evaluations at once write one version.
 */
/**
 * What the reference lists hold now, as one string (from memory; the screening lists' version is
 * asked again at most every few seconds): a cache of the tenant's lists built under another key
 * is stale, and loadLists writes the new versions.
 */
export async function referenceListsKey(trx: Knex.Transaction): Promise<string> {
  return (await referenceLists(trx)).map((r) => `${r.codice}=${r.hash}`).join(',');
}

export async function ensureReferenceLists(trx: Knex.Transaction, codAzienda: string): Promise<void> {
  const refs = await referenceLists(trx);
  const key = refs.map((r) => `${r.codice}=${r.hash}`).join(',');
  if (ensured.get(codAzienda) === key) return;
  const current = async () => new Map((await trx('liste_riferimento as l')
    .leftJoin('liste_riferimento_versioni as v', 'v.id', 'l.versione_id')
    .where('l.cod_azienda', codAzienda).select('l.id', 'l.codice', 'l.origine', 'l.versione_corrente', 'v.hash') as
    { id: string; codice: string; origine: string; versione_corrente: number; hash: string | null }[]).map((r) => [r.codice, r]));
  const stale = (have: Awaited<ReturnType<typeof current>>) =>
    refs.some((r) => have.get(r.codice)?.hash !== r.hash) || DEFAULT_TENANT_LISTS.some((d) => !have.has(d.codice));
  if (stale(await current())) {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`monitoring-liste|${codAzienda}`]);
    const have = await current();
    for (const r of refs) {
      const row = have.get(r.codice);
      if (row && row.origine !== 'riferimento') continue;
      if (row?.hash === r.hash) continue;
      const list = row ?? await insertList(trx, { codAzienda, codice: r.codice, nome: r.nome, tipo: r.tipo, origine: 'riferimento', fonte: r.fonte, actor: SYSTEM_ACTOR });
      await writeVersion(trx, {
        codAzienda, list: { id: list.id, codice: r.codice, versione_corrente: row?.versione_corrente ?? 0 }, voci: r.voci.map((valore) => ({ valore })),
        fonte: r.fonte, motivazione: row ? 'Contenuto di riferimento aggiornato' : 'Prima copia dei dati di riferimento', actor: SYSTEM_ACTOR,
      });
    }
    for (const d of DEFAULT_TENANT_LISTS) {
      if (have.has(d.codice)) continue;
      const list = await insertList(trx, { codAzienda, ...d, origine: 'tenant', actor: SYSTEM_ACTOR });
      await writeVersion(trx, { codAzienda, list: { id: list.id, codice: d.codice, versione_corrente: 0 }, voci: [], fonte: null, motivazione: 'Lista interna iniziale (vuota)', actor: SYSTEM_ACTOR });
    }
    // Remembered once committed: a rolled back transaction leaves the next one to write them.
    trx.executionPromise.then(() => ensured.set(codAzienda, key), () => undefined);
    return;
  }
  ensured.set(codAzienda, key);
}

interface CachedList { versione_id: string; versione: string; voci: ReadonlySet<string> }
const loaded = new Map<string, Map<string, CachedList>>();

/**
 * The named lists an evaluation reads, each with the version the decision records (`v<n>`).
 * Entries are read again only for a list whose version changed since this process last read it.
 */
export async function loadLists(trx: Knex.Transaction, codAzienda: string): Promise<ListeRiferimento> {
  await ensureReferenceLists(trx, codAzienda);
  const heads = await trx('liste_riferimento').where({ cod_azienda: codAzienda }).whereNotNull('versione_id')
    .select('codice', 'versione_corrente', 'versione_id') as { codice: string; versione_corrente: number; versione_id: string }[];
  const cache = loaded.get(codAzienda) ?? new Map<string, CachedList>();
  const missing = heads.filter((h) => cache.get(h.codice)?.versione_id !== h.versione_id);
  if (missing.length) {
    const rows = await trx('liste_riferimento_voci').where('cod_azienda', codAzienda).whereIn('versione_id', missing.map((h) => h.versione_id))
      .select('versione_id', 'valore') as { versione_id: string; valore: string }[];
    const byVersion = new Map<string, string[]>();
    for (const r of rows) (byVersion.get(r.versione_id) ?? byVersion.set(r.versione_id, []).get(r.versione_id)!).push(r.valore);
    for (const h of missing) cache.set(h.codice, { versione_id: h.versione_id, versione: `v${h.versione_corrente}`, voci: new Set(byVersion.get(h.versione_id) ?? []) });
  }
  const present = new Set(heads.map((h) => h.codice));
  for (const k of cache.keys()) if (!present.has(k)) cache.delete(k);
  loaded.set(codAzienda, cache);
  const out: Record<string, { versione: string; voci: ReadonlySet<string> }> = {};
  for (const [codice, l] of cache) out[codice] = { versione: l.versione, voci: l.voci };
  return out;
}

export async function findList(trx: Knex.Transaction, codAzienda: string, codice: string, forUpdate = false): Promise<ListRow | undefined> {
  const q = trx('liste_riferimento').where({ cod_azienda: codAzienda, codice }).first();
  return (forUpdate ? q.forUpdate() : q) as Promise<ListRow | undefined>;
}

export async function listEntries(trx: Knex.Transaction, codAzienda: string, versioneId: string) {
  return trx('liste_riferimento_voci').where({ cod_azienda: codAzienda, versione_id: versioneId }).orderBy('valore')
    .select('valore', 'nota') as Promise<{ valore: string; nota: string | null }[]>;
}

export async function listVersions(trx: Knex.Transaction, codAzienda: string, listaId: string) {
  return trx('liste_riferimento_versioni').where({ cod_azienda: codAzienda, lista_id: listaId }).orderBy('versione', 'desc')
    .select('id', 'versione', 'hash', 'voci', 'fonte', 'motivazione', 'created_by', 'created_at');
}

export async function allLists(trx: Knex.Transaction, codAzienda: string): Promise<ListRow[]> {
  await ensureReferenceLists(trx, codAzienda);
  return trx('liste_riferimento').where({ cod_azienda: codAzienda }).orderBy([{ column: 'origine' }, { column: 'codice' }]) as Promise<ListRow[]>;
}
