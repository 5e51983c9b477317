import type { RegisterRoutes } from '../../kit/area';
import { withPlatform, withTenant } from '../../db/tenant';
import { hasRole } from '../../http/auth';
import { render } from '../../http/render';
import { ROLE_LABELS } from '../../kit/roles';
import { staff } from '../../kit/access';

/** The start page after sign-in: who you are, where you act, and the areas you can reach. */
export const registerHomeRoutes: RegisterRoutes = (router, { deps, views }) => {
  router.get('/', staff(), async (ctx) => {
    const user = ctx.state.user!;
    const tenant = ctx.state.tenant ?? null;
    const isSuperadmin = hasRole(user, ['superadmin']);
    const azienda = tenant
      ? await withTenant(deps.db, { codAzienda: tenant, actor: user.username }, (trx) => trx('aziende').where({ cod_azienda: tenant }).first('cod_azienda', 'ragione_sociale'))
      : undefined;
    // Only a superadmin may switch tenant, so only they get the list.
    const aziende = isSuperadmin
      ? await withPlatform(deps.platformDb, user.username, (trx) => trx('aziende').where({ attiva: true }).orderBy('ragione_sociale').limit(500).select('cod_azienda', 'ragione_sociale'))
      : [];
    render(ctx, views, 'auth/home.njk', {
      title: 'Home',
      roles: user.ruoli.map((r) => ROLE_LABELS[r] ?? r),
      sections: ctx.state.navigation!.forUser(user.ruoli, '/'),
      azienda,
      tenant,
      isSuperadmin,
      aziende,
    });
  });
};
