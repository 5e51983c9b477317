import type { Knex } from 'knex';
import { defineList, runList, tenantScope } from '../../kit/list';
import type { ImportTipo } from './import-kind';

export const IMPORT_STATI = ['in_coda', 'in_corso', 'completato', 'fallito'] as const;
export type ImportStato = (typeof IMPORT_STATI)[number];

export interface ImportJobRow {
  id: string;
  cod_azienda: string;
  tipo: ImportTipo;
  formato: 'csv' | 'xlsx';
  nome_file: string;
  sha256: string;
  dimensione: number;
  stato: ImportStato;
  righe_lette: number;
  righe_valide: number;
  righe_importate: number;
  righe_gia_presenti: number;
  righe_errate: number;
  prossima_riga: number;
  /** Batches committed beyond prossima_riga while several are written at once: first row -> the row after it. */
  lotti_scritti: Record<string, number>;
  errore: string | null;
  workflow_id: string;
  created_by: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** The tenant's imports, newest first (the upload page's table). */
export const importJobsList = defineList<{ stato: ImportStato; tipo: ImportTipo }>({
  name: 'imports',
  table: 'import_jobs',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: { created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-created_at',
  filters: {
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'completato' },
    // No index of its own: a tenant has few imports, and the tenant's index bounds the read.
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'movimenti' },
  },
  limit: { default: 25, max: 100 },
});

export const listImportJobs = (trx: Knex.Transaction, codAzienda: string, q: { stato?: ImportStato; tipo?: ImportTipo; sort: string; limit: number; offset: number; cursor?: string }) =>
  runList<ImportJobRow>(trx, importJobsList, tenantScope(codAzienda), q);

export const getImportJob = (trx: Knex.Transaction, id: string): Promise<ImportJobRow | undefined> => trx('import_jobs').where({ id }).first();

/** The errors of a job in row order, a page at a time (the report is streamed, never held whole). */
export async function* importErrors(read: <T>(fn: (trx: Knex.Transaction) => Promise<T>) => Promise<T>, importId: string, page = 5_000):
AsyncGenerator<{ riga: number; colonna: string; messaggio: string }[]> {
  let after: [number, string] = [0, ''];
  for (;;) {
    const rows = await read((trx) => trx('import_errori').where({ import_id: importId })
      .whereRaw('(riga, colonna) > (?, ?)', after).orderBy([{ column: 'riga' }, { column: 'colonna' }]).limit(page)
      .select<{ riga: number; colonna: string; messaggio: string }[]>('riga', 'colonna', 'messaggio'));
    if (rows.length) yield rows;
    if (rows.length < page) return;
    const last = rows[rows.length - 1]!;
    after = [last.riga, last.colonna];
  }
}
