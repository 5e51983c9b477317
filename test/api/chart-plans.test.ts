import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { caseCharts } from '../../src/domains/cases/cases.charts';
import { cddCounts, cddWeeklyChart } from '../../src/domains/cdd/cdd.page-charts';
import { onboardingCharts } from '../../src/domains/onboarding/onboarding-admin.charts';
import { screeningCharts } from '../../src/domains/screening/screening.charts';
import { BIG_TENANT, LIST_SEEDS, seedTenants } from '../helpers/list-seeds';
import { startPlanDb, type PlanDb } from '../helpers/plan-db';

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];
const summary = (n: PlanNode): string => nodesOf(n).map((x) => `${x['Node Type']}${x['Relation Name'] ? ` on ${x['Relation Name']}` : ''}${x['Index Name'] ? ` using ${x['Index Name']}` : ''}`).join(' > ');

/**
 * The charts' counts read the tenant's indexes, not the whole table, on the list seeds (one
 * tenant a third of each table): every query the three chart functions run is explained as the
 * application role in the tenant's transaction.
 */
describe('chart query plans (screening, onboarding, cases, CDD)', function () {
  this.timeout(180_000);
  let p: PlanDb;

  before(async () => {
    p = await startPlanDb();
    await seedTenants(p.owner);
    await Promise.all(['cases', 'screening.matches', 'onboarding.cases', 'cdd_tasks'].map((n) => LIST_SEEDS[n]!(p.owner)));
    // Autovacuum keeps the visibility map that index-only scans rely on; a fresh seed has none until vacuumed.
    await p.owner.raw('vacuum analyze');
  });
  after(async () => { await p?.stop(); });

  it('no chart query scans a whole table', async () => {
    const captured: { sql: string; bindings: unknown[] }[] = [];
    // The event's SQL is PostgreSQL's ($1, $2... in order): explained again with Knex's placeholders.
    const listen = (q: { sql: string; bindings?: unknown[] }) => { if (/^select/i.test(q.sql) && !/set_config/.test(q.sql)) captured.push({ sql: q.sql, bindings: q.bindings ?? [] }); };
    p.db.on('query', listen);
    await withTenant(p.db, { codAzienda: BIG_TENANT }, async (trx) => {
      await screeningCharts(trx, BIG_TENANT);
      await onboardingCharts(trx, BIG_TENANT);
      await caseCharts(trx, BIG_TENANT);
      await cddCounts(trx, BIG_TENANT);
      await cddWeeklyChart(trx, BIG_TENANT);
    });
    p.db.off('query', listen);
    const failures: string[] = [];
    const plans: string[] = [];
    await withTenant(p.db, { codAzienda: BIG_TENANT }, async (trx) => {
      for (const q of captured) {
        const [{ 'QUERY PLAN': [plan] }] = (await trx.raw(`explain (format json) ${q.sql.replace(/\$\d+/g, '?')}`, q.bindings as never[])).rows as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
        const line = `${q.sql.slice(0, 90)}: ${summary(plan!.Plan)}`;
        plans.push(line);
        if (nodesOf(plan!.Plan).some((n) => n['Node Type'] === 'Seq Scan' && ['cases', 'screening_matches', 'onboarding_cases', 'cdd_pratiche'].includes(n['Relation Name'] ?? ''))) failures.push(line);
      }
    });
    if (process.env.CHART_PLANS_VERBOSE) console.log(plans.join('\n'));
    assert.ok(captured.length >= 8, `only ${captured.length} queries captured`);
    assert.deepEqual(failures, []);
  });
});
