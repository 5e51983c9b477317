/**
 * Audit-chain benchmark (not a test): how many audit events a second one tenant's chain
 * takes with 1, 8 and 32 concurrent writers, in short transactions and in transactions that
 * do other work after appending (as the projections do), across several tenants at once,
 * the append and transaction latencies, how long after commit the sealer chains an event
 * (it runs alongside, as in the worker), and the speed of verification. Runs against a
 * throw-away database (embedded PostgreSQL, or a new database on DATABASE_URL's server) that
 * it seeds and removes. Prints one JSON object per line.
 *
 * Each scenario runs three times, alternately so that all see the same machine: with the
 * sealer (this design), with the per-chain lock held to commit (the previous design), and
 * inserting the same row into a table without any chain (the machine's ceiling).
 *
 *   BENCH_SECONDS (default 3) per scenario, BENCH_WORK_MS (default 5) of other work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { startScratchDatabase } from '../src/infra/scratch-database';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../src/config';
import { prepareDatabase } from '../src/db/bootstrap';
import { createAppDb, createKnex, createPlatformDb, deriveRoleUrl } from '../src/db/knex';
import { withPlatform, withTenant, type PlatformDb } from '../src/db/tenant';
import { createAzienda } from '../src/domains/admin/admin.commands';
import { appendAudit, GENESIS_HASH, hashEvent, verifyAuditChain, type AuditInput } from '../src/domains/audit/audit.chain';
import { startAuditSealer } from '../src/domains/audit/audit.sealer';
import { logger } from '../src/infra/logger';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 5);
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ bench: 'audit-chain', ...o })}\n`);

interface Scratch { ownerDb: Knex; appDb: Knex; platformDb: PlatformDb; role: string; stop(): Promise<void> }

/** A database nobody else uses, with the migrations applied and its own application role. */
async function scratchDatabase(): Promise<Scratch> {
  const suffix = randomBytes(4).toString('hex');
  const role = `cp_bench_${suffix}`;
  const platformRole = `cp_bench_p_${suffix}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-bench-data-'));
  // Throw-away roles of its own, so the benchmark never touches the installation's.
  const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, APP_DB_ROLE: role, PLATFORM_DB_ROLE: platformRole });
  const scratch = await startScratchDatabase({ name: `cp_bench_${suffix}`, dropRoles: [role, platformRole] });
  const { ownerUrl } = scratch;
  const ownerDb = createKnex(ownerUrl, { max: 2 });
  await prepareDatabase(ownerDb, databaseSetup(config));
  const appDb = createAppDb(deriveRoleUrl(ownerUrl, config.appDbRole, config.appDbPassword), config.tenantContextKey, { max: 48 });
  const platformDb = createPlatformDb(deriveRoleUrl(ownerUrl, config.platformDbRole, config.platformDbPassword), { max: 4 });
  return {
    ownerDb, appDb, platformDb, role,
    async stop() {
      await appDb.destroy();
      await platformDb.destroy();
      await ownerDb.destroy();
      await scratch.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const pct = (sorted: number[], p: number) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
const ms = (n: number) => Math.round(n * 1000) / 1000;

type Design = 'sealer' | 'lock' | 'plain';

/**
 * The design this project used before the sealer, kept here as the benchmark's reference: a
 * per-chain advisory lock held until the caller commits, then read the head and insert the
 * event already chained. Run on tenants of its own, so that it never meets the sealer.
 */
async function appendWithChainLock(trx: Knex.Transaction, input: AuditInput) {
  const chain = input.codAzienda!;
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`audit:${chain}`]);
  const last = await trx('audit_events').where({ cod_azienda: chain }).whereNotNull('seq').orderBy('seq', 'desc').first('seq', 'hash');
  const row = {
    cod_azienda: chain, seq: (last?.seq ?? 0) + 1, occurred_at: new Date(), actor: input.actor, action: input.action,
    entity_type: input.entityType, entity_id: input.entityId, data: input.data ?? {}, prev_hash: last?.hash ?? GENESIS_HASH,
  };
  await trx('audit_events').insert({ ...row, hash: hashEvent(row), sealed_at: new Date() });
}

/** The control: the same row into a table with no chain at all, what this machine allows any design. */
async function appendPlain(trx: Knex.Transaction, input: AuditInput) {
  await trx('bench_plain').insert({
    cod_azienda: input.codAzienda, occurred_at: new Date(), actor: input.actor, action: input.action,
    entity_type: input.entityType, entity_id: input.entityId, data: input.data ?? {},
  });
}

interface Scenario { name: string; design: Design; tenants: string[]; writersPerTenant: number; workMs: number }

const unsealed = (db: PlatformDb, tenants: string[]) => withPlatform(db, 'bench', async (trx) =>
  Number((await trx('audit_events').whereIn('cod_azienda', tenants).whereNull('seq').count({ n: '*' }).first())!.n));

/** Every writer appends one event per transaction until the time is up; then the seals are waited for. */
async function runScenario(db: Knex, platformDb: PlatformDb, s: Scenario) {
  const run = `${s.name}/${s.design}/${s.writersPerTenant}`;
  const append = { lock: appendWithChainLock, plain: appendPlain, sealer: appendAudit }[s.design];
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
        await append(trx, { codAzienda, actor: `bench.w${w}`, action: 'test.bench.append' as AuditInput['action'], entityType: 'bench', entityId: `${w}-${i}`, data: { w, i, run } });
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
  // The sealer has been working all along; what is left when the writers stop is its backlog.
  const backlog = await unsealed(platformDb, s.tenants);
  const d0 = performance.now();
  while (await unsealed(platformDb, s.tenants) > 0) await new Promise((r) => setTimeout(r, 20));
  const lag = await withPlatform(platformDb, 'bench', (trx) => trx('audit_events').whereRaw("data->>'run' = ?", [run])
    .first(trx.raw('percentile_cont(0.5) within group (order by extract(epoch from sealed_at - occurred_at)) * 1000 as p50'),
      trx.raw('percentile_cont(0.99) within group (order by extract(epoch from sealed_at - occurred_at)) * 1000 as p99'))) as { p50: number; p99: number };
  out({
    scenario: s.name, design: s.design, tenants: s.tenants.length, writers_per_tenant: s.writersPerTenant, work_ms: s.workMs, seconds: ms(elapsed),
    events, events_per_s: Math.round(events / elapsed), per_tenant_events_per_s_min: Math.min(...rates), per_tenant_events_per_s_max: Math.max(...rates),
    append_p50_ms: ms(pct(appendLat, 0.5)), append_p99_ms: ms(pct(appendLat, 0.99)), tx_p50_ms: ms(pct(txLat, 0.5)), tx_p99_ms: ms(pct(txLat, 0.99)),
    ...(s.design === 'sealer' ? {
      unsealed_at_end: backlog, drain_seconds: ms((performance.now() - d0) / 1000), seal_lag_p50_ms: Math.round(lag.p50), seal_lag_p99_ms: Math.round(lag.p99),
    } : {}),
  });
}

/**
 * What the sealer, the one serial part of the design, can chain a second: writers insert
 * events in multi-row transactions as fast as they can while it seals.
 */
async function benchSealerCapacity(db: Knex, platformDb: PlatformDb, chain: string, total = 50_000, perTx = 500) {
  const t0 = performance.now();
  let next = 0;
  const writer = async () => {
    while (next < total) {
      const from = next;
      next += perTx;
      await withTenant(db, { codAzienda: chain, actor: 'bench' }, (trx) => trx('audit_events').insert(Array.from({ length: perTx }, (_, k) => ({
        cod_azienda: chain, occurred_at: new Date(), actor: 'bench', action: 'bench.bulk', entity_type: 'bench', entity_id: String(from + k), data: { run: 'capacity' },
      }))));
    }
  };
  await Promise.all(Array.from({ length: 4 }, writer));
  const inserted = (performance.now() - t0) / 1000;
  while (await unsealed(platformDb, [chain]) > 0) await new Promise((r) => setTimeout(r, 20));
  const sealed = (performance.now() - t0) / 1000;
  out({
    scenario: 'sealer-capacity', chain, events: total, events_per_tx: perTx, writers: 4, insert_seconds: ms(inserted), inserted_per_s: Math.round(total / inserted),
    all_sealed_seconds: ms(sealed), sealed_per_s: Math.round(total / sealed),
  });
}

/** Verification of the longest chain: sealed events checked a second. */
async function benchVerify(db: Knex, chains: string[]) {
  for (const chain of chains) {
    const t0 = performance.now();
    const v = await withTenant(db, { codAzienda: chain, actor: 'bench' }, (trx) => verifyAuditChain(trx, chain));
    const secs = (performance.now() - t0) / 1000;
    out({ scenario: 'verify', chain, ok: v.ok, events: v.checked, unsealed: v.unsealed, seconds: ms(secs), events_per_s: Math.round(v.checked / secs) });
  }
}

async function main() {
  const scratch = await scratchDatabase();
  const { appDb, ownerDb, platformDb } = scratch;
  const sealer = startAuditSealer({ db: appDb, platformDb, logger });
  try {
    const tenants = { sealer: ['SEAL1', 'SEAL2', 'SEAL3', 'SEAL4'], lock: ['LOCK1', 'LOCK2', 'LOCK3', 'LOCK4'], plain: ['PLAIN1', 'PLAIN2', 'PLAIN3', 'PLAIN4'] };
    await withPlatform(platformDb, 'bench', async (trx) => {
      for (const t of [...tenants.sealer, ...tenants.lock]) {
        await createAzienda(trx, { cod_azienda: t, ragione_sociale: `Banco di prova ${t}`, tipo_intermediario: 'banca' }, 'bench');
      }
    });
    await ownerDb.raw(`create table bench_plain (id bigserial primary key, cod_azienda text not null, occurred_at timestamptz not null, actor text not null,
      action text not null, entity_type text not null, entity_id text not null, data jsonb not null)`);
    await ownerDb.raw(`grant insert on bench_plain to ${scratch.role}`);
    await ownerDb.raw(`grant usage on sequence bench_plain_id_seq to ${scratch.role}`);
    // The lock design's tenants start from a sealed head, like a database migrated from it.
    while (await unsealed(platformDb, tenants.lock) > 0) await new Promise((r) => setTimeout(r, 20));
    const setting = async (name: string) => (await ownerDb.raw(`show ${name}`)).rows[0][name] as string;
    out({
      scenario: 'setup', postgres: await setting('server_version'), synchronous_commit: await setting('synchronous_commit'), fsync: await setting('fsync'),
      seconds_per_scenario: SECONDS, embedded: !process.env.DATABASE_URL, cpus: availableParallelism(), loadavg_1m: loadavg()[0],
    });
    // Designs alternate at each step, so that both see the same load from the rest of the machine.
    for (const workMs of [0, WORK_MS]) {
      for (const writers of [1, 8, 32]) {
        for (const design of ['plain', 'lock', 'sealer'] as const) {
          await runScenario(appDb, platformDb, { name: workMs ? 'one-tenant-with-work' : 'one-tenant-short', design, tenants: tenants[design].slice(0, 1), writersPerTenant: writers, workMs });
        }
      }
    }
    for (const workMs of [0, WORK_MS]) {
      for (const design of ['plain', 'lock', 'sealer'] as const) {
        await runScenario(appDb, platformDb, { name: workMs ? 'four-tenants-with-work' : 'four-tenants-short', design, tenants: tenants[design], writersPerTenant: 8, workMs });
      }
    }
    await benchSealerCapacity(appDb, platformDb, tenants.sealer[1]!);
    await benchVerify(appDb, [tenants.sealer[1]!, tenants.lock[0]!]);
  } finally {
    await sealer.stop();
    await scratch.stop();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
