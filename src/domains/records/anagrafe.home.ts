import type { Knex } from 'knex';
import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import { customersList } from './records.lists';

/** Identity documents expiring within this many days are announced on the home (a CDD update is due before expiry). */
const SOON_DAYS = 60;

/** The customers the list shows for these filters, counted through the list's own query and indexes. */
const customersWhere = (trx: Knex.Transaction, tenant: string, filters: { classe_rischio?: string; pep?: boolean; stato?: string }) =>
  listBaseQuery(trx, customersList, tenantScope(tenant), { ...filters, sort: customersList.defaultSort, limit: 1, offset: 0 } as ListRequest);

/**
 * The customer records on the home: the high-risk and PEP customers (what the list shows with the
 * same filters) and the valid documents that expire soon (read through documenti_scadenza; their
 * list is not built yet, so that tile has no link).
 */
export const anagrafeHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const expiring = await tileCount(trx, trx('documenti').where({ cod_azienda: tenant, stato: 'valido' })
      .whereRaw('data_scadenza >= current_date').whereRaw(`data_scadenza <= current_date + ${SOON_DAYS}`));
    const alto = await tileCount(trx, customersWhere(trx, tenant, { classe_rischio: 'alto', stato: 'attivo' }));
    const pep = await tileCount(trx, customersWhere(trx, tenant, { pep: true, stato: 'attivo' }));
    const tiles: HomeTile[] = [
      {
        area: 'records', kind: 'due', label: `Documenti in scadenza entro ${SOON_DAYS} giorni`, ...expiring, tone: expiring.count > 0 ? 'yellow' : 'green',
        hint: 'Documenti d\'identità e societari validi che scadono presto: l\'adeguata verifica va aggiornata prima (elenco in preparazione)',
        empty: 'Nessun documento in scadenza',
      },
      {
        area: 'records', kind: 'overview', label: 'Clienti ad alto rischio', ...alto, tone: 'red', href: '/anagrafe?classe_rischio=alto&stato=attivo',
        hint: 'Soggetti attivi con classe di rischio alta', empty: 'Nessun cliente ad alto rischio',
      },
      {
        area: 'records', kind: 'overview', label: 'Persone politicamente esposte', ...pep, tone: 'azure', href: '/anagrafe?pep=true&stato=attivo',
        hint: 'Soggetti attivi indicati come PEP', empty: 'Nessuna persona politicamente esposta',
      },
    ];
    return tiles;
  });
};
