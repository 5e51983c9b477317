import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS } from '../monitoring.access';
import { createTenantList, listDetail, updateTenantList } from './lists.commands';
import { allLists } from './lists.repo';
import { createListSchema, listDetailResponse, listsResponse, updateListSchema } from './lists.schemas';

const tag = 'Monitoraggio: liste di riferimento';

/** JSON API of the named lists monitoring rules read: the reference lists (read-only) and the tenant's own. */
export const registerListRoutes: RegisterRoutes = (router, { deps }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.api({
    method: 'GET', path: '/api/monitoring/liste', summary: 'Le liste che le regole leggono (riferimento e interne), ciascuna con la versione in vigore', tag,
    access: staff(STAFF_READ), response: listsResponse,
    handler: async (ctx) => ({ items: await tx(ctx, (trx) => allLists(trx, tenantOf(ctx))) }),
  });

  router.api({
    method: 'GET', path: '/api/monitoring/liste/:codice', summary: 'Una lista: le voci della versione in vigore e tutte le versioni', tag,
    access: staff(STAFF_READ), response: listDetailResponse,
    handler: (ctx, { params }) => tx(ctx, (trx) => listDetail(trx, tenantOf(ctx), params.codice!)),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/liste', summary: 'Crea una lista interna (paesi, indirizzi cripto, controparti) con la sua prima versione', tag,
    access: staff(RULE_EDITORS), body: createListSchema, response: listDetailResponse, status: 201,
    handler: async (ctx, { body }) => {
      const list = await tx(ctx, (trx) => createTenantList(trx, tenantOf(ctx), ctx.state.user!.username, body));
      ctx.set('Location', `/api/monitoring/liste/${list.codice}`);
      return tx(ctx, (trx) => listDetail(trx, tenantOf(ctx), list.codice));
    },
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/liste/:codice', summary: 'Modifica una lista interna: una nuova versione (tutte le voci, o voci da aggiungere e rimuovere), con il motivo', tag,
    access: staff(RULE_EDITORS), body: updateListSchema, response: listDetailResponse,
    handler: async (ctx, { body, params }) => {
      const list = await tx(ctx, (trx) => updateTenantList(trx, tenantOf(ctx), ctx.state.user!.username, params.codice!, body));
      return tx(ctx, (trx) => listDetail(trx, tenantOf(ctx), list.codice));
    },
  });
};
