/**
 * Risk benchmark (not a test; `npm run bench:risk`): `npm start` on a throw-away data directory,
 * 100,000 customers and 10 million movements written inside PostgreSQL (bench/records/seed.ts),
 * a 30-rule version made active and a draft derived from it, then
 * - one customer scored with the 30-rule set: scoreCustomers for one customer (its profile and
 *   its movement aggregates from the 10 million movements), p50/p99 over 500 customers, in this
 *   process against the app's PostgreSQL;
 * - the whole portfolio recalculated (POST /api/risk/runs, ricalcolo: the workflow of `npm start`),
 *   and then the time until the assessments it queued for the changed classes are all calculated;
 * - a dry run of the draft over the same portfolio (POST /api/risk/runs, simulazione).
 * One JSON object per line. BENCH_CUSTOMERS and BENCH_MOVEMENTS size it; BENCH_SCORE_SAMPLES the first figure.
 */
import { loadavg } from 'node:os';
import { withTenant } from '../src/db/tenant';
import { movementAggregates } from '../src/domains/movements';
import {
  activeRuleSet, aggregatesFor, buildProfiles, fieldsRead, loadRuleSet, riskLists, scoreCustomers, scoreProfile, thresholds,
} from '../src/domains/risk';
import { startAppStack } from './platform/app-stack';
import { seedTenantAndSignIn } from './platform/seed';
import { seedRecords } from './records/seed';
import { classesInForce, csrfToken, percentile, scoreInterpreted, timedRun } from './risk/measure';
import { seedRuleSets } from './risk/rules';

// Every figure with the machine's 1-minute load average when it was taken (the cores are shared).
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...o, load1: +loadavg()[0]!.toFixed(1) })}\n`);
const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const COD = 'BENCH';
const CUSTOMERS = num('BENCH_CUSTOMERS', 100_000);
const MOVEMENTS = num('BENCH_MOVEMENTS', 10_000_000);
const SAMPLES = num('BENCH_SCORE_SAMPLES', 500);

const stack = await startAppStack(log);
try {
  const client = await seedTenantAndSignIn(stack, COD);
  const t0 = performance.now();
  await seedRecords(stack.owner, { codAzienda: COD, customers: CUSTOMERS, movements: MOVEMENTS, log });
  out({ figure: 'seed', customers: CUSTOMERS, movements: MOVEMENTS, seconds: +((performance.now() - t0) / 1000).toFixed(1) });

  const inTenant = <T>(fn: (trx: import('knex').Knex.Transaction) => Promise<T>) => withTenant(stack.deps.db, { codAzienda: COD, actor: 'bench' }, fn);
  const base = await inTenant((trx) => activeRuleSet(trx, COD));
  const sets = await seedRuleSets(stack.owner, COD, base.id);
  out({ figure: 'rule-sets', default_rules: base.regole.length, active_rules: sets.activeRules, draft_rules: sets.draftRules });

  // One customer scored, as an assessment scores it: one call of scoreCustomers, the version loaded once.
  const versione = await inTenant((trx) => loadRuleSet(trx, COD, sets.activeId));
  const oggi = new Date().toISOString().slice(0, 10);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 20; i++) {
    const cod = `ANA-${String(1 + ((i * 7_919) % CUSTOMERS)).padStart(6, '0')}`;
    const s = performance.now();
    const r = await inTenant((trx) => scoreCustomers(trx, COD, [cod], versione, oggi));
    if (!r.get(cod)) throw new Error(`${cod} not scored`);
    if (i >= 20) times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  out({ figure: 'score-one-customer', path: 'scoreCustomers (in process, one tenant transaction)', rules: versione.regole.length, samples: times.length,
    p50_ms: +percentile(times, 50).toFixed(2), p99_ms: +percentile(times, 99).toFixed(2), target: 'p50 < 20 ms' });

  // Where a run's batch goes: 2,500 customers as runBatch reads them (profiles, movement aggregates,
  // scoring), and the scoring by the interpreter (evaluateCondition) beside the compiled rules.
  const batch = Array.from({ length: Math.min(2_500, CUSTOMERS) }, (_, i) => `ANA-${String(i + 1).padStart(6, '0')}`);
  const fields = new Set<string>();
  for (const r of versione.regole) if (r.attiva) fieldsRead(r.condizione, fields);
  const phase = await inTenant(async (trx) => {
    const t1 = performance.now();
    const profiles = await buildProfiles(trx, COD, batch, oggi, { paesiControparti: [...fields].some((f) => f.startsWith('geografia.paesi_controparti')) });
    const t2 = performance.now();
    const aggregati = await movementAggregates(trx, COD, [...profiles.keys()], aggregatesFor(versione), oggi, riskLists());
    return { profiles, aggregati, soglie: await thresholds(trx, COD), profiles_ms: t2 - t1, aggregates_ms: performance.now() - t2 };
  });
  const timed = (fn: () => void) => { const s = performance.now(); fn(); return performance.now() - s; };
  const compiled: number[] = [];
  const interpreted: number[] = [];
  for (let round = 0; round < 7; round++) {
    compiled.push(timed(() => { for (const [cod, p] of phase.profiles) scoreProfile(versione, phase.soglie, p, phase.aggregati.get(cod) ?? {}, oggi); }));
    interpreted.push(timed(() => { for (const [cod, p] of phase.profiles) scoreInterpreted(versione, p, phase.aggregati.get(cod) ?? {}, oggi); }));
  }
  const median = (xs: number[]) => +percentile([...xs].sort((a, b) => a - b), 50).toFixed(1);
  out({ figure: 'batch-phases', customers: phase.profiles.size, profiles_ms: +phase.profiles_ms.toFixed(1), aggregates_ms: +phase.aggregates_ms.toFixed(1),
    score_compiled_ms: median(compiled), score_interpreted_ms: median(interpreted), note: 'scoring: median of 7 rounds, compiled and interpreted alternated' });

  const token = await csrfToken(client);
  // The class in force the recalculation compares with: the active version's own, a few moved.
  const prep = await timedRun(client, token, { tipo: 'simulazione', versione_id: sets.activeId }, log);
  out({ figure: 'dry-run-active-version', customers: prep.run.elaborati, seconds: +prep.seconds.toFixed(1), customers_per_second: Math.round(prep.run.elaborati / prep.seconds), changes: prep.run.cambi });
  await classesInForce(stack, COD, prep.run.id, 100, out);

  const dry = await timedRun(client, token, { tipo: 'simulazione', versione_id: sets.draftId }, log);
  out({ figure: 'dry-run-draft', customers: dry.run.elaborati, seconds: +dry.seconds.toFixed(1), customers_per_second: Math.round(dry.run.elaborati / dry.seconds), changes: dry.run.cambi,
    up: dry.run.riepilogo.salite, down: dry.run.riepilogo.discese });

  const recalc = await timedRun(client, token, { tipo: 'ricalcolo' }, log);
  // Assessments start after each batch's commit; they are counted in the summary.
  out({ figure: 'portfolio-recalculation', customers: recalc.run.elaborati, seconds: +recalc.seconds.toFixed(1), customers_per_second: Math.round(recalc.run.elaborati / recalc.seconds),
    changes: recalc.run.cambi, assessments_started: recalc.run.riepilogo.valutazioni_avviate ?? 0, assessment_starts_failed: recalc.run.riepilogo.avvii_falliti ?? 0, target: 'seconds < 60 for 100,000 customers' });

  // The assessments the run queued calculate in their own workflows after it: how long until every
  // one of them has left its draft (calculated, and released when the class did not go down).
  const expected = Number(recalc.run.riepilogo.valutazioni_avviate ?? 0);
  const drainStart = performance.now();
  for (;;) {
    const { rows: [c] } = await stack.owner.raw<{ rows: { n: number; pending: number }[] }>(
      "select count(*)::int as n, count(*) filter (where stato = 'draft')::int as pending from rischio_valutazioni where cod_azienda = ? and riferimento = ?", [COD, recalc.run.id]);
    if (c!.n >= expected && c!.pending === 0) {
      const released = Number((await stack.owner('rischio_valutazioni').where({ cod_azienda: COD, riferimento: recalc.run.id, stato: 'released' }).count('* as n'))[0]!.n);
      out({ figure: 'portfolio-recalculation-assessments', assessments: c!.n, released, seconds_after_run: +((performance.now() - drainStart) / 1000).toFixed(1),
        seconds_from_run_start: +(recalc.seconds + (performance.now() - drainStart) / 1000).toFixed(1), note: 'until every queued assessment is calculated (and released when its class did not go down)' });
      break;
    }
    if (performance.now() - drainStart > 600_000) { out({ figure: 'portfolio-recalculation-assessments', error: 'not drained in 10 minutes', ...c }); break; }
    await new Promise((res) => setTimeout(res, 500));
  }

  client.close();
} finally {
  await stack.stop();
}
