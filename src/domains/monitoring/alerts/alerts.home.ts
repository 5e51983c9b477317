import type { Knex } from 'knex';
import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../../kit/list';
import { STAFF_READ, STAFF_WRITE } from '../../../kit/roles';
import { alertMachine, type AlertStatus } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { alertsList } from './alerts.list';

type AlertFilters = { stato?: AlertStatus; assegnatario?: string; aperti?: boolean };

/** The alerts the list shows for these filters: a tile's number is what its link lists, through the list's indexes. */
const alertsWhere = (trx: Knex.Transaction, tenant: string, filters: AlertFilters) =>
  listBaseQuery(trx, alertsList, tenantScope(tenant), { ...filters, sort: alertsList.defaultSort, limit: 1, offset: 0 } as ListRequest);

/** Who confirms a dismissal: the machine's four-eyes transition says it. */
const CONFIRMERS = alertMachine.transitions.find((t) => t.action === 'confirm-closure')!.roles;

/** The alerts' tiles: mine, the dismissals waiting for my confirmation, the new ones nobody took, the open ones by state. */
export const alertsHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    if (hasAnyRole(user, STAFF_WRITE)) {
      tiles.push({
        area: 'monitoring', kind: 'assigned', label: 'Alert assegnati a te', ...(await tileCount(trx, alertsWhere(trx, tenant, { assegnatario: user.id, aperti: true }))),
        tone: 'blue', href: '/alert?assegnatario=me&aperti=true', hint: 'Alert di monitoraggio ancora da decidere di cui sei assegnatario', empty: 'Nessun alert assegnato a te',
      });
    }
    if (CONFIRMERS.some((r) => (user.roles as readonly string[]).includes(r))) {
      const q = alertsWhere(trx, tenant, { stato: 'closing' }).whereNot('a.chiusura_richiesta_da', user.id);
      tiles.push({
        area: 'monitoring', kind: 'four-eyes', label: 'Chiusure di alert da confermare', ...(await tileCount(trx, q)), tone: 'yellow', href: '/alert?stato=closing',
        hint: 'Archiviazioni proposte da un collega su alert con punteggio alto: serve la conferma di una seconda persona',
        empty: 'Nessuna chiusura di alert in attesa della tua conferma',
      });
    }
    const fresh = await tileCount(trx, alertsWhere(trx, tenant, { stato: 'new' }));
    tiles.push({
      area: 'monitoring', kind: 'due', label: 'Alert nuovi da assegnare', ...fresh, tone: fresh.count > 0 ? 'yellow' : 'green', href: '/alert?stato=new',
      hint: 'Alert generati dal monitoraggio che nessuno ha ancora preso in carico', empty: 'Nessun alert in attesa di assegnazione',
    });
    tiles.push({
      area: 'monitoring', kind: 'overview', label: 'Alert aperti', ...(await tileCount(trx, alertsWhere(trx, tenant, { aperti: true }))), tone: 'blue', href: '/alert?aperti=true',
      hint: 'Alert nuovi, assegnati o in attesa di conferma della chiusura', empty: 'Nessun alert aperto',
    });
    return tiles;
  });
};
