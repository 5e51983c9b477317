import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Document sources: how an area contributes the documents it keeps to the document spine
 * (docs/document-spine.md) without the spine importing it. An area declares `documentSources` in
 * its definition (src/kit/area.ts), one entry per kind of document, and indexes each document in
 * the transaction that stores it: with `recordSpineDocument` (below), or with a trigger on its
 * table (the areas older than the spine: migrations/20261218000100_create_document_spine.ts).
 *
 * The spine keeps the index (hash, owner, type, size, hold); the source tells it what the kind is
 * called, where its record is shown, and, when the bytes are kept in the record rather than in the
 * content-addressed document store, how to read them back.
 */

/** A spine entry as a source sees it. */
export interface SpineEntryRef {
  id: string;
  cod_spine: string;
  cod_azienda: string;
  tipo: string;
  sorgente_id: string;
  sha256: string;
  nome_file: string;
  mime: string;
  record_tipo: string;
  record_id: string;
  record_codice: string | null;
  cod_anagrafe: string | null;
}

export interface SpineBytes { bytes: Buffer; nome_file: string; mime: string }

export interface DocumentSource {
  /** The spine's `tipo` of this kind of document; unique across the registry. */
  tipo: string;
  /** Italian name of the kind, shown in the list, its filter and the detail page. */
  label: string;
  /** The page of the record that holds the document (null: none to show). */
  href?: (e: SpineEntryRef) => string | null;
  /**
   * The bytes, for a kind whose entries say `archivio = 'record'` (kept in the area's own row); null
   * when the record no longer holds these bytes (a package rebuilt since). Runs in the reader's
   * tenant transaction.
   */
  read?: (trx: Knex.Transaction, e: SpineEntryRef) => Promise<SpineBytes | null>;
  /**
   * Where the reads and changes of these documents are audited instead of the tenant's audit chain,
   * for records whose very existence is confidential (an SOS attachment: the SOS area's own chain,
   * since auditors read the tenant's). Runs in the same transaction as the change.
   */
  audit?: (trx: Knex.Transaction, e: SpineEntryRef, event: { actor: string; action: 'download' | 'hold' | 'release'; data: Record<string, unknown> }) => Promise<void>;
}

/** Every source of the registry, by kind. */
export function documentSourceMap(areas: readonly { documentSources?: DocumentSource[] }[]): Map<string, DocumentSource> {
  return new Map(areas.flatMap((a) => a.documentSources ?? []).map((s) => [s.tipo, s]));
}

export interface NewSpineDocument {
  codAzienda: string;
  tipo: string;
  /** The keeping area's row for this document (unique per kind with the hash). */
  sorgenteId: string;
  sha256: string;
  nome_file: string;
  mime: string;
  dimensione: number;
  /** The owner: a customer, a record, or both; a record is required. */
  cod_anagrafe?: string | null;
  record_tipo: string;
  record_id: string;
  record_codice?: string | null;
  descrizione?: string;
  /** 'store': the bytes are in the document store under the tenant and the hash; 'record': `read` returns them. */
  archivio: 'store' | 'record';
  createdBy: string;
  /** For a document of an SOS report: the spine then shows it only where the report is visible. */
  sosId?: string | null;
}

/**
 * Indexes a document in the spine, in the caller's transaction (the one that stores the document),
 * so a rolled back store leaves no entry. Storing the same document again adds nothing.
 * Returns the entry's code (SPN-…).
 */
export async function recordSpineDocument(trx: Knex.Transaction, d: NewSpineDocument): Promise<string> {
  const id = randomUUID();
  const inserted = await trx('documenti_spine').insert({
    id, cod_azienda: d.codAzienda, tipo: d.tipo, sorgente_id: d.sorgenteId, sha256: d.sha256, nome_file: d.nome_file, mime: d.mime,
    dimensione: d.dimensione, cod_anagrafe: d.cod_anagrafe ?? null, record_tipo: d.record_tipo, record_id: d.record_id,
    record_codice: d.record_codice ?? null, descrizione: d.descrizione ?? '', archivio: d.archivio, sos_id: d.sosId ?? null, created_by: d.createdBy,
  }).onConflict(['cod_azienda', 'tipo', 'sorgente_id', 'sha256']).ignore().returning('cod_spine') as { cod_spine: string }[];
  if (inserted[0]) return inserted[0].cod_spine;
  const existing = await trx('documenti_spine').where({ cod_azienda: d.codAzienda, tipo: d.tipo, sorgente_id: d.sorgenteId, sha256: d.sha256 }).first('cod_spine') as { cod_spine: string };
  return existing.cod_spine;
}
