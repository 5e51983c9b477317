import { defineList } from '../../kit/list';
import { FILING_READERS } from './filing.access';
import { FILING_STATO_LABELS, FILING_TIPO_LABELS } from './filing.labels';
import { filingsList } from './filing.list';
import { listFilingsQuery } from './filing.schemas';

/**
 * The filings list with its export (GET /api/export/filing, CSV or XLSX). The export reads under the
 * caller's principal, so a reserved filing (made from an SOS) is exported only to `sos` and `co`.
 */
export const filingsListWithExport = defineList({
  ...filingsList,
  export: {
    entity: 'filing',
    roles: FILING_READERS,
    query: () => listFilingsQuery,
    columns: {
      titolo: 'Titolo', tipo: 'Tipo', stato: 'Stato', periodo_riferimento: 'Mese di riferimento', jurisdiction: 'Giurisdizione',
      report_code: 'Codice del report', cod_anagrafe: 'Codice cliente', due_at: 'Scadenza', overdue: 'Scaduta', errori: 'Errori',
      submission_ref: 'Riferimento dell\'invio', fiu_ref_number: 'Protocollo FIU', created_at: 'Creata il', updated_at: 'Aggiornata il',
    },
    values: { stato: FILING_STATO_LABELS, tipo: FILING_TIPO_LABELS },
  },
});
