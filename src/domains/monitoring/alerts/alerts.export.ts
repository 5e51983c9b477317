import { defineList } from '../../../kit/list';
import { STAFF_READ } from '../../../kit/roles';
import { DISPOSIZIONE_LABELS, ORIGINE_LABELS, STATO_LABELS, TIPOLOGIA_LABELS } from '../monitoring.labels';
import { alertsList } from './alerts.list';
import { listAlertsQuery } from './alerts.schemas';

/**
 * The alerts list as the registry knows it: the list plus its export (GET /api/export/alert, CSV or
 * XLSX), declared here because the list's query schema is built from the list.
 */
export const alertsListWithExport = defineList({
  ...alertsList,
  export: {
    entity: 'alert',
    roles: STAFF_READ,
    query: () => listAlertsQuery,
    columns: {
      cod_alert: 'Codice alert', cod_anagrafe: 'Codice cliente', codice_esterno: 'Codice esterno del cliente', cliente_nome: 'Cliente',
      cod_rapporto: 'Rapporto', cod_regola: 'Regola', regola_nome: 'Nome della regola', versione: 'Versione della regola', tipologia: 'Tipologia',
      origine: 'Origine', data_rilevazione: 'Rilevato il', finestra_da: 'Periodo dal', finestra_a: 'Periodo al', punteggio: 'Punteggio',
      riscontri: 'Riscontri', ultimo_riscontro: 'Ultimo riscontro', stato: 'Stato', disposizione: 'Disposizione', cod_caso: 'Caso',
    },
    values: { stato: STATO_LABELS, tipologia: TIPOLOGIA_LABELS, origine: ORIGINE_LABELS, disposizione: DISPOSIZIONE_LABELS },
    // The route reads `assegnatario=me` as the caller; so does the export.
    forCaller: (q, me) => ({ ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario }),
  },
});
