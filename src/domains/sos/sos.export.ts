import { defineList } from '../../kit/list';
import { appendSosAudit } from './sos.audit';
import { SOS_ORIGINE_LABELS, SOS_STATO_LABELS, SOS_TIPO_LABELS } from './sos.labels';
import { SOS_ACCESS } from './sos.access';
import { sosList } from './sos.list';
import { listSosQuery } from './sos.schemas';

/**
 * The SOS list with its export (GET /api/export/sos, CSV or XLSX). Confidential: each page is read
 * under the caller's principal, so the export holds exactly the reports the caller's list shows,
 * and every exported report gets an `sos.export` event in its own trail; the tenant's audit chain
 * (read by auditors and admins) records nothing.
 */
export const sosListWithExport = defineList({
  ...sosList,
  export: {
    entity: 'sos',
    roles: SOS_ACCESS,
    query: () => listSosQuery,
    columns: {
      cod_segnalazione: 'Codice', tipo: 'Tipo', stato: 'Stato', origine: 'Origine', origine_ref: 'Riferimento di origine',
      cod_anagrafe: 'Codice cliente', oggetto: 'Oggetto', reporter_username: 'Redatta da', valutatore: 'Valutatore',
      valutazione_scadenza: 'Termine di valutazione', escalated: 'Termine scaduto', protocollo_uif: 'Protocollo UIF',
      trasmessa_at: 'Trasmessa il', created_at: 'Creata il', closed_at: 'Chiusa il',
    },
    values: { stato: SOS_STATO_LABELS, tipo: SOS_TIPO_LABELS, origine: SOS_ORIGINE_LABELS },
    forCaller: (q, me) => ({ ...q, reporter: q.reporter === 'me' ? me : q.reporter }),
    confidential: {
      auditPage: async (trx, rows, e) => {
        for (const r of rows) {
          await appendSosAudit(trx, { codAzienda: e.codAzienda, sosId: String(r.id), actor: e.actor, action: 'sos.export', data: { formato: e.formato, elenco: true, filtri: e.filters } });
        }
      },
    },
  },
});
