import type { Knex } from 'knex';
import { hasAnyRole, tileCount, type HomeTile, type HomeTiles } from '../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../kit/list';
import { STAFF_READ } from '../../kit/roles';
import { onboardingMachine, type OnboardingStatus } from '../../../workflows/onboarding/onboarding.machine';
import { onboardingCasesList } from './onboarding-admin.list';

const BASE = '/admin/onboarding/cases';

/** The onboarding cases the reviewers' list shows in this state, counted (the tile's link lists the same rows). */
const casesIn = (trx: Knex.Transaction, tenant: string, stato: OnboardingStatus) =>
  listBaseQuery(trx, onboardingCasesList, tenantScope(tenant), { stato, sort: onboardingCasesList.defaultSort, limit: 1, offset: 0 } as ListRequest);

const may = (roles: readonly string[], action: string) =>
  (onboardingMachine.transitions.find((t) => t.action === action)!.roles as readonly string[]).some((r) => roles.includes(r));

/** The onboarding tiles: second approvals waiting for me, cases to review, cases waiting for the applicant. */
export const onboardingHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, STAFF_READ)) return [];
  return tx(async (trx) => {
    const tiles: HomeTile[] = [];
    if (may(user.roles, 'complete-approval')) {
      const q = casesIn(trx, tenant, 'pending_second_approval').where((w) => w.whereNull('approved_by').orWhereNot('approved_by', user.id));
      tiles.push({
        area: 'onboarding', kind: 'four-eyes', label: 'Approvazioni di onboarding da confermare', ...(await tileCount(trx, q)), tone: 'yellow',
        href: `${BASE}?stato=pending_second_approval`, hint: 'Pratiche approvate da un collega che richiedono una seconda approvazione',
        empty: 'Nessuna approvazione in attesa della tua conferma',
      });
    }
    const inReview = await tileCount(trx, casesIn(trx, tenant, 'in_review'));
    tiles.push({
      area: 'onboarding', kind: may(user.roles, 'approve') ? 'due' : 'overview', label: 'Pratiche di onboarding da esaminare', ...inReview,
      tone: inReview.count > 0 ? 'yellow' : 'green', href: `${BASE}?stato=in_review`, hint: 'Pratiche firmate dal cliente, in attesa di una decisione',
      empty: 'Nessuna pratica da esaminare',
    });
    tiles.push({
      area: 'onboarding', kind: 'overview', label: 'Pratiche in attesa del cliente', ...(await tileCount(trx, casesIn(trx, tenant, 'info_requested'))),
      tone: 'azure', href: `${BASE}?stato=info_requested`, hint: 'Informazioni richieste al cliente, non ancora ricevute',
    });
    return tiles;
  });
};
