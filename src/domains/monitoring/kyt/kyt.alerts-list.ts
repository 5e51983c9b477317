import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { kytPageLabels } from './kyt.pages';
import { listKytAlerts } from './kyt.repo';
import { kytAlertListResponse, listKytAlertsQuery } from './kyt.schemas';

/**
 * The KYT alerts' list, as the API (GET /api/kyt/alerts) and the page (/kyt/alerts) serve it: the
 * alerts of origine `kyt`, each with the decision that raised it (the spec names a KYT alert by it:
 * POST /api/kyt/alerts/:codDecisione/escalate). On its own so that it can give way to another
 * implementation of the same two routes in one line of evaluation.area.ts.
 */
export const registerKytAlertList: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.api({
    method: 'GET', path: '/api/kyt/alerts', summary: 'Elenco degli alert KYT, ciascuno con la decisione che lo ha generato', tag: 'KYT',
    access: staff(STAFF_READ), query: listKytAlertsQuery, response: kytAlertListResponse,
    handler: (ctx, { query }) => tx(ctx, (trx) => listKytAlerts(trx, tenantOf(ctx), query)),
  });

  router.get('/kyt/alerts', staff(STAFF_READ), async (ctx) => {
    const parsed = listKytAlertsQuery.safeParse(ctx.query);
    const errors = parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    const q = parsed.success ? parsed.data : listKytAlertsQuery.parse({});
    const result = await tx(ctx, (trx) => listKytAlerts(trx, tenantOf(ctx), q));
    render(ctx, views, 'monitoring/kyt-alerts.njk', { result, query: ctx.query, filters: { stato: typeof ctx.query.stato === 'string' ? ctx.query.stato : '' }, errors, labels: kytPageLabels });
  });
};
