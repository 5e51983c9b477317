import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { AREAS } from '../../src/areas';
import { withPlatform, withTenant } from '../../src/db/tenant';
import {
  listPageQuery, PLATFORM_SCOPE, runList, sortNamesOf, tenantScope, type ListDefinition, type ListRequest, type ListScope,
} from '../../src/kit/list';
import { BIG_TENANT, LIST_SEEDS, seedTenants } from '../helpers/list-seeds';
import { startPlanDb, type PlanDb } from '../helpers/plan-db';

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }

const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];
const summary = (n: PlanNode): string => nodesOf(n).map((x) => `${x['Node Type']}${x['Relation Name'] ? ` on ${x['Relation Name']}` : ''}${x['Index Name'] ? ` using ${x['Index Name']}` : ''}`).join(' > ');

/** The list's table, or one of its monthly partitions (movimenti_2026_11: the plan names the partition it reads). */
const isListTable = (def: ListDefinition, relation: string | undefined) =>
  relation === def.table || (relation !== undefined && new RegExp(`^${def.table}_\\d{4}_\\d{2}$`).test(relation));

export const LISTS: ListDefinition[] = AREAS.flatMap((a) => a.lists ?? []);

/** The requests the test explains for one list and sort: no filter, each filter alone, the search alone (always-filters in each). */
function requestsOf(def: ListDefinition, sort: string): { label: string; req: ListRequest }[] {
  const always = Object.fromEntries(Object.entries(def.filters).filter(([, f]) => f.always).map(([k, f]) => [k, f.sample]));
  const base = { sort, limit: def.limit.default, offset: 0, ...always } as ListRequest;
  return [
    { label: 'no filter', req: base },
    ...Object.entries(def.filters).filter(([, f]) => !f.always).map(([k, f]) => ({ label: `filter ${k}`, req: { ...base, [k]: f.sample } as ListRequest })),
    ...(def.search ? [{ label: 'search', req: { ...base, q: def.search.sample } }] : []),
  ];
}

/**
 * The issue's rule: no list query of the registry plans a sequential scan on its table, whatever
 * its sort and filter, on the first page or a cursor page; and without a filter every sort reads its
 * index in order (no Sort of the tenant's rows). Explained as the application role in a tenant
 * transaction (the platform role for platform-wide lists), on seeded, analysed tables.
 */
describe('list query plans (every list of the registry, on seeded data)', function () {
  // The seed writes about two million rows: minutes on a busy machine of two cores.
  this.timeout(360_000);
  let p: PlanDb;

  before(async () => {
    p = await startPlanDb();
    await seedTenants(p.owner);
    // Seeds write different tables: side by side, they overlap their waits. Four at a time: more would
    // queue for the pool's connections, and a long seed (movements) would time the queued ones out.
    const queue = [...LISTS];
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let def = queue.shift(); def; def = queue.shift()) await LIST_SEEDS[def.name]?.(p.owner);
    }));
    await p.owner.raw('analyze');
  });
  after(async () => { await p?.stop(); });

  it('every registered list has a seed, a unique name and a default sort it declares', () => {
    assert.ok(LISTS.length >= 9, `only ${LISTS.length} lists registered`);
    assert.deepEqual(LISTS.map((d) => d.name).filter((n) => !LIST_SEEDS[n]), [], 'lists without a seed in test/helpers/list-seeds.ts');
    assert.equal(new Set(LISTS.map((d) => d.name)).size, LISTS.length, 'list names must be unique');
    for (const def of LISTS) assert.ok(sortNamesOf(def).includes(def.defaultSort), `${def.name}: default sort ${def.defaultSort} is not declared`);
  });

  it('no list plans a sequential scan of its table; no sort needs a Sort node', async () => {
    const started = Date.now();
    const failures: string[] = [];
    let explained = 0;
    for (const def of LISTS) {
      for (const kind of def.scopes) {
        const scope: ListScope = kind === 'tenant' ? tenantScope(BIG_TENANT) : PLATFORM_SCOPE;
        const inScope = <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
          (kind === 'tenant' ? withTenant(p.db, { codAzienda: BIG_TENANT }, fn) : withPlatform(p.platformDb, null, fn));
        await inScope(async (trx) => {
          for (const sort of sortNamesOf(def)) {
            for (const { label, req } of requestsOf(def, sort)) {
              const first = await runList(trx, def, scope, req);
              const pages: [string, ListRequest][] = [['first page', req]];
              if (first.next_cursor) pages.push(['cursor page', { ...req, cursor: first.next_cursor }]);
              for (const [page, r] of pages) {
                const { sql, bindings } = listPageQuery(trx, def, scope, r).toSQL();
                const [{ 'QUERY PLAN': [plan] }] = (await trx.raw(`explain (format json) ${sql}`, bindings)).rows as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
                const nodes = nodesOf(plan!.Plan);
                explained += 1;
                const where = `${def.name} [${kind}] sort ${sort}, ${label}, ${page}: ${summary(plan!.Plan)}`;
                // A platform-wide search has no tenant to narrow it and no index it may use (docs/lists.md): it reads the table.
                const scanAllowed = kind === 'platform' && label === 'search';
                if (!scanAllowed && nodes.some((n) => n['Node Type'] === 'Seq Scan' && isListTable(def, n['Relation Name']))) failures.push(`sequential scan: ${where}`);
                // Every sort has its index: without a filter, no page sorts the tenant's rows.
                if (label === 'no filter' && nodes.some((n) => n['Node Type'] === 'Sort')) {
                  failures.push(`sorts the tenant's rows: ${where}`);
                }
              }
            }
          }
        });
      }
    }
    if (process.env.LIST_PLANS_VERBOSE) console.log(`${explained} plans in ${Date.now() - started} ms`);
    assert.deepEqual(failures, [], `${failures.length} of ${explained} plans fail`);
    assert.ok(explained > 100, `only ${explained} plans explained`);
  });
});
