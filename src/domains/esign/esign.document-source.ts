import { createHash } from 'node:crypto';
import type { DocumentSource } from '../../kit/document-sources';

/**
 * Signed documents in the document spine (docs/document-spine.md): the ceremony's row keeps the
 * document the signer saw (its SHA-256 fixed when presented), so the spine reads it back from there.
 * The receipt (/esign/receipt/:id) is drawn from the row on each request: it is not a kept document.
 */
export const esignDocumentSource: DocumentSource = {
  tipo: 'firma',
  label: 'Documento firmato (firma elettronica)',
  href: (e) => `/esign/ceremony/${e.record_id}`,
  read: async (trx, e) => {
    const row = await trx('esign_ceremonies').where({ cod_azienda: e.cod_azienda, id: e.record_id }).first('document_content') as { document_content: Buffer } | undefined;
    if (!row) return null;
    if (createHash('sha256').update(row.document_content).digest('hex') !== e.sha256) return null;
    return { bytes: row.document_content, nome_file: e.nome_file, mime: e.mime };
  },
};
