import { createHash } from 'node:crypto';
import type { DocumentSource } from '../../kit/document-sources';

/**
 * Filing packages in the document spine (docs/document-spine.md): the package's XML is kept in the
 * filing's row, so the spine reads it back from there; a package rebuilt since the entry was indexed
 * no longer holds the entry's bytes (null: the entry's copy is gone).
 */
export const filingDocumentSource: DocumentSource = {
  tipo: 'pacchetto_filing',
  label: 'Pacchetto di comunicazione (filing)',
  href: (e) => `/filing/${e.record_id}`,
  read: async (trx, e) => {
    const row = await trx('filings').where({ cod_azienda: e.cod_azienda, id: e.record_id }).first('package_xml') as { package_xml: string | null } | undefined;
    if (!row?.package_xml) return null;
    const bytes = Buffer.from(row.package_xml, 'utf8');
    if (createHash('sha256').update(bytes).digest('hex') !== e.sha256) return null;
    return { bytes, nome_file: e.nome_file, mime: 'application/xml' };
  },
};
