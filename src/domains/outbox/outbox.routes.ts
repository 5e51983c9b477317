import type { Knex } from 'knex';
import type { Ctx } from '../../http/render';
import { adminListScope, inAdminScope } from '../admin';
import type { Role } from '../../kit/roles';
import type { RegisterRoutes } from '../../kit/area';
import { retryMessage } from './outbox.commands';
import { registerOutboxPages } from './outbox.pages';
import { listOutbox } from './outbox.repo';
import { outboxListQuery, outboxListResponse, outboxMessageSchema } from './outbox.schemas';
import { staff } from '../../kit/access';

/** A tenant's administrator sees and retries the tenant's messages; a superadmin every tenant's. */
export const OUTBOX_OPERATORS: Role[] = ['superadmin', 'admin'];
const tag = 'Messaggi in uscita';

export const registerOutboxRoutes: RegisterRoutes = (router, services) => {
  const { deps } = services;
  const inScope = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) => inAdminScope(deps, ctx, fn);

  router.api({
    method: 'GET', path: '/api/v1/admin/outbox', summary: 'Messaggi in uscita (stato, tentativi, ultimo errore)', tag, access: staff(OUTBOX_OPERATORS),
    query: outboxListQuery, response: outboxListResponse,
    handler: (ctx, { query }) => inScope(ctx, (trx) => listOutbox(trx, adminListScope(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/v1/admin/outbox/:id/retry', summary: 'Riprova la consegna di un messaggio non consegnato', tag, access: staff(OUTBOX_OPERATORS),
    response: outboxMessageSchema,
    handler: async (ctx, { params }) => {
      const r = await inScope(ctx, (trx) => retryMessage(trx, params.id!, ctx.state.user!.username));
      await deps.dispatch([r.queued]);
      return r.message;
    },
  });

  registerOutboxPages(router, services);
};
