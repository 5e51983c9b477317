/**
 * Tenant-policy benchmark (not a test): one tenant's first page of cases and its count, read as
 * the application role through row-level security, with the signed-tenant policy and with the
 * former `... OR app.scope = 'platform'` policy, on a throw-away embedded PostgreSQL.
 * Prints one JSON object per line. BENCH_TENANTS and BENCH_CASES_PER_TENANT size the table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseSetup, loadConfig } from '../src/config';
import { prepareDatabase } from '../src/db/bootstrap';
import { createAppDb, createKnex, deriveRoleUrl } from '../src/db/knex';
import { tenantPredicate } from '../src/db/rls';
import { withTenant } from '../src/db/tenant';
import { startEmbeddedPostgres } from '../src/infra/embedded-pg';
import { freePort } from '../src/infra/free-port';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 500);
const PER_TENANT = Number(process.env.BENCH_CASES_PER_TENANT ?? 1000);
const RUNS = 30;
const LEGACY = "(cod_azienda = current_setting('app.cod_azienda', true) or current_setting('app.scope', true) = 'platform')";
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);

const dir = mkdtempSync(join(tmpdir(), 'cp-bench-pg-'));
const pg = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false, database: 'bench' });
const owner = createKnex(pg.url, { max: 2 });
try {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: join(dir, 'data') });
  await prepareDatabase(owner, databaseSetup(config));
  await owner.raw(`insert into aziende (cod_azienda, ragione_sociale) select 'B' || t, 'Bench ' || t from generate_series(1, ?) t`, [TENANTS]);
  await owner.raw(`
    insert into cases (id, cod_azienda, titolo, tipo, priorita, stato, opened_by, sla_days, sla_due_at, workflow_id, created_at)
    select gen_random_uuid(), 'B' || (1 + i % ?), 'Caso ' || i, 'generico', 'media', 'aperto', 'bench', 30, now(), 'case:' || i, now() - make_interval(mins => i)
      from generate_series(1, ?) i`, [TENANTS, TENANTS * PER_TENANT]);
  await owner.raw('analyze cases');
  const db = createAppDb(deriveRoleUrl(pg.url, config.appDbRole, config.appDbPassword), config.tenantContextKey, { max: 1 });
  const tenant = `B${1 + Math.floor(TENANTS / 2)}`;

  const measure = async (policy: string, label: string, sql: string) => {
    await owner.raw('drop policy tenant_isolation on cases');
    await owner.raw(`create policy tenant_isolation on cases using ${policy} with check ${policy}`);
    const times: number[] = [];
    let plan = '';
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await withTenant(db, { codAzienda: tenant, actor: 'bench' }, (trx) => trx.raw(sql));
      times.push(performance.now() - t);
    }
    await withTenant(db, { codAzienda: tenant }, async (trx) => {
      const { rows } = await trx.raw(`explain ${sql}`);
      plan = rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'].trim()).find((l: string) => /Scan/.test(l)) ?? '';
    });
    times.sort((x, y) => x - y);
    out({ bench: 'tenant-policy', policy: label, query: sql, rows: TENANTS * PER_TENANT, tenants: TENANTS, median_ms: +times[RUNS >> 1]!.toFixed(2), p95_ms: +times[Math.floor(RUNS * 0.95)]!.toFixed(2), scan: plan.replace(/\s+\(cost.*$/, '') });
  };
  for (const sql of ['select * from cases order by created_at desc limit 25', 'select count(*) from cases']) {
    await measure(LEGACY, 'app.cod_azienda OR app.scope (former)', sql);
    await measure(tenantPredicate, 'signed tenant, InitPlan (current)', sql);
  }
  await db.destroy();
} finally {
  await owner.destroy();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
