import type { Knex } from 'knex';
import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../kit/list';
import { STAFF_READ, STAFF_WRITE } from '../../kit/roles';
import { caseMachine, type CaseStatus } from '../../../workflows/case/case.machine';
import { casesList } from './cases.list';

type CaseFilters = { stato?: CaseStatus; overdue?: boolean; assegnatario?: string; aperti?: boolean };

/**
 * The cases the list shows for these filters, counted: a tile's number is what its link lists
 * (the same filters, through the list kit), read through the list's indexes.
 */
const casesWhere = (trx: Knex.Transaction, tenant: string, filters: CaseFilters) =>
  listBaseQuery(trx, casesList, tenantScope(tenant), { ...filters, sort: casesList.defaultSort, limit: 1, offset: 0 } as ListRequest);

/** Who may confirm a closure: the machine's four-eyes transition says it, not a list kept here. */
const CONFIRMERS = caseMachine.transitions.find((t) => t.action === 'complete-closure')!.roles;

const OVERVIEW: { stato: CaseStatus; label: string; hint: string; tone: HomeTile['tone'] }[] = [
  { stato: 'open', label: 'Casi aperti', hint: 'Indagini in lavorazione', tone: 'blue' },
  { stato: 'escalated', label: 'Casi escalati', hint: 'Indagini portate al livello superiore', tone: 'yellow' },
  { stato: 'closing', label: 'Casi in chiusura', hint: 'Chiusure richieste, in attesa di conferma', tone: 'azure' },
];

/** The cases' tiles: my cases, the closures waiting for my confirmation, the late ones, the open ones by state. */
export const casesHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    // One query at a time: a transaction is one connection.
    if (hasAnyRole(user, STAFF_WRITE)) {
      const mine = await tileCount(trx, casesWhere(trx, tenant, { assegnatario: user.id, aperti: true }));
      tiles.push({
        area: 'cases', kind: 'assigned', label: 'Casi assegnati a te', ...mine, tone: 'blue', href: '/casi?assegnatario=me&aperti=true&sort=sla_due_at',
        hint: 'Casi non chiusi di cui sei assegnatario, dal più vicino alla scadenza', empty: 'Nessun caso assegnato a te',
      });
    }
    if (CONFIRMERS.some((r) => (user.roles as readonly string[]).includes(r))) {
      const q = casesWhere(trx, tenant, { stato: 'closing' })
        .where((w) => w.whereNull('closing_requested_by').orWhereNot('closing_requested_by', user.id));
      tiles.push({
        area: 'cases', kind: 'four-eyes', label: 'Chiusure di casi da confermare', ...(await tileCount(trx, q)), tone: 'yellow', href: '/casi?stato=closing',
        hint: 'Chiusure richieste da un collega: la conferma spetta a un responsabile diverso da chi l’ha chiesta',
        empty: 'Nessuna chiusura in attesa della tua conferma',
      });
    }
    const late = await tileCount(trx, casesWhere(trx, tenant, { overdue: true, aperti: true }));
    tiles.push({
      area: 'cases', kind: 'due', label: 'Casi oltre la scadenza SLA', ...late, tone: late.count > 0 ? 'red' : 'green',
      href: '/casi?overdue=true&aperti=true&sort=sla_due_at', hint: 'Casi non chiusi che hanno superato il termine di lavorazione',
      empty: 'Nessun caso oltre la scadenza',
    });
    for (const o of OVERVIEW) {
      tiles.push({
        area: 'cases', kind: 'overview', label: o.label, ...(await tileCount(trx, casesWhere(trx, tenant, { stato: o.stato }))), tone: o.tone,
        href: `/casi?stato=${o.stato}`, hint: o.hint,
      });
    }
    return tiles;
  });
};
