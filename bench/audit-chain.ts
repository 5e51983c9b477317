/**
 * Audit-chain benchmark (not a test): how many audit events a second one tenant's chain
 * takes with 1, 8 and 32 concurrent writers, in short transactions and in transactions that
 * do other work after appending (as the projections do), across several tenants at once,
 * the append and transaction latencies, and the speed of verification. Runs against a
 * throw-away database (embedded PostgreSQL, or a new database on DATABASE_URL's server) that
 * it seeds and removes. Prints one JSON object per line.
 *
 *   BENCH_SECONDS (default 4) per scenario, BENCH_WORK_MS (default 5) of other work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { prepareDatabase } from '../src/db/bootstrap';
import { createKnex, deriveAppUrl } from '../src/db/knex';
import { withPlatform, withTenant } from '../src/db/tenant';
import { createAzienda } from '../src/domains/admin/admin.commands';
import { appendAudit, verifyAuditChain } from '../src/domains/audit/audit.chain';
import { startEmbeddedPostgres } from '../src/infra/embedded-pg';
import { freePort } from '../src/infra/free-port';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 5);
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ bench: 'audit-chain', ...o })}\n`);

interface Scratch { ownerDb: Knex; appDb: Knex; stop(): Promise<void> }

/** A database nobody else uses, with the migrations applied and its own application role. */
async function scratchDatabase(): Promise<Scratch> {
  const suffix = randomBytes(4).toString('hex');
  const role = `cp_bench_${suffix}`;
  const password = randomBytes(12).toString('base64url');
  const stops: (() => Promise<void>)[] = [];
  let ownerUrl: string;
  if (process.env.DATABASE_URL) {
    const name = `cp_bench_${suffix}`;
    const admin = createKnex(process.env.DATABASE_URL, { max: 1 });
    await admin.raw(`create database ${name}`);
    await admin.destroy();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    ownerUrl = u.toString();
    stops.push(async () => {
      const a = createKnex(process.env.DATABASE_URL!, { max: 1 });
      await a.raw(`drop database if exists ${name} with (force)`);
      await a.raw(`drop role if exists ${role}`);
      await a.destroy();
    });
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'cp-bench-pg-'));
    const pg = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false, database: 'bench' });
    ownerUrl = pg.url;
    stops.push(async () => { await pg.stop(); rmSync(dir, { recursive: true, force: true }); });
  }
  const ownerDb = createKnex(ownerUrl, { max: 2 });
  await prepareDatabase(ownerDb, role, password);
  const appDb = createKnex(deriveAppUrl(ownerUrl, role, password), { max: 48 });
  return {
    ownerDb, appDb,
    async stop() {
      await appDb.destroy();
      await ownerDb.destroy();
      for (const s of stops.reverse()) await s();
    },
  };
}

const pct = (sorted: number[], p: number) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
const ms = (n: number) => Math.round(n * 1000) / 1000;

interface Scenario { name: string; tenants: string[]; writersPerTenant: number; workMs: number }

/** Every writer appends one event per transaction until the time is up. */
async function runScenario(db: Knex, s: Scenario) {
  const deadline = performance.now() + SECONDS * 1000;
  const appendLat: number[] = [];
  const txLat: number[] = [];
  const perTenant = new Map(s.tenants.map((t) => [t, 0]));
  const started = performance.now();
  const writer = async (codAzienda: string, w: number) => {
    for (let i = 0; performance.now() < deadline; i++) {
      const t0 = performance.now();
      await withTenant(db, { codAzienda, actor: 'bench' }, async (trx) => {
        const a0 = performance.now();
        await appendAudit(trx, { codAzienda, actor: `bench.w${w}`, action: 'bench.append', entityType: 'bench', entityId: `${w}-${i}`, data: { w, i, scenario: s.name } });
        appendLat.push(performance.now() - a0);
        // What a projection does after its event: more statements in the same transaction.
        if (s.workMs > 0) await trx.raw('select pg_sleep(?)', [s.workMs / 1000]);
      });
      txLat.push(performance.now() - t0);
      perTenant.set(codAzienda, perTenant.get(codAzienda)! + 1);
    }
  };
  await Promise.all(s.tenants.flatMap((t) => Array.from({ length: s.writersPerTenant }, (_, w) => writer(t, w))));
  const elapsed = (performance.now() - started) / 1000;
  appendLat.sort((a, b) => a - b);
  txLat.sort((a, b) => a - b);
  const events = [...perTenant.values()].reduce((a, b) => a + b, 0);
  const rates = [...perTenant.values()].map((n) => Math.round(n / elapsed));
  out({
    scenario: s.name, tenants: s.tenants.length, writers_per_tenant: s.writersPerTenant, work_ms: s.workMs, seconds: ms(elapsed),
    events, events_per_s: Math.round(events / elapsed), per_tenant_events_per_s_min: Math.min(...rates), per_tenant_events_per_s_max: Math.max(...rates),
    append_p50_ms: ms(pct(appendLat, 0.5)), append_p99_ms: ms(pct(appendLat, 0.99)), tx_p50_ms: ms(pct(txLat, 0.5)), tx_p99_ms: ms(pct(txLat, 0.99)),
  });
}

async function main() {
  const scratch = await scratchDatabase();
  try {
    const { appDb, ownerDb } = scratch;
    const tenants = Array.from({ length: 4 }, (_, i) => `BENCH${i + 1}`);
    await withPlatform(appDb, 'bench', async (trx) => {
      for (const t of tenants) await createAzienda(trx, { cod_azienda: t, ragione_sociale: `Banco di prova ${t}`, tipo_intermediario: 'banca' }, 'bench');
    });
    const [one] = tenants as [string];
    const server = (await ownerDb.raw('show server_version')).rows[0].server_version as string;
    const sync = (await ownerDb.raw('show synchronous_commit')).rows[0].synchronous_commit as string;
    out({ scenario: 'setup', postgres: server, synchronous_commit: sync, seconds_per_scenario: SECONDS, embedded: !process.env.DATABASE_URL });
    for (const workMs of [0, WORK_MS]) {
      for (const writers of [1, 8, 32]) {
        await runScenario(appDb, { name: workMs ? 'one-tenant-with-work' : 'one-tenant-short', tenants: [one], writersPerTenant: writers, workMs });
      }
    }
    await runScenario(appDb, { name: 'four-tenants-short', tenants, writersPerTenant: 8, workMs: 0 });
    await runScenario(appDb, { name: 'four-tenants-with-work', tenants, writersPerTenant: 8, workMs: WORK_MS });

    const t0 = performance.now();
    const v = await withTenant(appDb, { codAzienda: one, actor: 'bench' }, (trx) => verifyAuditChain(trx, one));
    const secs = (performance.now() - t0) / 1000;
    out({ scenario: 'verify', ok: v.ok, events: v.checked, seconds: ms(secs), events_per_s: Math.round(v.checked / secs) });
  } finally {
    await scratch.stop();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
