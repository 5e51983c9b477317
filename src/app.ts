import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type nunjucks from 'nunjucks';
import { z } from 'zod';
import type { Deps } from './deps';
import { SessionStore } from './domains/auth/session.store';
import { domains } from './domains';
import { customerSessionMiddleware } from './domains/onboarding/onboarding.session';
import { sessionMiddleware } from './http/auth';
import type { AppState } from './http/context';
import { csrf } from './http/csrf';
import { errorHandler, securityHeaders } from './http/error-handler';
import { methodNotAllowed } from './http/method-not-allowed';
import { OpenApiRegistry } from './http/openapi';
import { areaPlaceholder } from './http/placeholder';
import { staticAssets } from './http/static';
import { refuseUnstorableInput, refuseUnstorableParams } from './http/storable-text';
import { createViews } from './http/views';

z.config(z.locales.it());

/** What every domain's routes receive: the dependencies plus the shared HTTP services. */
export interface AppServices {
  deps: Deps;
  views: nunjucks.Environment;
  openapi: OpenApiRegistry;
  sessions: SessionStore;
}

export function createApp(deps: Deps) {
  const app = new Koa<AppState>();
  app.proxy = process.env.TRUST_PROXY === 'true';
  const views = createViews();
  const openapi = new OpenApiRegistry();
  const sessions = new SessionStore(deps.db, { idleMinutes: deps.config.sessionIdleMinutes, absoluteHours: deps.config.sessionAbsoluteHours });
  const services: AppServices = { deps, views, openapi, sessions };
  const router = new Router<AppState>();
  for (const register of domains) register(router, services);
  refuseUnstorableParams(router);

  app.use(securityHeaders(deps.config.secureCookies));
  app.use(errorHandler(views, deps.logger));
  app.use(staticAssets());
  app.use(methodNotAllowed(router));
  app.use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', formLimit: '256kb', encoding: 'utf-8' }));
  app.use(refuseUnstorableInput());
  app.use(sessionMiddleware(sessions, deps.db));
  app.use(customerSessionMiddleware(deps));
  app.use(csrf(deps.config.sessionSecret, deps.config.secureCookies, deps.config.publicBaseUrl));
  app.use(flashFromCookie());
  app.use(router.routes());
  app.use(areaPlaceholder(views));
  return { app, router, openapi, services };
}

function flashFromCookie(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const raw = ctx.cookies.get('cp_flash');
    if (raw) {
      try {
        ctx.state.flash = [JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))];
      } catch { /* a mangled flash cookie is just dropped */ }
      ctx.cookies.set('cp_flash', '', { maxAge: 0, overwrite: true });
    }
    await next();
  };
}

/** Expired sessions are refused when used; this removes the ones nobody comes back for. */
export function purgeSessionsPeriodically(sessions: SessionStore, everyMs = 15 * 60_000): NodeJS.Timeout {
  const timer = setInterval(() => { sessions.purgeExpired().catch(() => undefined); }, everyMs);
  timer.unref();
  return timer;
}
