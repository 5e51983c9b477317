import type { RegisterRoutes } from '../../kit/area';
import { withPlatform, withTenant } from '../../db/tenant';
import { hasRole } from '../../http/auth';
import { render, type Ctx } from '../../http/render';
import { collectHomeTiles, groupTiles, type HomeSource } from '../../kit/home';
import { ROLE_LABELS } from '../../kit/roles';
import { staff } from '../../kit/access';

/** An area that does not answer within this time shows "could not be read": the home never waits on one area. */
export const HOME_TILE_TIMEOUT_MS = 3_000;

/**
 * The staff home (also /dashboard, the spec's home): what waits for this user in this tenant,
 * from the tiles every area of the registry declares (AreaDefinition.home). A superadmin also
 * gets the tenant switch.
 */
export const registerHomeRoutes: RegisterRoutes = (router, { deps, views, areas }) => {
  const sources: HomeSource[] = areas.flatMap((a) => (a.home ? [{ name: a.name, label: a.label, home: a.home }] : []));
  const areaLabels = Object.fromEntries(areas.map((a) => [a.name, a.label]));

  const home = async (ctx: Ctx) => {
    const user = ctx.state.user!;
    const tenant = ctx.state.tenant ?? null;
    const isSuperadmin = hasRole(user, ['superadmin']);
    const inTenant = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenant, actor: user.username }, fn);
    const azienda = tenant ? await inTenant((trx) => trx('aziende').where({ cod_azienda: tenant }).first('cod_azienda', 'ragione_sociale')) : undefined;
    // Only a superadmin may switch tenant, so only they get the list.
    const aziende = isSuperadmin
      ? await withPlatform(deps.platformDb, user.username, (trx) => trx('aziende').where({ attiva: true }).orderBy('ragione_sociale').limit(500).select('cod_azienda', 'ragione_sociale'))
      : [];
    const tiles = azienda
      ? await collectHomeTiles(sources, { user: { id: user.cod_utente, username: user.username, roles: user.ruoli }, tenant: azienda.cod_azienda, tx: inTenant }, {
        timeoutMs: HOME_TILE_TIMEOUT_MS,
        onError: (area, err) => deps.logger.warn({ err, area }, 'home tiles of an area could not be read'),
      })
      : [];
    render(ctx, views, 'auth/home.njk', {
      title: 'Home',
      roles: user.ruoli.map((r) => ROLE_LABELS[r] ?? r),
      groups: groupTiles(tiles.map((t) => ({ ...t, areaLabel: areaLabels[t.area] ?? t.area }))),
      azienda,
      tenant,
      isSuperadmin,
      aziende,
    });
  };

  router.get('/', staff(), home);
  router.get('/dashboard', staff(), home);
};
