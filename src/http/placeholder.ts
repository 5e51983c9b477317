import type Koa from 'koa';
import type nunjucks from 'nunjucks';
import type { AppState } from './context';
import type { Navigation } from './navigation';
import { render } from './render';

/**
 * The navigation reaches every area of the product; an area whose pages are not built
 * yet answers with a page that says so (not a route: `npm run routes` lists only real ones).
 */
export function areaPlaceholder(views: nunjucks.Environment, nav: Navigation): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    const area = ctx.status === 404 && ctx.body === undefined && ctx.method === 'GET' ? nav.planned(ctx.path) : undefined;
    if (area) {
      if (!ctx.state.user) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
      // Named as the navigation names it, never by its path.
      render(ctx, views, 'errors/area-not-built.njk', { title: `${area.label}: area in preparazione`, area });
    }
  };
}
