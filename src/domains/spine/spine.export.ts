import { defineList } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import { BLOCCO_LABELS, STORE_SOURCES } from './spine.labels';
import { spineList } from './spine.list';
import { listSpineQuery } from './spine.schemas';

/**
 * The spine's list as the registry knows it, with its export (GET /api/export/documenti-spine). The
 * export never holds an SOS attachment, whoever asks (docs/document-spine.md): a file leaves the
 * platform, and an SOS document's every read belongs in its report's own audit chain. Exports now
 * read under the caller's principal (docs/lists.md), so the rows are left out here, by the query.
 */
export const spineExportedList = defineList({
  ...spineList,
  from: (db) => db('documenti_spine').whereNull('sos_id'),
  export: {
    entity: 'documenti-spine', roles: STAFF_READ, query: () => listSpineQuery,
    columns: {
      cod_spine: 'Codice', tipo: 'Tipo', nome_file: 'Nome del file', mime: 'Formato', dimensione: 'Dimensione (byte)', sha256: 'Impronta SHA-256',
      cod_anagrafe: 'Soggetto', record_tipo: 'Record', record_codice: 'Codice del record', descrizione: 'Descrizione',
      conserva_fino: 'Conservare fino al', blocco_legale: 'Blocco legale', blocco_motivo: 'Motivo del blocco', created_by: 'Inserito da', created_at: 'Inserito il',
    },
    values: {
      tipo: { ...Object.fromEntries(STORE_SOURCES.map((s) => [s.tipo, s.label])), pacchetto_filing: 'Pacchetto di comunicazione (filing)', firma: 'Documento firmato (firma elettronica)' },
      blocco_legale: BLOCCO_LABELS,
    },
  },
});
