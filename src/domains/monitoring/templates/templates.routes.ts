import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { templatesOfTenant } from './templates.repo';
import { templateListResponse } from './templates.schemas';

/** The standard templates as the API shows them (a rule is created from one by POST /api/monitoring/rules with `modello`). */
export const registerTemplateRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/monitoring/templates',
    summary: 'I modelli standard delle tipologie di monitoraggio, ciascuno con i suoi campi e la regola del tenant creata da esso (se c\'è)',
    tag: 'Monitoraggio', access: staff(STAFF_READ), response: templateListResponse,
    handler: async (ctx) => ({
      items: await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => templatesOfTenant(trx, tenantOf(ctx))),
    }),
  });
};
