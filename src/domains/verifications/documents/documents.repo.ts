import type { Knex } from 'knex';
import { runList, tenantScope } from '../../../kit/list';
import { isoDate } from '../../records';
import { documentRecordsList } from './documents.list';
import type { DocumentCheck } from './document-checks';
import type { ListDocumentRecordsQuery } from './documents.schemas';

/** A document record as the API answers it: calendar dates as 'YYYY-MM-DD', instants as ISO strings, sizes as numbers. */
export interface DocumentRow {
  id: string; cod_documento: string; versione: number; cod_anagrafe: string; tipo: string; numero: string | null; autorita_rilascio: string | null;
  paese_rilascio: string | null; data_rilascio: string | null; data_scadenza: string | null; stato: string; esito_verifica: 'da_verificare' | 'valido' | 'non_valido';
  verifica: DocumentCheck[]; verificato_by: string | null; verificato_at: string | null; mrz: string | null; sha256: string | null; nome_file: string | null;
  mime: string | null; dimensione: number | null; created_by: string; created_at: string; updated_by: string | null; updated_at: string;
}
export interface DocumentVersionRow {
  versione: number; sha256: string; nome_file: string; mime: string; dimensione: number | null; motivo: string | null; dati: Record<string, unknown>; created_by: string; created_at: string;
}

const instant = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));
const size = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A row of `documenti` read by knex (bigint as text, dates as Date) in the API's shape. */
export function documentRow(r: Record<string, unknown>): DocumentRow {
  return {
    ...(r as unknown as DocumentRow),
    data_rilascio: isoDate(r.data_rilascio), data_scadenza: isoDate(r.data_scadenza), dimensione: size(r.dimensione),
    verificato_at: instant(r.verificato_at), created_at: instant(r.created_at)!, updated_at: instant(r.updated_at)!,
    verifica: (r.verifica ?? []) as DocumentCheck[],
  };
}

/** The tenant's document by its code (undefined: not found, or another tenant's). */
export async function findDocument(trx: Knex.Transaction, codAzienda: string, codDocumento: string, opts: { forUpdate?: boolean } = {}): Promise<DocumentRow | undefined> {
  const q = trx('documenti').where({ cod_azienda: codAzienda, cod_documento: codDocumento }).first();
  if (opts.forUpdate) q.forUpdate();
  const r = await q;
  return r ? documentRow(r) : undefined;
}

/** Every version of a document, newest first. */
export async function documentVersions(trx: Knex.Transaction, codAzienda: string, documentoId: string): Promise<DocumentVersionRow[]> {
  const rows = await trx('documenti_versioni').where({ cod_azienda: codAzienda, documento_id: documentoId }).orderBy('versione', 'desc')
    .select('versione', 'sha256', 'nome_file', 'mime', 'dimensione', 'motivo', 'dati', 'created_by', 'created_at');
  return rows.map((v) => ({ ...v, dimensione: size(v.dimensione), created_at: instant(v.created_at)! }));
}

export async function listDocuments(trx: Knex.Transaction, codAzienda: string, query: ListDocumentRecordsQuery) {
  const page = await runList<Record<string, unknown>>(trx, documentRecordsList, tenantScope(codAzienda), query);
  return { ...page, items: page.items.map((r) => documentRow({ verifica: [], ...r })) };
}

/** The holder as the checks need them (names, birth date, tax code). */
export async function documentHolder(trx: Knex.Transaction, codAzienda: string, codAnagrafe: string) {
  const p = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: codAnagrafe })
    .first('cod_anagrafe', 'tipo_soggetto', 'denominazione', 'cognome', 'nome', 'data_nascita', 'codice_fiscale');
  return p ? { ...p, data_nascita: isoDate(p.data_nascita) } as { cod_anagrafe: string; tipo_soggetto: string; denominazione: string; cognome: string | null; nome: string | null; data_nascita: string | null; codice_fiscale: string | null } : undefined;
}
