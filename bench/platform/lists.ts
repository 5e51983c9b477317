import { withTenant } from '../../src/db/tenant';
import { deriveRoleUrl } from '../../src/db/knex';
import { casesList } from '../../src/domains/cases/cases.list';
import { listCasesQuery } from '../../src/domains/cases/cases.schemas';
import { listCountQuery, listPageQuery, sortKeysOf, tenantScope } from '../../src/kit/list';
import { encodeCursor } from '../../src/kit/list/list-cursor';
import type { AppStack } from './app-stack';
import { startBareHttp, type BareSql } from './bare-http';
import { BenchHttp, closedLoop, serverMs, type LoadFigures } from './load';
import { seedCaseRows } from './seed';

const ratio = (a: number, b: number) => +(a / b).toFixed(2);

/**
 * The case list with `rows` cases in the tenant and `total` in all: first page and a deep
 * page (a cursor 90% down), one at a time for the server-side p95, then 8 connections for
 * the rate, JSON and HTML; each beside the same SQL in a bare Koa + pg handler.
 */
export async function listFigures(stack: AppStack, http: BenchHttp, p: { codAzienda: string; rows: number; total: number; seconds: number }, out: (o: Record<string, unknown>) => void) {
  const others = 9;
  const t0 = performance.now();
  await seedCaseRows(stack, { codAzienda: p.codAzienda, rows: p.rows, otherTenants: others, rowsPerOther: Math.round((p.total - p.rows) / others), prefix: 'BENCHX' });
  out({ figure: 'list-seed', rows_in_tenant: p.rows, rows_in_all: p.total, seconds: +((performance.now() - t0) / 1000).toFixed(1) });

  // The deep page's cursor: the row 90% down the default sort, as the API would have handed it out.
  const { keys, desc } = sortKeysOf(casesList, '-created_at')!;
  const deepRow = await stack.owner('cases').where({ cod_azienda: p.codAzienda })
    .orderBy(keys.map((k) => ({ column: k.column, order: desc ? 'desc' : 'asc' })))
    .offset(Math.floor(p.rows * 0.9)).first(keys.map((k, i) => stack.owner.raw('??::text as ??', [k.column, `k${i}`])));
  const cursor = encodeCursor({ sort: '-created_at', before: false, values: keys.map((_, i) => deepRow[`k${i}`] as string) });

  const sqlOf = (query: Record<string, string>): BareSql[] => {
    const req = listCasesQuery.parse(query);
    // The page, then its capped count, as runList sends them.
    return [listPageQuery(stack.deps.db, casesList, tenantScope(p.codAzienda), req), listCountQuery(stack.deps.db, casesList, tenantScope(p.codAzienda), req)]
      .map((qb) => { const n = qb.toSQL().toNative(); return { text: n.sql, values: [...n.bindings] }; });
  };
  const bare = await startBareHttp({
    appDbUrl: deriveRoleUrl(stack.ownerUrl, stack.deps.config.appDbRole, stack.deps.config.appDbPassword),
    tenantKey: stack.deps.config.tenantContextKey, codAzienda: p.codAzienda,
    pages: { '/first': sqlOf({}), '/deep': sqlOf({ cursor }) },
  });
  const bareHttp = new BenchHttp(bare.baseUrl);
  try {
    // The bare handler answers what the app answers: the same rows.
    const appFirst = JSON.parse((await http.request('GET', '/api/cases')).body) as { items: { id: string }[] };
    const bareFirst = JSON.parse((await bareHttp.request('GET', '/first')).body) as { items: { id: string }[] };
    if (appFirst.items[0]?.id !== bareFirst.items[0]?.id) throw new Error('the baseline does not read the same page as the app');
    await withTenant(stack.deps.db, { codAzienda: p.codAzienda }, (trx) => trx.raw('select 1'));

    const get = (client: BenchHttp, path: string, accept = 'application/json') => async () => {
      const r = await client.request('GET', path, { headers: { accept } });
      return { ok: r.status === 200, serverMs: serverMs(r), what: `${r.status} ${r.body.slice(0, 200)}` };
    };
    const single = async (send: () => Promise<{ ok: boolean }>) => {
      for (let i = 0; i < 30; i++) await send(); // warm-up
      return closedLoop({ concurrency: 1, total: 300, send });
    };
    const rate = (send: () => Promise<{ ok: boolean }>) => closedLoop({ concurrency: 8, seconds: p.seconds, send });
    const line = (figure: string, app: LoadFigures, baseline: LoadFigures, extra: Record<string, unknown>) =>
      out({ figure, app, baseline, ...extra });

    const deepPath = `/api/cases?cursor=${encodeURIComponent(cursor)}`;
    const first = await single(get(http, '/api/cases'));
    const firstBare = await single(get(bareHttp, '/first'));
    line('list-first-page', first, firstBare, { ratio_p95: ratio(first.p95_ms, firstBare.p95_ms), target: 'app.server_p95_ms < 20' });
    const deep = await single(get(http, deepPath));
    const deepBare = await single(get(bareHttp, '/deep'));
    line('list-deep-page', deep, deepBare, { at_row: Math.floor(p.rows * 0.9), ratio_p95: ratio(deep.p95_ms, deepBare.p95_ms), target: 'app.server_p95_ms < 20' });

    const json = await rate(get(http, '/api/cases'));
    const jsonBare = await rate(get(bareHttp, '/first'));
    line('list-json-rate', json, jsonBare, { clients: 8, ratio_rate: ratio(json.per_second, jsonBare.per_second), target: 'app.per_second >= 1000' });
    const html = await rate(get(http, '/casi', 'text/html'));
    line('list-html-rate', html, jsonBare, { clients: 8, ratio_rate: ratio(html.per_second, jsonBare.per_second), target: 'app.per_second >= 600', baseline_note: 'the same SQL answered as JSON' });
  } finally {
    bareHttp.close();
    await bare.stop();
  }
}
