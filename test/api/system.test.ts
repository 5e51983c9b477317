import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildDeps, closeDeps } from '../../src/deps';
import { getTestEnv } from '../helpers/env';

describe('system: health, OpenAPI, docs, error pages', () => {
  it('GET /health answers 200 with every check ok and its latency', async () => {
    const env = await getTestEnv();
    const r = await env.client().get('/health');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'ok');
    for (const name of ['web', 'database', 'temporal']) {
      assert.equal(r.body.checks[name].status, 'ok', name);
      assert.equal(typeof r.body.checks[name].latency_ms, 'number');
      assert.ok(r.body.checks[name].latency_ms >= 0);
    }
    assert.equal(r.headers.get('cache-control'), 'no-store');
  });

  it('GET /health answers 503 naming the dependencies that are down', async function () {
    this.timeout(40_000);
    const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
    const deps = buildDeps(config, { ownerUrl: 'postgres://x@127.0.0.1:1/none', temporalAddress: '127.0.0.1:1' });
    const { app } = createApp(deps);
    const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
    try {
      const port = (server.address() as { port: number }).port;
      const started = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { accept: 'application/json' } });
      const body = await res.json() as { status: string; checks: Record<string, { status: string; latency_ms: number; error?: string }> };
      assert.equal(res.status, 503);
      assert.equal(body.status, 'down');
      assert.equal(body.checks.web!.status, 'ok');
      assert.equal(body.checks.database!.status, 'down');
      assert.equal(body.checks.temporal!.status, 'down');
      assert.ok(['timeout', 'unavailable'].includes(body.checks.database!.error!));
      // Checks are bounded: a dead dependency must not hang the probe.
      assert.ok(Date.now() - started < 10_000, `health took ${Date.now() - started} ms`);
    } finally {
      await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
      await closeDeps(deps).catch(() => undefined);
    }
  });

  it('GET /api/openapi.json is an OpenAPI 3.1 document listing the declared API routes', async () => {
    const env = await getTestEnv();
    const r = await env.client().get('/api/openapi.json');
    assert.equal(r.status, 200);
    const doc = r.body;
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'Compliance AML API');
    assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
    assert.equal(doc.components.securitySchemes.session.in, 'cookie');
    assert.ok(doc.components.schemas.Problem);
    const expected: [string, string][] = [
      ['/health', 'get'], ['/api/openapi.json', 'get'],
      ['/api/audit/events', 'get'], ['/api/audit/verify', 'get'],
      ['/api/notifications', 'get'], ['/api/notifications/unread-count', 'get'], ['/api/notifications/{id}/read', 'put'],
      ['/api/cases', 'get'], ['/api/cases', 'post'], ['/api/cases/{id}', 'get'],
    ];
    for (const [path, method] of expected) assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} missing`);
    // Every operation is complete: summary, tag, responses, path parameters declared.
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      assert.doesNotMatch(path, /:/, `koa-style path ${path}`);
      for (const [method, op] of Object.entries<any>(ops)) {
        assert.ok(op.summary, `${method} ${path} summary`);
        assert.ok(op.tags?.length, `${method} ${path} tags`);
        assert.ok(op.responses?.default, `${method} ${path} problem response`);
        const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name).sort();
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        assert.deepEqual(declared, inPath, `${method} ${path} path parameters`);
      }
    }
    const events = doc.paths['/api/audit/events'].get;
    assert.deepEqual([...events['x-roles']].sort(), ['admin', 'auditor', 'co', 'superadmin']);
    const qp = events.parameters.map((p: any) => p.name);
    for (const n of ['actor', 'entity_type', 'entity_id', 'action', 'from', 'to', 'limit', 'offset']) assert.ok(qp.includes(n), n);
    assert.deepEqual(doc.paths['/health'].get.security, []);
    assert.equal(doc.paths['/api/notifications/unread-count'].get.responses['200'].content['application/json'].schema.properties.count.type, 'integer');
  });

  it('every JSON route under /api is declared through apiRoute, so the document cannot miss one', async () => {
    const env = await getTestEnv();
    const doc = (await env.client().get('/api/openapi.json')).body;
    // A second app on the same deps only to read its route table (building it dials nothing).
    const { router } = createApp(env.deps);
    const pages = new Set(['/api/docs']);
    const missing: string[] = [];
    for (const layer of router.stack as unknown as { path: string; methods: string[] }[]) {
      if (!layer.path.startsWith('/api/') || pages.has(layer.path)) continue;
      const oaPath = layer.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      for (const m of layer.methods.filter((x) => x !== 'HEAD')) if (!doc.paths[oaPath]?.[m.toLowerCase()]) missing.push(`${m} ${layer.path}`);
    }
    assert.deepEqual(missing, [], `routes missing from the OpenAPI document: ${missing.join(', ')}`);
  });

  it('an unknown page is a 404 HTML page; an unknown API path is problem+json', async () => {
    const env = await getTestEnv();
    const page = await env.client().get('/pagina-che-non-esiste', { accept: 'text/html' });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /Pagina non trovata/);
    assert.match(page.text, /<html lang="it">/);
    const api = await env.client().get('/api/non-esiste', { accept: 'text/html' });
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = JSON.parse(api.text);
    assert.equal(problem.status, 404);
    assert.equal(problem.code, 'NOT_FOUND');
    assert.equal(problem.instance, '/api/non-esiste');
  });

  it('GET /api/docs needs a session and renders every operation grouped by tag, without external scripts', async () => {
    const env = await getTestEnv();
    const anon = await env.client().get('/api/docs', { accept: 'text/html' });
    assert.equal(anon.status, 302);
    assert.match(anon.headers.get('location') ?? '', /^\/login\?next=/);
    assert.equal((await env.client().get('/api/docs', { accept: 'application/json' })).status, 401);

    const tenant = await env.createTenant();
    const co = await env.login(await env.createUser({ tenant, roles: ['co'] }));
    const r = await co.get('/api/docs', { accept: 'text/html' });
    assert.equal(r.status, 200, r.text.slice(0, 500));
    // One area a page: every area the navigation lists, together, shows every operation once.
    const areas = [...r.text.matchAll(/href="\/api\/docs\?area=([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    assert.ok(areas.includes('tag-Audit'), 'the Audit area is listed');
    let all = '';
    for (const area of areas) {
      const page = await co.get(`/api/docs?area=${encodeURIComponent(area)}`, { accept: 'text/html' });
      assert.equal(page.status, 200, area);
      assert.match(page.text, new RegExp(`id="${area}"`));
      all += page.text;
    }
    const doc = (await co.get('/api/openapi.json')).body;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(ops)) assert.ok(all.includes(`data-operation="${method.toUpperCase()} ${path}"`), `${method} ${path} not on any page`);
    }
    assert.equal((await co.get('/api/docs?area=tag-non-esiste', { accept: 'text/html' })).status, 404);
    const r2 = await co.get('/api/docs?area=tag-Audit', { accept: 'text/html' });
    assert.match(r2.text, /aria-current="page"/);
    assert.match(all, /Revisore interno/); // roles shown with their labels
    assert.match(all, /Corpo della richiesta/);
    const scripts = [...r.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    for (const src of scripts) assert.match(src, /^\/static\//, `external script ${src}`);
  });
});
