import type { Knex } from 'knex';
import type { SpineEntryRef } from '../../kit/document-sources';
import { runList, tenantScope } from '../../kit/list';
import { isoDate, todayInRome } from '../records';
import { RETENTION, spineList } from './spine.list';
import { retentionOf, type Retention } from './spine.retention';
import type { ListSpineQuery } from './spine.schemas';

/** A spine entry as the API answers it. */
export interface SpineRow extends SpineEntryRef {
  dimensione: number;
  descrizione: string;
  archivio: 'store' | 'record';
  blocco_legale: boolean;
  blocco_motivo: string | null;
  blocco_by: string | null;
  blocco_at: string | null;
  conserva_fino: string | null;
  created_by: string;
  created_at: string;
}

const instant = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));

export function spineRow(r: Record<string, unknown>): SpineRow {
  return {
    ...(r as unknown as SpineRow), dimensione: Number(r.dimensione), conserva_fino: isoDate(r.conserva_fino),
    blocco_at: instant(r.blocco_at), created_at: instant(r.created_at)!,
  };
}

export async function listSpine(trx: Knex.Transaction, codAzienda: string, query: ListSpineQuery) {
  const page = await runList<Record<string, unknown>>(trx, spineList, tenantScope(codAzienda), query);
  return { ...page, items: page.items.map(spineRow) };
}

/** The tenant's entry by its code, as the caller's principal may see it (undefined: not found, another tenant's, or an SOS document one may not see). */
export async function findSpine(trx: Knex.Transaction, codAzienda: string, codSpine: string, opts: { forUpdate?: boolean } = {}): Promise<SpineRow | undefined> {
  if (!/^SPN-\d{1,18}$/i.test(codSpine)) return undefined;
  const q = trx('documenti_spine').where({ cod_azienda: codAzienda, cod_spine: codSpine.toUpperCase() }).first('*', trx.raw(`${RETENTION} as conserva_fino`));
  if (opts.forUpdate) q.forUpdate();
  const r = await q as Record<string, unknown> | undefined;
  return r ? spineRow(r) : undefined;
}

/** Every entry holding the same bytes: the records that cite this document, wherever they keep it. */
export async function citationsOf(trx: Knex.Transaction, codAzienda: string, sha256: string) {
  const rows = await trx('documenti_spine').where({ cod_azienda: codAzienda, sha256 })
    .select('cod_spine', 'tipo', 'record_tipo', 'record_id', 'record_codice', 'cod_anagrafe', 'created_at').orderBy('created_at').limit(200) as Record<string, unknown>[];
  return rows.map((r) => ({ ...r, created_at: instant(r.created_at)! })) as { cod_spine: string; tipo: string; record_tipo: string; record_id: string; record_codice: string | null; cod_anagrafe: string | null; created_at: string }[];
}

/** The end dates (null: open) of the customer's relationships: those held, and those with a role on them. */
export async function relationshipEnds(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string): Promise<(string | null)[]> {
  const { rows } = await trx.raw(`select r.cod_rapporto, r.data_chiusura from rapporti r where r.cod_azienda = ? and r.cod_anagrafe = ?
    union
    select r.cod_rapporto, r.data_chiusura from rapporti_soggetti s join rapporti r on r.cod_azienda = s.cod_azienda and r.cod_rapporto = s.cod_rapporto
     where s.cod_azienda = ? and s.cod_anagrafe = ?`, [codAzienda, codAnagrafe, codAzienda, codAnagrafe]) as { rows: { data_chiusura: unknown }[] };
  return rows.map((r) => isoDate(r.data_chiusura));
}

/** The entry's retention, explained (the rule of spine.retention.ts on the owner's relationships now). */
export async function retentionFor(trx: Knex.Transaction, row: Pick<SpineRow, 'cod_azienda' | 'cod_anagrafe' | 'created_at'>): Promise<Retention> {
  return retentionOf({
    codAnagrafe: row.cod_anagrafe,
    relationships: row.cod_anagrafe ? await relationshipEnds(trx, row.cod_azienda, row.cod_anagrafe) : [],
    documentDate: todayInRome(new Date(row.created_at)),
  });
}
