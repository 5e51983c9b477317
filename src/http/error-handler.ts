import type Koa from 'koa';
import type nunjucks from 'nunjucks';
import type { Logger } from '../infra/logger';
import type { AppState } from './context';
import { HttpError, problemBody, serviceUnavailable } from './errors';
import { isUnavailable } from './unavailable';
import { baseData } from './render';

const isApiPath = (path: string) => path.startsWith('/api/') || path === '/api' || path === '/health';

/**
 * The API answers problem details whatever the request carried. /auth/ is the API too, but
 * the sign-in and tenant forms post there: a form gets the page.
 */
export function wantsProblemJson(ctx: Koa.Context): boolean {
  if (isApiPath(ctx.path)) return true;
  if (ctx.path.startsWith('/auth/') && !ctx.is('application/x-www-form-urlencoded', 'multipart/form-data')) return true;
  return ctx.accepts('html', 'json') === 'json';
}

export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  // A dependency that is down is not a bug: the client may retry (with the same Idempotency-Key).
  if (isUnavailable(err)) return serviceUnavailable();
  const e = err as { status?: number; expose?: boolean; message?: string };
  // Errors raised by Koa itself (body too large, malformed JSON) carry a safe status.
  if (e?.status && e.status >= 400 && e.status < 500) {
    const code = e.status === 413 ? 'PAYLOAD_TOO_LARGE' : e.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST';
    return new HttpError(e.status, code, 'Richiesta non valida', e.expose ? e.message : undefined);
  }
  return new HttpError(500, 'INTERNAL_ERROR', 'Errore interno', 'Si è verificato un errore inatteso');
}

/** Problem details for the API, error pages for people; unexpected errors are logged, never shown. */
export function errorHandler(views: nunjucks.Environment, log: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new HttpError(404, 'NOT_FOUND', 'Non trovato', 'La pagina richiesta non esiste');
    } catch (err) {
      const httpErr = toHttpError(err);
      if (httpErr.status === 503) log.warn({ err: String(err), path: ctx.path, method: ctx.method }, 'dependency unavailable');
      else if (httpErr.status >= 500) log.error({ err, path: ctx.path, method: ctx.method }, 'request failed');
      ctx.status = httpErr.status;
      if (typeof httpErr.extra.retry_after === 'number') ctx.set('Retry-After', String(httpErr.extra.retry_after));
      if (wantsProblemJson(ctx)) {
        ctx.type = 'application/problem+json';
        ctx.body = JSON.stringify(problemBody(httpErr, ctx.path));
        return;
      }
      const template = httpErr.code === 'NO_TENANT' ? 'errors/no-tenant.njk'
        : httpErr.status === 404 ? 'errors/404.njk'
        : httpErr.status === 403 ? 'errors/403.njk'
        : httpErr.status >= 500 && httpErr.status !== 503 ? 'errors/500.njk' : 'errors/generic.njk';
      ctx.type = 'text/html; charset=utf-8';
      try {
        ctx.body = views.render(template, { ...baseData(ctx), error: httpErr });
      } catch (renderErr) {
        log.error({ err: renderErr }, 'error page failed to render');
        ctx.body = `<!doctype html><title>${httpErr.status}</title><h1>${httpErr.status}</h1>`;
      }
    }
  };
}

export function securityHeaders(secure: boolean): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    ctx.set('Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'self'");
    if (secure) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
