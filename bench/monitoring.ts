/**
 * Monitoring benchmark (not a test; `npm run bench:monitoring`): `npm start` on a throw-away data
 * directory, 20 rules in force (the 14 templates and 6 tuned variants: bench/monitoring/rules.ts), customers with declared profiles and
 * movements that look like real histories written inside PostgreSQL (bench/records/seed.ts with
 * bench/monitoring/history.ts), then
 * - realtime: events evaluated per second with p50/p99 through the real path (POST /api/movimenti
 *   and POST /api/kyt/events answered with the decision, concurrent clients), and the evaluation
 *   path alone in this process (evaluateEvents: store reads, engine, recording), split by phase;
 * - replay: one year replayed for BENCH_REPLAY_CUSTOMERS customers of a tenant of their own
 *   (POST /api/monitoring/replay, the workflow), time, customers/s, alerts per typology;
 * - quality: the detection figures of the standard templates on the generated labelled year
 *   (measureQuality of bench/monitoring-quality.ts; BENCH_QUALITY_CUSTOMERS, BENCH_QUALITY_MONTHS, BENCH_QUALITY_SEED).
 * One JSON object per line. BENCH_CUSTOMERS, BENCH_MOVEMENTS, BENCH_REPLAY_CUSTOMERS size it,
 * BENCH_SECONDS the length of each load, BENCH_CONCURRENCY its clients; BENCH_ONLY=realtime,replay,quality picks parts.
 */
import { loadavg } from 'node:os';
import { REALISTIC_HISTORY, seedDeclaredProfiles } from './monitoring/history';
import { idleCpuMsPerSecond } from './lib/process-cpu';
import { evaluationPathFigure, realPathFigure } from './monitoring/realtime';
import { replayFigure } from './monitoring/replay';
import { seedBenchRules } from './monitoring/rules';
import { startAppStack, type AppStack } from './platform/app-stack';
import { seedTenantAndSignIn } from './platform/seed';
import { seedRecords } from './records/seed';
import { measureQuality, qualityLines } from './monitoring-quality';
import { templateRuleVersions } from '../src/domains/monitoring/templates';
import { csrfToken } from './risk/measure';

// Every figure with the machine's 1-minute load average when it was taken (the cores are shared).
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...o, load1: +loadavg()[0]!.toFixed(1) })}\n`);
const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const only = new Set((process.env.BENCH_ONLY ?? 'realtime,replay,quality').split(','));
const CUSTOMERS = num('BENCH_CUSTOMERS', 100_000);
const MOVEMENTS = num('BENCH_MOVEMENTS', 10_000_000);
const REPLAY_CUSTOMERS = num('BENCH_REPLAY_CUSTOMERS', 20_000);
const SECONDS = num('BENCH_SECONDS', 30);
const CONCURRENCY = num('BENCH_CONCURRENCY', 16);

/** A tenant with its officer signed in, its customers and history, their declared profiles and the 20 rules in force. */
async function seededTenant(stack: AppStack, codAzienda: string, customers: number, movements: number) {
  const client = await seedTenantAndSignIn(stack, codAzienda);
  const t0 = performance.now();
  await seedRecords(stack.owner, { codAzienda, customers, movements, log, history: REALISTIC_HISTORY });
  await seedDeclaredProfiles(stack.owner, codAzienda);
  const token = await csrfToken(client);
  const rules = await seedBenchRules(stack, client, token, codAzienda);
  out({ figure: 'seed', tenant: codAzienda, customers, movements, days: REALISTIC_HISTORY.days, active_rules: rules, seconds: +((performance.now() - t0) / 1000).toFixed(1) });
  return { client, token };
}

const stack = only.has('realtime') || only.has('replay') ? await startAppStack(log) : undefined;
if (stack) try {
  // The replay's tenant first: its indexes are rebuilt over its own rows before the 10 million are written.
  if (only.has('replay')) {
    const perCustomer = MOVEMENTS / CUSTOMERS;
    const { client, token } = await seededTenant(stack, 'BENCHR', REPLAY_CUSTOMERS, Math.round(REPLAY_CUSTOMERS * perCustomer));
    await replayFigure(stack, client, token, { codAzienda: 'BENCHR', customers: REPLAY_CUSTOMERS, log, out });
    client.close();
  }
  if (only.has('realtime')) {
    const COD = 'BENCH';
    const { client, token } = await seededTenant(stack, COD, CUSTOMERS, MOVEMENTS);
    await evaluationPathFigure(stack, { codAzienda: COD, customers: CUSTOMERS, samples: num('BENCH_SAMPLES', 500), concurrency: 8, out });
    const idle = await idleCpuMsPerSecond(stack.pid);
    await realPathFigure(client, token, { what: 'movimenti', customers: CUSTOMERS, concurrency: CONCURRENCY, seconds: SECONDS, batch: 1, out, appPid: stack.pid, idleCpuMsPerSecond: idle });
    await realPathFigure(client, token, { what: 'movimenti', customers: CUSTOMERS, concurrency: 4, seconds: SECONDS, batch: 100, out, appPid: stack.pid, idleCpuMsPerSecond: idle });
    await realPathFigure(client, token, { what: 'kyt', customers: CUSTOMERS, concurrency: CONCURRENCY, seconds: SECONDS, batch: 1, out, appPid: stack.pid, idleCpuMsPerSecond: idle });
    client.close();
  }
} finally {
  await stack.stop();
}
// Pure and in memory (no database): after the platform has stopped, so it has the cores to itself.
if (only.has('quality')) {
  const m = measureQuality({
    regole: [...templateRuleVersions()], clienti: num('BENCH_QUALITY_CUSTOMERS', 10_000), seed: process.env.BENCH_QUALITY_SEED ?? 'monitoraggio',
    mesi: num('BENCH_QUALITY_MONTHS', 12), log,
  });
  for (const line of qualityLines(m)) out(line);
}
