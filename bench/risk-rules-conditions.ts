/**
 * Benchmark of the condition language's loader + evaluator (not a test; `node --import tsx bench/risk-rules-conditions.ts`): a scratch database,
 * 100,000 customers and 10 million movements (bench/records' seed), then
 * - one customer scored with a 30-rule set (aggregates included): p50/p95 ms;
 * - batches of 1,000 and 5,000 customers; the whole 100,000 in batches of 5,000.
 * BENCH_CUSTOMERS and BENCH_MOVEMENTS scale it (default 100,000 and 10,000,000: the seed takes ~25 min).
 */
import { withTenant } from '../src/db/tenant';
import { movementAggregates } from '../src/domains/movements';
import { aggregatesStatement } from '../src/domains/movements/movements.aggregates';
import { evaluateCondition, requiredAggregates, type Condizione } from '../src/kit/conditions';
import { seedRecords } from './records/seed';
import { BIG_TENANT, seedTenants } from '../test/helpers/list-seeds';
import { startPlanDb } from '../test/helpers/plan-db';

const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 10_000_000);
const oggi = new Date().toISOString().slice(0, 10);
const cod = (i: number) => `ANA-${String(i).padStart(6, '0')}`;

const alto = { lista: 'paesi_alto_rischio' } as const;
const fieldRules: Condizione[] = [
  { campo: 'cliente.pep', op: 'eq', valore: true },
  { campo: 'cliente.pep_collegati', op: 'eq', valore: true },
  { campo: 'geografia.paesi', op: 'intersects', valore: alto },
  { campo: 'geografia.paese_residenza', op: 'in', valore: alto },
  { campo: 'geografia.nazionalita', op: 'not_in', valore: ['IT', 'DE', 'FR', 'ES'] },
  { campo: 'cliente.tipo_soggetto', op: 'eq', valore: 'societa' },
  { campo: 'cliente.eta_anni', op: 'lt', valore: 21 },
  { campo: 'cliente.anzianita_giorni', op: 'lt', valore: 180 },
  { campo: 'prodotto.crypto', op: 'eq', valore: true },
  { campo: 'prodotto.wallet_sanzionati', op: 'gt', valore: 0 },
  { campo: 'canale.canale', op: 'eq', valore: 'online' },
  { campo: 'screening.corrispondenze_confermate', op: 'gt', valore: 0 },
  { tutti: [{ campo: 'titolari.numero', op: 'gte', valore: 3 }, { campo: 'cliente.tipo_soggetto', op: 'eq', valore: 'societa' }] },
  { campo: 'cliente.attivita', op: 'in', valore: ['compro_oro', 'money_transfer', 'gioco'] },
  { almeno_uno: [{ campo: 'cliente.settore', op: 'eq', valore: 'immobiliare' }, { campo: 'cliente.settore', op: 'eq', valore: 'edilizia' }] },
];
const aggregateRules: Condizione[] = [
  { aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'gt', valore: 0.3 },
  { tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'gt', valore: 0.1 }] },
  { aggregato: { fn: 'sum', finestra_giorni: 90, contanti: true }, op: 'gte', valore: 10_000 },
  { aggregato: { fn: 'sum', finestra_giorni: 365 }, op: 'gte', valore: 1_000_000 },
  { aggregato: { fn: 'count', finestra_giorni: 30 }, op: 'gt', valore: 50 },
  { aggregato: { fn: 'count', finestra_giorni: 365, paesi_controparte: alto }, op: 'gt', valore: 0 },
  { aggregato: { fn: 'sum', finestra_giorni: 365, segno: 'uscita', paesi_controparte: alto }, op: 'gt', valore: 5_000 },
  { aggregato: { fn: 'distinct_counterparties', finestra_giorni: 90 }, op: 'gt', valore: 20 },
  { aggregato: { fn: 'distinct_countries', finestra_giorni: 365 }, op: 'gte', valore: 5 },
  { aggregato: { fn: 'ratio_history', finestra_giorni: 30 }, op: 'gt', valore: 3 },
  { aggregato: { fn: 'ratio_history', finestra_giorni: 90, storico_giorni: 365 }, op: 'gt', valore: 2 },
  { aggregato: { fn: 'ratio_declared', finestra_giorni: 365 }, op: 'gt', valore: 2 },
  { aggregato: { fn: 'sum', finestra_giorni: 30, segno: 'entrata', contanti: true }, op: 'between', valore: [9_000, 9_999] },
  { aggregato: { fn: 'count', finestra_giorni: 7, contanti: true }, op: 'gte', valore: 5 },
  { non: { aggregato: { fn: 'count', finestra_giorni: 365 }, op: 'gt', valore: 0 } },
];
const rules = [...fieldRules, ...aggregateRules];
const needed = requiredAggregates(rules);
const liste = { paesi_alto_rischio: new Set(['IR', 'KP', 'MM', 'DE']) };
const profile = (i: number) => ({
  cliente: { pep: i % 50 === 0, pep_collegati: false, tipo_soggetto: i % 5 === 0 ? 'societa' : 'persona_fisica', eta_anni: 40, anzianita_giorni: 900, attivita: null, settore: null },
  geografia: { paesi: ['IT'], paese_residenza: 'IT', nazionalita: 'IT' }, prodotto: { crypto: false, wallet_sanzionati: 0 }, canale: { canale: 'online' },
  screening: { corrispondenze_confermate: 0 }, titolari: { numero: 1 }, dichiarato: { volume_annuo_eur: 50_000 },
});

const p = await startPlanDb();
try {
  await seedTenants(p.owner);
  const t0 = performance.now();
  await seedRecords(p.owner, { codAzienda: BIG_TENANT, customers: CUSTOMERS, movements: MOVEMENTS, log });
  out({ figure: 'seed', customers: CUSTOMERS, movements: MOVEMENTS, seconds: +((performance.now() - t0) / 1000).toFixed(1), aggregates: needed.length, rules: rules.length });

  const score = async (batch: string[], offset: number) => withTenant(p.db, { codAzienda: BIG_TENANT }, async (trx) => {
    const values = await movementAggregates(trx, BIG_TENANT, batch, needed, oggi, liste);
    let fired = 0;
    batch.forEach((c, i) => {
      const ctx = { dati: profile(offset + i), aggregati: values.get(c)!, liste, oggi };
      for (const r of rules) if (evaluateCondition(r, ctx).vero) fired += 1;
    });
    return fired;
  });

  // One customer at a time, random customers (cold-ish: each reads its own index pages).
  const times: number[] = [];
  for (let k = 0; k < 300; k++) {
    const i = 1 + ((k * 7_919) % CUSTOMERS);
    const s = performance.now();
    await score([cod(i)], i);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  out({ figure: 'one-customer-30-rules', samples: times.length, p50_ms: +times[150]!.toFixed(2), p95_ms: +times[285]!.toFixed(2), max_ms: +times.at(-1)!.toFixed(2) });

  // Evaluation alone (no SQL): 30 rules for one customer with its aggregates in hand.
  const values = await withTenant(p.db, { codAzienda: BIG_TENANT }, (trx) => movementAggregates(trx, BIG_TENANT, [cod(1)], needed, oggi, liste));
  const e0 = performance.now();
  for (let k = 0; k < 10_000; k++) for (const r of rules) evaluateCondition(r, { dati: profile(k), aggregati: values.get(cod(1))!, liste, oggi });
  out({ figure: 'evaluate-30-rules', us_per_customer: +(((performance.now() - e0) / 10_000) * 1000).toFixed(1) });

  for (const size of [1_000, 5_000]) {
    const batch = Array.from({ length: size }, (_, i) => cod(1 + ((i * 37 + 11) % CUSTOMERS)));
    const s = performance.now();
    await score(batch, 0);
    out({ figure: `batch-${size}`, ms: +(performance.now() - s).toFixed(0) });
  }

  await withTenant(p.db, { codAzienda: BIG_TENANT }, async (trx) => {
    const batch = Array.from({ length: Math.min(5_000, CUSTOMERS) }, (_, i) => cod(1 + i));
    const { sql, bindings } = aggregatesStatement(BIG_TENANT, batch, needed, oggi, liste);
    const { rows } = await trx.raw(`explain (analyze, buffers, timing off) ${sql}`, bindings);
    log(rows.map((r: Record<string, string>) => r['QUERY PLAN']).filter((l: string) => !/^\s+(Filter|Index Cond|Recheck|Heap Blocks|Rows Removed)/.test(l)).slice(0, 40).join('\n'));
  });
  const all = performance.now();
  for (let from = 1; from <= CUSTOMERS; from += 5_000) {
    const batch = Array.from({ length: Math.min(5_000, CUSTOMERS - from + 1) }, (_, i) => cod(from + i));
    await score(batch, from);
  }
  out({ figure: 'all-customers-batches-of-5000', customers: CUSTOMERS, seconds: +((performance.now() - all) / 1000).toFixed(1) });
} finally {
  await p.stop();
}
