import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { z } from 'zod';
import { AREAS } from './areas';
import type { PlatformDb } from './db/tenant';
import type { Deps } from './deps';
import { customerSessionMiddleware } from './domains/onboarding';
import { sessionMiddleware } from './http/auth';
import type { AppState } from './http/context';
import { csrf } from './http/csrf';
import { idempotency, purgeIdempotencyKeys } from './http/idempotency';
import { errorHandler, securityHeaders } from './http/error-handler';
import { methodNotAllowed } from './http/method-not-allowed';
import { Navigation } from './http/navigation';
import { OpenApiRegistry } from './http/openapi';
import { areaPlaceholder } from './http/placeholder';
import { serverTiming } from './http/server-timing';
import { SessionStore } from './http/session-store';
import { staticAssets } from './http/static';
import { refuseUnstorableInput, refuseUnstorableParams } from './http/storable-text';
import { createViews } from './http/views';
import type { AppServices, AreaDefinition } from './kit/area';
import { Routes } from './kit/routes';

z.config(z.locales.it());

/** The web process, assembled from the registry's areas (src/areas.ts). */
export function createApp(deps: Deps, areas: readonly AreaDefinition[] = AREAS) {
  const app = new Koa<AppState>();
  app.proxy = process.env.TRUST_PROXY === 'true';
  const views = createViews();
  const openapi = new OpenApiRegistry();
  const sessions = new SessionStore(deps.platformDb, { idleMinutes: deps.config.sessionIdleMinutes, absoluteHours: deps.config.sessionAbsoluteHours });
  const services: AppServices = { deps, views, sessions, areas };
  const router = new Router<AppState>();
  const routes = new Routes(router, openapi);
  for (const area of areas) for (const register of area.routes ?? []) register(routes, services);
  // After every route: the path parameters of all of them are checked for unstorable text.
  refuseUnstorableParams(router);
  const navigation = new Navigation(areas.flatMap((a) => a.navigation ?? []));

  app.use(serverTiming());
  app.use(securityHeaders(deps.config.secureCookies));
  app.use(errorHandler(views, deps.logger));
  app.use(staticAssets());
  app.use(methodNotAllowed(router));
  app.use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', formLimit: '256kb', encoding: 'utf-8' }));
  app.use(refuseUnstorableInput());
  app.use(sessionMiddleware(sessions));
  app.use(customerSessionMiddleware(deps));
  app.use(csrf(deps.config.sessionSecret, deps.config.secureCookies, deps.config.publicBaseUrl));
  app.use(flashFromCookie());
  app.use(idempotency(deps.platformDb));
  app.use(async (ctx, next) => { ctx.state.navigation = navigation; await next(); });
  app.use(router.routes());
  app.use(areaPlaceholder(views, navigation));
  return { app, router, routes, openapi, services, navigation };
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

/** Expired sessions and idempotency keys are refused when used; this removes the ones nobody comes back for. */
export function purgeSessionsPeriodically(sessions: SessionStore, platformDb: PlatformDb, everyMs = 15 * 60_000): NodeJS.Timeout {
  const timer = setInterval(() => {
    sessions.purgeExpired().catch(() => undefined);
    purgeIdempotencyKeys(platformDb).catch(() => undefined);
  }, everyMs);
  timer.unref();
  return timer;
}
