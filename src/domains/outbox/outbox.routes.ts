import { withTenant } from '../../db/tenant';
import { apiRoute } from '../../http/api-route';
import type { Ctx } from '../../http/render';
import { adminScope } from '../admin/admin.access';
import type { Role } from '../auth/roles';
import type { RegisterRoutes } from '../index';
import { retryMessage } from './outbox.commands';
import { registerOutboxPages } from './outbox.pages';
import { listOutbox } from './outbox.repo';
import { outboxListQuery, outboxListResponse, outboxMessageSchema } from './outbox.schemas';

/** A tenant's administrator sees and retries the tenant's messages; a superadmin every tenant's. */
export const OUTBOX_OPERATORS: Role[] = ['superadmin', 'admin'];
const tag = 'Messaggi in uscita';

export const registerOutboxRoutes: RegisterRoutes = (router, services) => {
  const { deps, openapi } = services;
  const inScope = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, adminScope(ctx), fn);

  apiRoute(router, openapi, {
    method: 'GET', path: '/api/v1/admin/outbox', summary: 'Messaggi in uscita (stato, tentativi, ultimo errore)', tag, roles: OUTBOX_OPERATORS,
    query: outboxListQuery, response: outboxListResponse,
    handler: (ctx, { query }) => inScope(ctx, (trx) => listOutbox(trx, query)),
  });

  apiRoute(router, openapi, {
    method: 'POST', path: '/api/v1/admin/outbox/:id/retry', summary: 'Riprova la consegna di un messaggio non consegnato', tag, roles: OUTBOX_OPERATORS,
    response: outboxMessageSchema,
    handler: async (ctx, { params }) => {
      const r = await inScope(ctx, (trx) => retryMessage(trx, params.id!, ctx.state.user!.username));
      await deps.dispatch([r.queued]);
      return r.message;
    },
  });

  registerOutboxPages(router, services);
};
