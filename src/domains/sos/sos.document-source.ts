import type { DocumentSource } from '../../kit/document-sources';
import { appendSosAudit } from './sos.audit';

/**
 * The SOS attachments in the document spine (docs/document-spine.md). The spine lists them only
 * where the report is visible (its row's restrictive policy defers to sos_reports'), and every read
 * or hold of one is written to the report's own audit chain, never to the tenant's (art. 39).
 */
export const sosDocumentSource: DocumentSource = {
  tipo: 'sos_allegato',
  label: 'Allegato di segnalazione SOS',
  href: (e) => `/sos/${e.record_id}`,
  audit: (trx, e, ev) => appendSosAudit(trx, {
    codAzienda: e.cod_azienda, sosId: e.record_id, actor: ev.actor, action: `sos.document.${ev.action}`,
    data: { cod_spine: e.cod_spine, sha256: e.sha256, nome_file: e.nome_file, ...ev.data },
  }),
};
