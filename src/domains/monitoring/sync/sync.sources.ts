import type { Knex } from 'knex';
import { validateMonitoringCondition } from '../monitoring.conditions';
import { platformStore } from '../evaluation/store.platform';
import { canonicalJson, type RuleVersionData } from '../evaluation/rule-set';
import { USI_CONTANTI, type ProfiloCliente } from '../engine';
import { createHash } from 'node:crypto';

/**
 * The three kinds of record the engine copies from the platform (docs/monitoring.md, "The engine
 * process and its sync"), each with: the platform's change stamps (a value that changes whenever
 * the record the engine would read changes), how to read the records as the engine reads them,
 * and what a record must satisfy to be copied (a record that does not is a dead letter).
 */
export const SYNC_TIPI = ['cliente', 'regola', 'lista'] as const;
export type SyncTipo = (typeof SYNC_TIPI)[number];

export interface Stamp { chiave: string; fonte: string }

export interface SyncSource<T> {
  /** The platform's stamps, by key order, after `after`, at most `limit`; or of the keys given. */
  stamps(trx: Knex.Transaction, codAzienda: string, opts: { after?: string; limit?: number; keys?: readonly string[] }): Promise<Stamp[]>;
  /** The records as the engine reads them; keys the platform no longer has are absent. */
  read(trx: Knex.Transaction, codAzienda: string, keys: readonly string[]): Promise<Map<string, T>>;
  /** Why the record cannot be copied, or undefined. */
  problem(record: T): string | undefined;
}

export const contentHash = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex').slice(0, 32);

/**
 * A customer's stamp: the row versions (xmin) of the customer, of the relationships it holds or
 * has a role on, and of every subject row of those relationships (their holders are part of the
 * profile). The relationships are found by two index lookups (holder; any role): an `or exists`
 * walked every relationship of the tenant for each customer. Conservative: any write to one of these rows, even one that changes nothing the engine
 * reads, makes the copy stale, never the other way round.
 */
const CUSTOMER_STAMP = `md5(a.xmin::text || '|' || coalesce((
    select string_agg(r.cod_rapporto || ':' || r.xmin::text || ':' || coalesce((
      select string_agg(s.cod_anagrafe || '.' || s.xmin::text, ',' order by s.cod_anagrafe, s.xmin::text)
      from rapporti_soggetti s where s.cod_azienda = r.cod_azienda and s.cod_rapporto = r.cod_rapporto), ''), ';' order by r.cod_rapporto)
    from rapporti r where r.cod_azienda = a.cod_azienda and r.cod_rapporto in (
      select r2.cod_rapporto from rapporti r2 where r2.cod_azienda = a.cod_azienda and r2.cod_anagrafe = a.cod_anagrafe
      union select s2.cod_rapporto from rapporti_soggetti s2 where s2.cod_azienda = a.cod_azienda and s2.cod_anagrafe = a.cod_anagrafe)), ''))`;

const TIPI_SOGGETTO = ['persona_fisica', 'ditta_individuale', 'societa'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const customers: SyncSource<ProfiloCliente> = {
  async stamps(trx, codAzienda, { after, limit, keys }) {
    const q = trx('anagrafe as a').where('a.cod_azienda', codAzienda).select('a.cod_anagrafe as chiave', trx.raw(`${CUSTOMER_STAMP} as fonte`)).orderBy('a.cod_anagrafe');
    if (keys) q.whereIn('a.cod_anagrafe', [...keys]);
    if (after !== undefined) q.andWhere('a.cod_anagrafe', '>', after);
    if (limit) q.limit(limit);
    return q as Promise<Stamp[]>;
  },
  read: (trx, codAzienda, keys) => platformStore.profiles(trx, codAzienda, keys),
  problem(p) {
    if (!TIPI_SOGGETTO.includes(p.tipo_soggetto)) return `tipo_soggetto: valore non ammesso (${String(p.tipo_soggetto)})`;
    if (p.volume_mensile_atteso_eur != null && !(Number.isFinite(p.volume_mensile_atteso_eur) && p.volume_mensile_atteso_eur >= 0)) {
      return `volume_mensile_atteso_eur: non è un importo (${String(p.volume_mensile_atteso_eur)})`;
    }
    if (p.uso_contanti_atteso != null && !(USI_CONTANTI as readonly string[]).includes(p.uso_contanti_atteso)) return 'uso_contanti_atteso: valore non ammesso';
    for (const f of ['data_nascita', 'data_onboarding'] as const) if (p[f] != null && !DAY.test(p[f]!)) return `${f}: data non valida (${p[f]})`;
    return undefined;
  },
};

/** A version in force never changes (a change is a new version): its id is its stamp. */
const rules: SyncSource<RuleVersionData> = {
  async stamps(trx, codAzienda, { after, limit, keys }) {
    const q = trx('monitoring_regole_versioni').where({ cod_azienda: codAzienda, stato: 'attiva' })
      .select(trx.raw('id::text as chiave'), trx.raw('id::text as fonte')).orderByRaw('id::text');
    if (keys) q.whereRaw('id::text = any(?)', [[...keys]]);
    if (after !== undefined) q.andWhereRaw('id::text > ?', [after]);
    if (limit) q.limit(limit);
    return q as Promise<Stamp[]>;
  },
  async read(trx, codAzienda, keys) {
    const wanted = new Set(keys);
    return new Map((await platformStore.activeRules(trx, codAzienda)).filter((v) => wanted.has(v.versione_id)).map((v) => [v.versione_id, v]));
  },
  problem(v) {
    const issues = validateMonitoringCondition(v.condizione);
    if (issues.length) return `condizione: ${issues.map((i) => `${i.path.join('.') || 'radice'}: ${i.message}`).join('; ')}`;
    if (!(Number.isInteger(v.punteggio) && v.punteggio >= 1 && v.punteggio <= 100)) return `punteggio: fuori da 1–100 (${v.punteggio})`;
    return undefined;
  },
};

export interface ListaCopiata { versione: string; voci: string[] }

/** A list's version in force: its id changes whenever the content does. */
const lists: SyncSource<ListaCopiata> = {
  async stamps(trx, codAzienda, { after, limit, keys }) {
    const q = trx('liste_riferimento').where('cod_azienda', codAzienda).whereNotNull('versione_id')
      .select('codice as chiave', trx.raw('versione_id::text as fonte')).orderBy('codice');
    if (keys) q.whereIn('codice', [...keys]);
    if (after !== undefined) q.andWhere('codice', '>', after);
    if (limit) q.limit(limit);
    return q as Promise<Stamp[]>;
  },
  // Read as it is (no reference list brought up to date here: this may be a read-only replica; runSync does that first on the primary).
  async read(trx, codAzienda, keys) {
    const heads = await trx('liste_riferimento').where('cod_azienda', codAzienda).whereIn('codice', [...keys]).whereNotNull('versione_id')
      .select('codice', 'versione_corrente', 'versione_id') as { codice: string; versione_corrente: number; versione_id: string }[];
    const voci = heads.length ? await trx('liste_riferimento_voci').where('cod_azienda', codAzienda).whereIn('versione_id', heads.map((h) => h.versione_id))
      .select('versione_id', 'valore') as { versione_id: string; valore: string }[] : [];
    const byVersion = new Map<string, string[]>();
    for (const v of voci) (byVersion.get(v.versione_id) ?? byVersion.set(v.versione_id, []).get(v.versione_id)!).push(v.valore);
    return new Map(heads.map((h) => [h.codice, { versione: `v${h.versione_corrente}`, voci: (byVersion.get(h.versione_id) ?? []).sort() }]));
  },
  problem(l) {
    const bad = l.voci.findIndex((v) => typeof v !== 'string' || !v.trim());
    return bad >= 0 ? `voci.${bad}: voce vuota` : undefined;
  },
};

export const SYNC_SOURCES: { [K in SyncTipo]: SyncSource<unknown> } = {
  cliente: customers as SyncSource<unknown>, regola: rules as SyncSource<unknown>, lista: lists as SyncSource<unknown>,
};

export const isSyncTipo = (v: unknown): v is SyncTipo => typeof v === 'string' && (SYNC_TIPI as readonly string[]).includes(v);
