import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { insertMovements, movementAggregates, movementInputSchema, movementProfiles, type MovementInput } from '../../src/domains/movements';
import { aggregatesStatement } from '../../src/domains/movements/movements.aggregates';
import { aggregateKey, evaluateCondition, requiredAggregates, type Aggregato, type Condizione } from '../../src/kit/conditions';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { BIG_TENANT, LIST_SEEDS, seedTenants } from '../helpers/list-seeds';
import { startPlanDb, type PlanDb } from '../helpers/plan-db';

const OGGI = '2026-06-30';
const close = (actual: number | null | undefined, expected: number, what: string) => {
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
};

describe('movement aggregates for the condition language (movementAggregates, movementProfiles)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;

  const insert = (codAzienda: string, rows: MovementInput[]) => withTenant(env.deps.db, { codAzienda }, (trx) =>
    insertMovements(trx, codAzienda, 'test', rows.map((r) => movementInputSchema.parse(r))));
  const mov = (key: string, data: string, importo: number, segno: 'entrata' | 'uscita', over: Partial<MovementInput> = {}): MovementInput =>
    ({ cod_rapporto: 'RAP-1', chiave_esterna: key, data_operazione: data, importo, segno, ...over });
  const load = (codAzienda: string, aggregati: Aggregato[], liste: Record<string, ReadonlySet<string>> = {}) =>
    withTenant(env.deps.db, { codAzienda }, (trx) => movementAggregates(trx, codAzienda, ['ANA-1', 'ANA-2', 'ANA-9'], aggregati, OGGI, liste));

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    const o = env.ownerDb;
    await o('anagrafe').insert([tenant, other].flatMap((t) => ['ANA-1', 'ANA-2'].map((c) => (
      { cod_azienda: t, cod_anagrafe: c, tipo_soggetto: 'persona_fisica', denominazione: `${c} ${t}`, created_by: 'test' }))));
    await o('rapporti').insert([tenant, other].flatMap((t) => ['1', '2'].map((n) => (
      { cod_azienda: t, cod_rapporto: `RAP-${n}`, cod_anagrafe: `ANA-${n}`, tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' }))));
    // ANA-1's movements around the windows' edges (OGGI = 2026-06-30; 90 days back is 2026-04-01, 365 is 2025-06-30).
    await insert(tenant, [
      mov('m1', '2026-06-30', 1000, 'entrata', { contanti: true, controparte_conto: 'IT01', controparte_paese: 'IT' }),
      mov('m2', '2026-06-01', 2000, 'uscita', { controparte_conto: 'DE02', controparte_paese: 'de' }),
      mov('m3', '2026-04-01', 500, 'entrata', { contanti: true, controparte_conto: 'IT01', controparte_paese: 'IT' }),
      mov('m4', '2026-04-02', 300, 'uscita', { controparte_nome: 'Mario Verdi', controparte_paese: 'IR' }),
      mov('m5', '2025-12-01', 4000, 'entrata', { controparte_nome: 'MARIO VERDI' }),
      mov('m6', '2025-06-30', 10000, 'entrata'),
      mov('m7', '2026-07-01', 9999, 'entrata', { contanti: true }),
      mov('m8', '2025-05-31', 777, 'uscita'),
    ]);
    // The other tenant's subject with the same code: none of it may count.
    await insert(other, [mov('x1', '2026-06-15', 77_777, 'entrata', { contanti: true, controparte_conto: 'ZZ', controparte_paese: 'IR' })]);
  });

  it('computes each aggregate over its window (oggi inclusive, the window\'s first day exclusive), by canonical key', async () => {
    const A = {
      count30: { fn: 'count', finestra_giorni: 30 },
      sum90: { fn: 'sum', finestra_giorni: 90 },
      sum90in: { fn: 'sum', finestra_giorni: 90, segno: 'entrata' },
      sum365noCash: { fn: 'sum', finestra_giorni: 365, contanti: false },
      cash365: { fn: 'cash_share', finestra_giorni: 365 },
      cp365: { fn: 'distinct_counterparties', finestra_giorni: 365 },
      countries365: { fn: 'distinct_countries', finestra_giorni: 365 },
      countIR: { fn: 'count', finestra_giorni: 365, paesi_controparte: ['ir'] },
      countList: { fn: 'count', finestra_giorni: 365, paesi_controparte: { lista: 'alto' } },
      history: { fn: 'ratio_history', finestra_giorni: 30 },
      history60: { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 60 },
    } satisfies Record<string, Aggregato>;
    const values = await load(tenant, Object.values(A), { alto: new Set(['IR', 'de']) });
    const v = values.get('ANA-1')!;
    const get = (a: Aggregato) => v[aggregateKey(a)];
    assert.equal(get(A.count30), 2, 'm1 and m2: (2026-05-31, 2026-06-30]');
    assert.equal(get(A.sum90), 3300, 'm1 + m2 + m4; m3 is on the excluded first day, m7 after oggi');
    assert.equal(get(A.sum90in), 1000);
    assert.equal(get(A.sum365noCash), 6300, 'm2 + m4 + m5; m6 falls on the excluded first day');
    close(get(A.cash365), 1500 / 7800, 'cash share');
    assert.equal(get(A.cp365), 3, 'IT01 twice, DE02, and Mario Verdi by name whatever its case');
    assert.equal(get(A.countries365), 3, 'IT, DE, IR');
    assert.equal(get(A.countIR), 1);
    assert.equal(get(A.countList), 2, 'IR and DE from the list, case-insensitive');
    // History: (2025-05-31, 2026-05-31] holds m3 + m4 + m5 + m6 = 14,800; the same 30 days on average: 14,800 × 30 / 365.
    close(get(A.history), 3000 / (14_800 * 30 / 365), 'ratio to history');
    // (2026-04-01, 2026-05-31]: m4 only.
    close(get(A.history60), 3000 / (300 * 30 / 60), 'ratio to a 60-day history');

    const none = values.get('ANA-2')!;
    assert.deepEqual([none[aggregateKey(A.count30)], none[aggregateKey(A.sum90)], none[aggregateKey(A.cp365)]], [0, 0, 0], 'no movements: zero');
    assert.deepEqual([none[aggregateKey(A.cash365)], none[aggregateKey(A.history)]], [null, null], 'no total, no history: unknown');
    assert.ok(values.has('ANA-9'), 'a code with nothing (or not the tenant\'s) still gets its record');
    assert.equal(Object.keys(v).length, Object.keys(A).length);
  });

  it('reads only the tenant\'s movements; the other tenant\'s ANA-1 has its own', async () => {
    const sum = { fn: 'sum', finestra_giorni: 365 } as const;
    const mine = await load(tenant, [sum]);
    assert.equal(mine.get('ANA-1')![aggregateKey(sum)], 7800);
    const theirs = await load(other, [sum]);
    assert.equal(theirs.get('ANA-1')![aggregateKey(sum)], 77_777);
    // Naming another tenant while in this tenant's transaction reads nothing (row-level security).
    const crossed = await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => movementAggregates(trx, other, ['ANA-1'], [sum], OGGI, {}));
    assert.equal(crossed.get('ANA-1')![aggregateKey(sum)], 0);
  });

  it('feeds the evaluator: requiredAggregates → loader → evaluateCondition, ratio_declared from the sum and the declared volume', async () => {
    const c: Condizione = { tutti: [
      { aggregato: { fn: 'ratio_declared', finestra_giorni: 365 }, op: 'gt', valore: 0.5 },
      { aggregato: { fn: 'cash_share', finestra_giorni: 365 }, op: 'gte', valore: 0.15 },
    ] };
    const needed = requiredAggregates(c);
    assert.deepEqual(needed.map(aggregateKey), ['sum:365', 'cash_share:365']);
    const values = await load(tenant, needed);
    const out = evaluateCondition(c, { dati: { dichiarato: { volume_annuo_eur: 10_000 } }, aggregati: values.get('ANA-1')!, liste: {}, oggi: OGGI });
    assert.equal(out.vero, true);
    close(out.letti.find((l) => l.path === 'aggregato:ratio_declared:365')?.valore as number, 0.78, 'ratio to declared');
    const none = evaluateCondition(c, { dati: { dichiarato: { volume_annuo_eur: 10_000 } }, aggregati: values.get('ANA-2')!, liste: {}, oggi: OGGI });
    assert.equal(none.vero, false);
  });

  it('refuses a list it was not given, and a malformed day', async () => {
    await assert.rejects(load(tenant, [{ fn: 'count', finestra_giorni: 30, paesi_controparte: { lista: 'ignota' } }]), /unknown list: ignota/);
    await assert.rejects(withTenant(env.deps.db, { codAzienda: tenant }, (trx) => movementAggregates(trx, tenant, ['ANA-1'], [{ fn: 'count', finestra_giorni: 1 }], '30/06/2026')), /YYYY-MM-DD/);
  });

  it('profiles: last 365 days\' total both ways and the counterparty countries, per subject', async () => {
    const p = await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => movementProfiles(trx, tenant, ['ANA-1', 'ANA-2'], OGGI));
    assert.deepEqual(p.get('ANA-1'), { totale_365_eur: 7800, paesi_controparti: ['DE', 'IR', 'IT'] });
    assert.deepEqual(p.get('ANA-2'), { totale_365_eur: 0, paesi_controparti: [] });
  });

  it('a counterparty-country filter matches the country of the counterparty\'s IBAN too (the kit\'s ibanCountry)', async () => {
    await insert(other, [
      mov('i1', '2026-06-10', 100, 'uscita', { cod_rapporto: 'RAP-2', controparte_conto: 'AE07 0331 2345 6789 0123 456' }),
      mov('i2', '2026-06-11', 200, 'uscita', { cod_rapporto: 'RAP-2', controparte_conto: 'IT60X0542811101000000123456', controparte_paese: 'IR' }),
      mov('i3', '2026-06-12', 400, 'uscita', { cod_rapporto: 'RAP-2', controparte_conto: 'AE01', controparte_paese: 'IT' }),
    ]);
    const ae = { fn: 'sum', finestra_giorni: 90, paesi_controparte: ['AE'] } as const;
    const ir = { fn: 'sum', finestra_giorni: 90, paesi_controparte: { lista: 'alto' } } as const;
    const it = { fn: 'sum', finestra_giorni: 90, paesi_controparte: ['it'] } as const;
    const v = (await load(other, [ae, ir, it], { alto: new Set(['IR']) })).get('ANA-2')!;
    assert.equal(v[aggregateKey(ae)], 100, 'the IBAN\'s country, spaces and all; "AE01" is not an IBAN');
    assert.equal(v[aggregateKey(ir)], 200, 'the stated country');
    assert.equal(v[aggregateKey(it)], 600, 'i2 by its IBAN, i3 by its stated country');
  });
});

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

describe('movement aggregates query plan (seeded, partitioned)', function () {
  this.timeout(300_000);
  let p: PlanDb;

  before(async () => {
    p = await startPlanDb();
    await seedTenants(p.owner);
    await LIST_SEEDS.movements!(p.owner);
    await p.owner.raw('analyze');
  });
  after(async () => { await p?.stop(); });

  /**
   * A batch reads only the months its longest window needs, through the subjects' index (one
   * descent per subject and month), never a scan of whole months, whatever its share of them.
   */
  it('a batch reads only the months its windows need, through the subjects\' index', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const batch = Array.from({ length: 20 }, (_, i) => `MOVANA-${String(i * 37 + 1).padStart(5, '0')}`);
    const aggregati: Aggregato[] = [
      { fn: 'sum', finestra_giorni: 90 }, { fn: 'cash_share', finestra_giorni: 180 }, { fn: 'distinct_counterparties', finestra_giorni: 90 },
      { fn: 'ratio_history', finestra_giorni: 30, storico_giorni: 150 },
    ];
    const nodes = await withTenant(p.db, { codAzienda: BIG_TENANT }, async (trx: Knex.Transaction) => {
      const { sql, bindings } = aggregatesStatement(BIG_TENANT, batch, aggregati, today);
      const [{ 'QUERY PLAN': [plan] }] = (await trx.raw(`explain (format json) ${sql}`, bindings)).rows as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
      return nodesOf(plan!.Plan);
    });
    const months = [...new Set(nodes.map((n) => n['Relation Name'] ?? '').filter((r) => /^movimenti_\d{4}_\d{2}$/.test(r)))];
    assert.ok(months.length >= 6 && months.length <= 8, `180 days reach 6 to 8 months back: ${months.join(', ')}`);
    assert.deepEqual(nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']), []);
    assert.ok(nodes.some((n) => /anagrafe/.test(n['Index Name'] ?? '')), 'the subjects\' index');
  });
});
