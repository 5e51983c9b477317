import { z } from 'zod';
import { apiRoute } from '../../http/api-route';
import { requireRoles } from '../../http/auth';
import { render } from '../../http/render';
import type { RegisterRoutes } from '../index';
import { API_TITLE, appVersion, docsModel, schemaSummary } from './api-docs';
import { checkHealth } from './health';

const check = z.object({ status: z.enum(['ok', 'down']), latency_ms: z.number(), error: z.string().optional() });
const healthResponse = z.object({
  status: z.enum(['ok', 'down']),
  checked_at: z.iso.datetime(),
  checks: z.object({ web: check, database: check, temporal: check }),
});

const DOCS_READERS = ['superadmin', 'admin', 'co', 'auditor', 'sos', 'analyst', 'viewer'] as const;

/** Health for load balancers and monitoring, the OpenAPI document and its docs page. */
export const registerSystemRoutes: RegisterRoutes = (router, { deps, openapi, views }) => {
  apiRoute(router, openapi, {
    method: 'GET', path: '/health', summary: 'Stato del servizio (web, database, Temporal)', tag: 'Sistema', roles: 'public',
    response: healthResponse,
    handler: async (ctx) => {
      const report = await checkHealth(deps);
      ctx.set('Cache-Control', 'no-store');
      // 503 tells a load balancer to take this instance out while a dependency is down.
      ctx.status = report.status === 'ok' ? 200 : 503;
      ctx.body = report;
    },
  });

  apiRoute(router, openapi, {
    method: 'GET', path: '/api/openapi.json', summary: 'Documento OpenAPI 3.1 di questa API', tag: 'Sistema', roles: 'public',
    handler: async () => openapi.document({ title: API_TITLE, version: appVersion }),
  });

  // Under /api/ a missing session answers 401 JSON; a browser asking for the page is sent to sign in instead.
  router.get('/api/docs', async (ctx, next) => {
    if ((!ctx.state.user || !ctx.state.session?.mfa_ok) && ctx.accepts('html', 'json') === 'html') {
      return ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
    }
    await next();
  }, requireRoles(...DOCS_READERS), async (ctx) => {
    const doc = openapi.document({ title: API_TITLE, version: appVersion });
    const groups = docsModel(doc);
    render(ctx, views, 'system/api-docs.njk', {
      title: 'Documentazione API', groups, version: appVersion, apiTitle: API_TITLE,
      operationCount: groups.reduce((n, g) => n + g.operations.length, 0), schemaSummary,
    });
  });
};
