import type { Knex } from 'knex';
import { getSetting } from '../admin';
import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import { matchMachine, type MatchStatus } from '../../../workflows/screening/screening.machine';
import { matchesList } from './screening.lists';

type MatchFilters = { stato?: MatchStatus; assegnatario?: string; da_confermare?: boolean };

/** The matches the review list shows for these filters, counted (the tile's link lists the same rows). */
const matchesWhere = (trx: Knex.Transaction, tenant: string, filters: MatchFilters) =>
  listBaseQuery(trx, matchesList, tenantScope(tenant), { ...filters, sort: matchesList.defaultSort, limit: 1, offset: 0 } as ListRequest);

const rolesOf = (action: string) => matchMachine.transitions.find((t) => t.action === action)!.roles as readonly string[];
const may = (roles: readonly string[], action: string) => rolesOf(action).some((r) => roles.includes(r));

/** The screening tiles: matches assigned to me, resolutions waiting for my confirmation, matches nobody has taken yet. */
export const screeningHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    if (may(user.roles, 'risolvi')) {
      const mine = await tileCount(trx, matchesWhere(trx, tenant, { assegnatario: user.id, stato: 'assigned', da_confermare: false }));
      tiles.push({
        area: 'screening', kind: 'assigned', label: 'Corrispondenze assegnate a te', ...mine, tone: 'blue',
        href: '/screening?assegnatario=me&stato=assigned&da_confermare=false', hint: 'Corrispondenze con le liste di sanzioni da risolvere',
        empty: 'Nessuna corrispondenza assegnata a te',
      });
    }
    // Without the tenant's four-eyes setting a resolution is final at once: nothing waits for a confirmation.
    if (may(user.roles, 'conferma') && await getSetting(trx, 'screening.four_eyes', tenant)) {
      const q = matchesWhere(trx, tenant, { da_confermare: true }).whereNot('m.resolution_requested_by', user.id);
      tiles.push({
        area: 'screening', kind: 'four-eyes', label: 'Risoluzioni di corrispondenze da confermare', ...(await tileCount(trx, q)), tone: 'yellow',
        href: '/screening?da_confermare=true', hint: 'Risoluzioni proposte da un collega: la conferma spetta a un utente diverso',
        empty: 'Nessuna risoluzione in attesa della tua conferma',
      });
    }
    tiles.push({
      area: 'screening', kind: 'overview', label: 'Corrispondenze da assegnare', ...(await tileCount(trx, matchesWhere(trx, tenant, { stato: 'open' }))),
      tone: 'azure', href: '/screening?stato=open', hint: 'Corrispondenze nuove, non ancora prese in carico',
    });
    return tiles;
  });
};
