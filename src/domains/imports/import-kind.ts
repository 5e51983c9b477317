import type { Knex } from 'knex';

export const IMPORT_TIPI = ['clienti', 'rapporti', 'movimenti'] as const;
export type ImportTipo = (typeof IMPORT_TIPI)[number];

/** One problem of one row: the column it is about ('' for the row as a whole) and an Italian message. */
export interface RowError { riga: number; colonna: string; messaggio: string }

export interface ImportColumn {
  /** The header as normalised (docs/import.md lists them). */
  name: string;
  required: boolean;
  /** What the column holds, in Italian (the upload page lists the columns). */
  description: string;
  /** The codes the column accepts, written in the file as they are (shown as code, not as prose). */
  values?: readonly string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: Omit<RowError, 'riga'>[] };

export interface WriteContext { codAzienda: string; actor: string; importId: string }
export interface WriteResult { imported: number; skipped: number; errors: RowError[] }

/**
 * One kind of import (customers, relationships, movements): its columns, the check of one row
 * (pure: no database), and the write of a batch of valid rows in the batch's transaction. The
 * write is idempotent: a row already present (same tax id, external code or movement key) is
 * counted as skipped, so re-running a file, or a batch after a crash, adds nothing twice.
 */
export interface ImportKind<T> {
  tipo: ImportTipo;
  columns: readonly ImportColumn[];
  parse(values: Record<string, string>): Parsed<T>;
  write(trx: Knex.Transaction, ctx: WriteContext, rows: { riga: number; value: T }[]): Promise<WriteResult>;
  /**
   * Batches written at once, each in its own transaction and connection (default 1). Only for a
   * kind whose concurrent writes cannot trip over each other: movements claim their keys in one
   * order and lose nothing on a conflict; customers are matched by tax id and stay one at a time.
   */
  writers?: number;
}

/** The required columns the header lacks, as errors of row 1 (the header). */
export const missingColumns = (kind: ImportKind<unknown>, header: readonly string[]): RowError[] =>
  kind.columns.filter((c) => c.required && !header.includes(c.name))
    .map((c) => ({ riga: 1, colonna: c.name, messaggio: `Manca la colonna obbligatoria "${c.name}"` }));
