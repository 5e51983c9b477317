import { defineList } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import { ESITO_LABELS, PRIORITA_LABELS, STATO_LABELS, TIPO_LABELS } from './cases.labels';
import { casesList } from './cases.list';
import { listCasesQuery } from './cases.schemas';

/**
 * The cases list as the registry knows it: the list itself plus its export (GET /api/export/cases),
 * declared here because the list's query schema is built from the list (one module each way).
 */
export const casesListWithExport = defineList({
  ...casesList,
  export: {
    roles: STAFF_READ,
    query: () => listCasesQuery,
    columns: {
      id: 'Identificativo', titolo: 'Titolo', tipo: 'Tipo', stato: 'Stato', priorita: 'Priorità', cod_anagrafe: 'Codice anagrafe',
      sla_due_at: 'Scadenza SLA', overdue: 'SLA scaduto', esito: 'Esito', opened_by: 'Aperto da', created_at: 'Aperto il', closed_at: 'Chiuso il',
    },
    values: { stato: STATO_LABELS, priorita: PRIORITA_LABELS, tipo: TIPO_LABELS, esito: ESITO_LABELS },
    // The route reads `assegnatario=me` as the caller; so does the export.
    forCaller: (q, me) => ({ ...q, assegnatario: q.assegnatario === 'me' ? me : q.assegnatario }),
  },
});
