import type { DocumentSource } from '../../kit/document-sources';
import { readDossierPdf } from './dossier.documents';

/**
 * Customer dossiers in the document spine (docs/document-spine.md): the PDF stays in the dossier's
 * own row (`archivio = 'record'`), so the spine reads it back from there.
 */
export const dossierDocumentSource: DocumentSource = {
  tipo: 'dossier',
  label: 'Fascicolo del cliente',
  href: (e) => `/dossier/${e.record_id}`,
  async read(trx, e) {
    const bytes = await readDossierPdf(trx, e.record_id);
    return bytes ? { bytes, nome_file: e.nome_file, mime: 'application/pdf' } : null;
  },
};
