import type { Knex } from 'knex';
import { isUuid } from '../../kit/ids';

/** One customer dossier as the document spine indexes it. */
export interface DossierDocument {
  id: string;
  /** SHA-256 of the PDF, hex: the one its signed manifest names. */
  sha256: string;
  /** The customer the dossier is about (its owner record). */
  cod_anagrafe: string;
  nome_file: string;
  mime: 'application/pdf';
  bytes: number;
  stato: string;
  created_at: Date;
}

/**
 * A tenant's customer dossiers as documents, newest first, inside the caller's tenant
 * transaction (row-level security), at most `limit`; `codAnagrafe` narrows to one customer.
 */
export async function listDossierDocuments(trx: Knex.Transaction, opts: { codAnagrafe?: string; limit?: number } = {}): Promise<DossierDocument[]> {
  const rows = await trx('dossiers').modify((b) => { if (opts.codAnagrafe) b.where({ cod_anagrafe: opts.codAnagrafe }); })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(opts.limit ?? 1_000)
    .select('id', 'pdf_sha256', 'cod_anagrafe', 'pdf_bytes', 'stato', 'created_at') as { id: string; pdf_sha256: string; cod_anagrafe: string; pdf_bytes: number; stato: string; created_at: Date }[];
  return rows.map((r) => ({
    id: r.id, sha256: r.pdf_sha256, cod_anagrafe: r.cod_anagrafe, nome_file: `fascicolo-${r.cod_anagrafe}-${r.id.slice(0, 8)}.pdf`,
    mime: 'application/pdf', bytes: r.pdf_bytes, stato: r.stato, created_at: r.created_at,
  }));
}

/** The PDF's bytes of one dossier (inside the caller's tenant transaction), or undefined. The caller audits the download. */
export async function readDossierPdf(trx: Knex.Transaction, id: string): Promise<Buffer | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await trx('dossiers').where({ id }).first('pdf') as { pdf: Buffer } | undefined;
  return row?.pdf;
}
