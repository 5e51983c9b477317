import { defineList } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import {
  CLASSE_RISCHIO_LABELS, STATO_ANAGRAFE_LABELS, STATO_DOCUMENTO_LABELS, STATO_RAPPORTO_LABELS, TIPO_DOCUMENTO_LABELS, TIPO_LEGAME_LABELS, TIPO_SOGGETTO_LABELS,
} from './records.labels';
import { customersList, documentsList, linksList, ownersList, relationshipsList } from './records.lists';
import { listCustomersQuery, listDocumentiQuery, listLegamiQuery, listRapportiQuery } from './records.schemas';

/**
 * The records lists as the registry knows them, with their exports (GET /api/export/anagrafe,
 * rapporti, documenti, legami): the same readers and filters as their routes, Italian headers.
 * Declared here because each list's query schema is built from the list.
 */
export const RECORDS_EXPORTED_LISTS = [
  defineList({
    ...customersList,
    export: {
      entity: 'anagrafe', roles: STAFF_READ, query: () => listCustomersQuery,
      columns: {
        cod_anagrafe: 'Codice anagrafe', tipo_soggetto: 'Tipo di soggetto', denominazione: 'Denominazione', nome: 'Nome', cognome: 'Cognome',
        codice_fiscale: 'Codice fiscale', partita_iva: 'Partita IVA', codice_fiscale_estero: 'Codice fiscale estero', paese_fiscale: 'Paese fiscale',
        data_nascita: 'Data di nascita', nazionalita: 'Cittadinanza', paese_residenza: 'Paese di residenza', pep: 'PEP', classe_rischio: 'Classe di rischio',
        punteggio_rischio: 'Punteggio di rischio', stato: 'Stato', versione: 'Versione', created_at: 'Registrato il', updated_at: 'Modificato il',
      },
      values: { tipo_soggetto: TIPO_SOGGETTO_LABELS, classe_rischio: CLASSE_RISCHIO_LABELS, stato: STATO_ANAGRAFE_LABELS },
    },
  }),
  defineList({
    ...relationshipsList,
    export: {
      entity: 'rapporti', roles: STAFF_READ, query: () => listRapportiQuery,
      columns: {
        cod_rapporto: 'Codice rapporto', codice_esterno: 'Codice esterno', cod_anagrafe: 'Intestatario', tipo: 'Tipo', stato: 'Stato',
        data_apertura: 'Data di apertura', data_chiusura: 'Data di chiusura', scopo: 'Scopo', natura: 'Natura', created_at: 'Registrato il',
      },
      values: { stato: STATO_RAPPORTO_LABELS },
    },
  }),
  defineList({
    ...documentsList,
    export: {
      entity: 'documenti', roles: STAFF_READ, query: () => listDocumentiQuery,
      columns: {
        cod_anagrafe: 'Codice anagrafe', tipo: 'Tipo', numero: 'Numero', autorita_rilascio: 'Autorità di rilascio', paese_rilascio: 'Paese di rilascio',
        data_rilascio: 'Data di rilascio', data_scadenza: 'Data di scadenza', stato: 'Stato', created_at: 'Registrato il',
      },
      values: { tipo: TIPO_DOCUMENTO_LABELS, stato: STATO_DOCUMENTO_LABELS },
    },
  }),
  defineList({
    ...linksList,
    export: {
      entity: 'legami', roles: STAFF_READ, query: () => listLegamiQuery,
      columns: {
        cod_anagrafe_da: 'Da (codice anagrafe)', cod_anagrafe_a: 'A (codice anagrafe)', tipo: 'Tipo', percentuale: 'Percentuale', tipo_controllo: 'Tipo di controllo',
        dal: 'Dal', al: 'Al', fonte: 'Fonte', created_at: 'Registrato il',
      },
      values: { tipo: TIPO_LEGAME_LABELS },
    },
  }),
  ownersList,
];
