import type Koa from 'koa';
import type nunjucks from 'nunjucks';
import type { AppState } from './context';

export type Ctx = Koa.ParameterizedContext<AppState>;

export const isHtmx = (ctx: Ctx) => ctx.get('HX-Request') === 'true';

/** Data every template may use: the signed-in user, CSRF token, navigation, flash messages. */
export function baseData(ctx: Ctx) {
  const user = ctx.state.user;
  return {
    currentUser: user,
    currentTenant: ctx.state.tenant,
    csrfToken: ctx.state.csrfToken,
    nav: user && ctx.state.navigation ? ctx.state.navigation.forUser(user.ruoli, ctx.path) : [],
    flash: ctx.state.flash ?? [],
    path: ctx.path,
    query: ctx.query,
  };
}

/**
 * One route serves the full page or, for htmx, only its fragment: `fragment` names the
 * partial template that the page itself includes.
 */
export function render(ctx: Ctx, views: nunjucks.Environment, template: string, data: Record<string, unknown> = {}, opts: { fragment?: string; status?: number } = {}) {
  ctx.vary('HX-Request');
  const name = opts.fragment && isHtmx(ctx) ? opts.fragment : template;
  ctx.type = 'text/html; charset=utf-8';
  ctx.status = opts.status ?? 200;
  ctx.body = views.render(name, { ...baseData(ctx), ...data });
}

export function setFlash(ctx: Ctx, type: 'success' | 'danger' | 'warning' | 'info', message: string) {
  ctx.cookies.set('cp_flash', Buffer.from(JSON.stringify({ type, message })).toString('base64url'), {
    httpOnly: true, sameSite: 'lax', overwrite: true, maxAge: 60_000,
  });
}

/** Post/redirect/get: the next page shows the message once. */
export function redirectWithFlash(ctx: Ctx, url: string, type: 'success' | 'danger' | 'warning' | 'info', message: string) {
  setFlash(ctx, type, message);
  ctx.redirect(url);
}
