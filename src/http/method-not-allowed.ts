import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppState } from './context';
import { HttpError } from './errors';

/**
 * A path that exists asked with a method it does not have: 405 with `Allow` (problem details
 * on the API), whatever the method, known to the router or not (`@koa/router` answers 501 for
 * those). Decided before anything else looks at the request (CSRF, session), since no handler
 * will run. OPTIONS lists the methods. A path that does not exist stays a 404.
 */
export function methodNotAllowed(router: Router<AppState>): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const match = router.match(ctx.path, ctx.method);
    const allowed = match.route ? [] : [...new Set(match.path.flatMap((layer) => layer.methods))];
    if (!allowed.length) return next();
    allowed.push('OPTIONS');
    ctx.set('Allow', allowed.join(', '));
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'Metodo non consentito', `Il metodo ${ctx.method} non è consentito su questo indirizzo (consentiti: ${allowed.join(', ')})`, { allowed_methods: allowed });
  };
}
