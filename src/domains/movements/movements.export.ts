import { defineList } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import { SEGNO_LABELS } from './movements.labels';
import { movementsList } from './movements.list';
import { listMovementsQuery } from './movements.schemas';

/**
 * The movements list with its export (GET /api/export/movimenti): the list's filters (customer,
 * relationship, dates, amounts, cash, sign) and readers, streamed in the list's keyset order.
 * Declared here because the list's query schema is built from the list.
 */
export const movementsListWithExport = defineList({
  ...movementsList,
  export: {
    entity: 'movimenti', roles: STAFF_READ, query: () => listMovementsQuery,
    columns: {
      data_operazione: 'Data operazione', ora_operazione: 'Ora', data_valuta: 'Data valuta', cod_rapporto: 'Rapporto', cod_anagrafe: 'Codice anagrafe',
      cod_anagrafe_esecutore: 'Esecutore', segno: 'Segno',
      importo: 'Importo', valuta: 'Valuta', importo_eur: 'Controvalore in euro', causale: 'Causale', canale: 'Canale', contanti: 'Contanti',
      controparte_nome: 'Controparte', controparte_conto: 'Conto della controparte', controparte_paese: 'Paese della controparte',
      chiave_esterna: 'Chiave esterna', id: 'Identificativo',
    },
    values: { segno: SEGNO_LABELS },
  },
});
