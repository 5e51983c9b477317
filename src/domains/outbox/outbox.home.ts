import { hasAnyRole, tileCount, type HomeTiles } from '../../kit/home';
import { listBaseQuery, tenantScope, type ListRequest } from '../../kit/list';
import { outboxList } from './outbox.list';
import { OUTBOX_OPERATORS } from './outbox.routes';

/** For the operators: the tenant's outgoing messages that failed for good (e-mail, OTP), to retry or fix. */
export const outboxHome: HomeTiles = async ({ user, tenant, tx }) => {
  if (!hasAnyRole(user, OUTBOX_OPERATORS)) return [];
  const failed = await tx((trx) => tileCount(trx,
    listBaseQuery(trx, outboxList, tenantScope(tenant), { status: 'failed', sort: outboxList.defaultSort, limit: 1, offset: 0 } as ListRequest)));
  return [{
    area: 'outbox', kind: 'due', label: 'Messaggi in uscita non consegnati', ...failed, tone: failed.count > 0 ? 'red' : 'green',
    href: '/organizzazione/messaggi?status=failed', hint: 'E-mail e codici che non sono partiti dopo tutti i tentativi',
    empty: 'Nessun messaggio non consegnato',
  }];
};
