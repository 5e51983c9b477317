import { z } from 'zod';

import { render } from '../../http/render';
import { notFound } from '../../http/errors';
import type { RegisterRoutes } from '../../kit/area';
import { API_TITLE, appVersion, docsModel, schemaSummary } from './api-docs';
import { checkHealth } from './health';
import { accessGuard, staff, withRefusal, PUBLIC } from '../../kit/access';

const check = z.object({ status: z.enum(['ok', 'down']), latency_ms: z.number(), error: z.string().optional() });
const healthResponse = z.object({
  status: z.enum(['ok', 'down']),
  checked_at: z.iso.datetime(),
  checks: z.object({ web: check, database: check, temporal: check }),
});

const DOCS_READERS = ['superadmin', 'admin', 'co', 'auditor', 'sos', 'analyst', 'viewer'] as const;

/** Health for load balancers and monitoring, the OpenAPI document and its docs page. */
export const registerSystemRoutes: RegisterRoutes = (router, { deps, views }) => {
  router.api({
    method: 'GET', path: '/health', summary: 'Stato del servizio (web, database, Temporal)', tag: 'Sistema', access: PUBLIC,
    response: healthResponse,
    handler: async (ctx) => {
      const report = await checkHealth(deps);
      ctx.set('Cache-Control', 'no-store');
      // 503 tells a load balancer to take this instance out while a dependency is down.
      ctx.status = report.status === 'ok' ? 200 : 503;
      ctx.body = report;
    },
  });

  router.api({
    method: 'GET', path: '/api/openapi.json', summary: 'Documento OpenAPI 3.1 di questa API', tag: 'Sistema', access: PUBLIC,
    handler: async () => router.openapi.document({ title: API_TITLE, version: appVersion }),
  });

  // Under /api/ a missing session answers 401 JSON; a browser asking for the page is sent to sign in instead.
  router.get('/api/docs', withRefusal(staff(DOCS_READERS), (ctx) => {
    if (!ctx.state.user && ctx.accepts('html', 'json') === 'html') return ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
    return accessGuard(staff(DOCS_READERS))(ctx, async () => undefined);
  }), async (ctx) => {
    const doc = router.openapi.document({ title: API_TITLE, version: appVersion });
    const groups = docsModel(doc);
    // One area at a time: the whole API on one page (hundreds of operations with their
    // parameter tables) is slow to draw and to search by eye.
    const wanted = typeof ctx.query.area === 'string' ? ctx.query.area : groups[0]?.id;
    const current = groups.find((g) => g.id === wanted);
    if (!current) throw notFound('Area dell\'API');
    render(ctx, views, 'system/api-docs.njk', {
      title: `Documentazione API · ${current.tag}`, groups, current, version: appVersion, apiTitle: API_TITLE,
      operationCount: groups.reduce((n, g) => n + g.operations.length, 0), schemaSummary,
    });
  });
};
