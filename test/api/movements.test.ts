import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { listMovementsQuery, movementsList, movementsMonthlyVolumes, recentMovements } from '../../src/domains/movements';
import { monthlyVolumesQuery, recentMovementsQuery } from '../../src/domains/movements/movements.repo';
import { listPageQuery, tenantScope } from '../../src/kit/list';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { BIG_TENANT, LIST_SEEDS, seedTenants } from '../helpers/list-seeds';
import { startPlanDb, type PlanDb } from '../helpers/plan-db';

/** A movement of relationship RAP-1 (held by ANA-1) with a key of its own. */
const mov = (key: string, over: Record<string, unknown> = {}) => ({
  cod_rapporto: 'RAP-1', data_operazione: '2026-03-10', importo: 1500, segno: 'entrata', chiave_esterna: key, ...over,
});

describe('movements API (/api/movimenti)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let viewer: TestClient;
  let auditor: TestClient;
  let outsider: TestClient;

  const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();
  const count = async (where: Record<string, unknown> = {}) =>
    Number((await env.ownerDb('movimenti').where({ cod_azienda: tenant, ...where }).count<{ count: string }[]>('* as count'))[0]!.count);

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    const o = env.ownerDb;
    await o('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-1', tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-2', tipo_soggetto: 'persona_fisica', denominazione: 'Anna Bianchi', created_by: 'test' },
      { cod_azienda: other, cod_anagrafe: 'ANA-1', tipo_soggetto: 'societa', denominazione: 'Altra Srl', created_by: 'test' },
    ]);
    await o('rapporti').insert([
      { cod_azienda: tenant, cod_rapporto: 'RAP-1', cod_anagrafe: 'ANA-1', tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' },
      { cod_azienda: tenant, cod_rapporto: 'RAP-2', cod_anagrafe: 'ANA-2', tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' },
      { cod_azienda: other, cod_rapporto: 'RAP-9', cod_anagrafe: 'ANA-1', tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' },
    ]);
    [analyst, viewer, auditor, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['auditor'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['analyst'] }).then((u) => env.login(u)),
    ]);
  });

  it('records one movement (201), the holder as its subject, and answers a re-sent one as already present (200, same id)', async () => {
    const first = await analyst.post('/api/movimenti', mov('single-1', { valuta: 'eur', causale: 'Bonifico stipendio' }));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.inseriti, 1);
    assert.equal(first.body.movimenti[0].esito, 'inserito');
    const again = await analyst.post('/api/movimenti', mov('single-1', { data_operazione: '2026-03-11' }));
    assert.equal(again.status, 200, again.text);
    assert.deepEqual([again.body.inseriti, again.body.gia_presenti], [0, 1]);
    assert.equal(again.body.movimenti[0].esito, 'gia_presente');
    assert.equal(again.body.movimenti[0].id, first.body.movimenti[0].id, 'the movement holding the key, whatever the date re-sent');
    assert.equal(again.body.movimenti[0].data_operazione, '2026-03-10');
    assert.equal(await count({ chiave_esterna: 'single-1' }), 1);

    const list = await viewer.get('/api/movimenti?cod_rapporto=RAP-1');
    const row = list.body.items.find((m: { chiave_esterna: string }) => m.chiave_esterna === 'single-1');
    assert.equal(row.cod_anagrafe, 'ANA-1', 'the relationship\'s holder');
    assert.equal(row.valuta, 'EUR');
    assert.equal(row.importo_eur, 1500, 'a euro amount is its own equivalent');
    assert.equal(row.data_operazione, '2026-03-10');
    assert.equal(row.contanti, false);
  });

  it('records a batch with keys new, repeated in the batch and already held; one audit event with the counts', async () => {
    const auditBefore = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'movimenti.insert' }).count<{ c: string }[]>('* as c');
    const r = await analyst.post('/api/movimenti', { movimenti: [
      mov('batch-1'), mov('batch-2', { segno: 'uscita', importo: '250.50', contanti: true }), mov('batch-1'), mov('single-1'),
      mov('batch-3', { valuta: 'USD', importo: 1000, importo_eur: 920.4, controparte_paese: 'us', controparte_nome: 'ACME Inc.' }),
    ] });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual([r.body.inseriti, r.body.gia_presenti], [3, 2]);
    assert.deepEqual(r.body.movimenti.map((m: { esito: string }) => m.esito), ['inserito', 'inserito', 'gia_presente', 'gia_presente', 'inserito']);
    assert.equal(r.body.movimenti[2].id, r.body.movimenti[0].id, 'a key repeated in the batch names its first movement');
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'movimenti.insert' }).orderBy('occurred_at', 'desc');
    assert.equal(audit.length, Number(auditBefore[0]!.c) + 1, 'one event for the request, not one per movement');
    assert.equal(audit[0].data.inseriti, 3);
    assert.equal(audit[0].data.gia_presenti, 2);
    assert.deepEqual(audit[0].data.rapporti, ['RAP-1']);
    const usd = await env.ownerDb('movimenti').where({ cod_azienda: tenant, chiave_esterna: 'batch-3' }).first();
    assert.equal(usd.valuta, 'USD');
    assert.equal(Number(usd.importo_eur), 920.4);
    assert.equal(usd.controparte_paese, 'US');
  });

  it('refuses bad items with a 422 naming each item and field, and writes none of the batch', async () => {
    const before = await count();
    const r = await analyst.post('/api/movimenti', { movimenti: [
      mov('bad-ok'),
      mov('bad-1', { importo: -5 }),
      mov('bad-2', { segno: 'dare', data_operazione: '2026-02-30' }),
      { ...mov(''), cod_rapporto: undefined },
      mov('bad-4', { valuta: 'CHF' }),
      mov('bad-5', { importo: 10.555, controparte_paese: 'XX', data_valuta: '10/03/2026' }),
      mov('bad-6', { importo_eur: 99 }),
      mov('bad-7', { data_operazione: '2999-01-01' }),
    ] });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.headers.get('content-type')?.startsWith('application/problem+json'), true);
    assert.deepEqual(paths(r), [
      'movimenti.1.importo', 'movimenti.2.data_operazione', 'movimenti.2.segno', 'movimenti.3.chiave_esterna', 'movimenti.3.cod_rapporto',
      'movimenti.4.importo_eur', 'movimenti.5.controparte_paese', 'movimenti.5.data_valuta', 'movimenti.5.importo', 'movimenti.6.importo_eur',
      'movimenti.7.data_operazione',
    ]);
    assert.ok(r.body.errors.every((e: { message: string }) => e.message && !/expected|invalid input/i.test(e.message)), JSON.stringify(r.body.errors));
    assert.equal(await count(), before);

    const single = await analyst.post('/api/movimenti', mov('bad-single', { importo: 0 }));
    assert.equal(single.status, 422);
    assert.deepEqual(paths(single), ['movimenti.0.importo'], 'one movement is a batch of one');
    const tooMany = await analyst.post('/api/movimenti', { movimenti: Array.from({ length: 1_001 }, (_, i) => mov(`many-${i}`)) });
    assert.equal(tooMany.status, 422);
    assert.deepEqual(paths(tooMany), ['movimenti']);
    assert.equal((await analyst.post('/api/movimenti', { movimenti: [] })).status, 422);
    assert.equal((await analyst.post('/api/movimenti', { movimenti: 'x' })).status, 422);
  });

  it('refuses relationships and subjects that are not the tenant\'s (422 by item), including another tenant\'s', async () => {
    const before = await count();
    const r = await analyst.post('/api/movimenti', { movimenti: [
      mov('ref-0'), mov('ref-1', { cod_rapporto: 'RAP-9' }), mov('ref-2', { cod_rapporto: 'RAP-404' }),
      mov('ref-3', { cod_anagrafe: 'ANA-2' }), mov('ref-4', { cod_rapporto: 'RAP-2', cod_anagrafe: 'ANA-2' }),
    ] });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(paths(r), ['movimenti.1.cod_rapporto', 'movimenti.2.cod_rapporto', 'movimenti.3.cod_anagrafe']);
    assert.match(r.body.errors.find((e: { path: string }) => e.path === 'movimenti.1.cod_rapporto').message, /RAP-9 non trovato/);
    assert.equal(await count(), before, 'nothing of the batch written');

    // The other tenant's analyst sees none of this tenant's movements and cannot write to its relationships.
    const theirs = await outsider.get('/api/movimenti?cod_rapporto=RAP-1');
    assert.equal(theirs.status, 200);
    assert.equal(theirs.body.items.length, 0);
    const cross = await outsider.post('/api/movimenti', mov('cross-1'));
    assert.equal(cross.status, 422);
    assert.deepEqual(paths(cross), ['movimenti.0.cod_rapporto']);
    // Keys are per tenant: the same key in another tenant is another movement.
    const own = await outsider.post('/api/movimenti', mov('single-1', { cod_rapporto: 'RAP-9' }));
    assert.equal(own.status, 201, own.text);
  });

  it('lets staff read and only operators, the officer and admins write', async () => {
    assert.equal((await viewer.get('/api/movimenti')).status, 200);
    assert.equal((await auditor.get('/api/movimenti')).status, 200);
    assert.equal((await viewer.post('/api/movimenti', mov('viewer-1'))).status, 403);
    assert.equal((await auditor.post('/api/movimenti', mov('auditor-1'))).status, 403);
    assert.equal((await env.client().get('/api/movimenti')).status, 401);
  });

  it('writes a movement in a month that has no partition yet, and the partition cannot be read around the policy', async () => {
    const month = "movimenti_partizioni.movimenti_2003_05";
    assert.equal((await env.ownerDb.raw('select to_regclass(?) as t', [month])).rows[0].t, null, 'the month starts without a partition');
    const r = await analyst.post('/api/movimenti', mov('old-1', { data_operazione: '2003-05-10', data_valuta: '2003-05-11' }));
    assert.equal(r.status, 201, r.text);
    assert.notEqual((await env.ownerDb.raw('select to_regclass(?) as t', [month])).rows[0].t, null);
    const found = await viewer.get('/api/movimenti?dal=2003-05-01&al=2003-05-31');
    assert.deepEqual(found.body.items.map((m: { chiave_esterna: string }) => m.chiave_esterna), ['old-1']);

    // The application role reaches movements only through movimenti (its policy): never a partition by name.
    await assert.rejects(withTenant(env.deps.db, { codAzienda: tenant }, (trx) => trx.raw(`select * from ${month}`)), /permission denied/);
    await assert.rejects(withTenant(env.deps.db, { codAzienda: other }, (trx) => trx.raw(`select * from ${month}`)), /permission denied/);
    // The definer function makes months, nothing else: not outside the table's range.
    await assert.rejects(withTenant(env.deps.db, { codAzienda: tenant }, (trx) => trx.raw("select movimenti_ensure_partitions(array[date '1850-01-01'])")), /outside/);
    const rls = await env.ownerDb.raw("select relrowsecurity from pg_class where oid = to_regclass(?)", [month]);
    assert.equal(rls.rows[0].relrowsecurity, true);
  });

  it('creates a new month once when many writers need it at the same moment', async () => {
    const month = 'movimenti_partizioni.movimenti_2004_08';
    const writers = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      analyst.post('/api/movimenti', { movimenti: [mov(`race-${i}`, { data_operazione: `2004-08-${String(i + 1).padStart(2, '0')}` }), mov('race-shared', { data_operazione: '2004-08-20' })] })));
    assert.deepEqual(writers.map((w) => w.status), [201, 201, 201, 201, 201, 201], writers.map((w) => w.text).join('\n'));
    assert.equal(writers.reduce((n, w) => n + w.body.inseriti, 0), 7, 'six own keys and the shared one once');
    assert.equal(new Set(writers.map((w) => w.body.movimenti[1].id)).size, 1, 'every writer names the same holder of the shared key');
    assert.notEqual((await env.ownerDb.raw('select to_regclass(?) as t', [month])).rows[0].t, null);
    assert.equal(await count({ chiave_esterna: 'race-shared' }), 1);
  });

  it('filters by customer, relationship, dates, amount, cash and sign; sorts by date or amount; pages with the cursor', async () => {
    const batch = Array.from({ length: 30 }, (_, i) => mov(`list-${i}`, {
      cod_rapporto: i % 3 === 0 ? 'RAP-2' : 'RAP-1', data_operazione: `2025-${String(1 + (i % 12)).padStart(2, '0')}-15`,
      importo: 100 * (i + 1), segno: i % 2 ? 'uscita' : 'entrata', contanti: i % 5 === 0,
    }));
    assert.equal((await analyst.post('/api/movimenti', { movimenti: batch })).status, 201);
    const keys = async (q: string, range = 'dal=2025-01-01&al=2025-12-31') => {
      const r = await viewer.get(`/api/movimenti?${range}&limit=200&${q}`);
      assert.equal(r.status, 200, r.text);
      return r.body.items.map((m: { chiave_esterna: string }) => m.chiave_esterna).sort() as string[];
    };
    const expected = (f: (i: number) => boolean) => batch.filter((_, i) => f(i)).map((m) => m.chiave_esterna).sort();
    assert.deepEqual(await keys(''), expected(() => true));
    assert.deepEqual(await keys('cod_rapporto=RAP-2'), expected((i) => i % 3 === 0));
    assert.deepEqual(await keys('cod_anagrafe=ANA-2'), expected((i) => i % 3 === 0));
    assert.deepEqual(await keys('importo_min=1000&importo_max=2000'), expected((i) => 100 * (i + 1) >= 1000 && 100 * (i + 1) <= 2000));
    assert.deepEqual(await keys('contanti=true'), expected((i) => i % 5 === 0));
    assert.deepEqual(await keys('contanti=false&segno=uscita'), expected((i) => i % 5 !== 0 && i % 2 === 1));
    assert.deepEqual(await keys('', 'dal=2025-01-01&al=2025-02-28'), expected((i) => i % 12 < 2));

    const byDate = (await viewer.get('/api/movimenti?dal=2025-01-01&al=2025-12-31&limit=200')).body.items as { data_operazione: string }[];
    assert.deepEqual(byDate.map((m) => m.data_operazione), [...byDate.map((m) => m.data_operazione)].sort().reverse(), 'newest first by default');
    const byAmount = (await viewer.get('/api/movimenti?dal=2025-01-01&al=2025-12-31&sort=importo&limit=200')).body.items as { importo_eur: number }[];
    assert.deepEqual(byAmount.map((m) => m.importo_eur), [...byAmount.map((m) => m.importo_eur)].sort((a, b) => a - b));

    // Cursor pages cover the range once each, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { chiave_esterna: string }[]; next_cursor: string | null } } =
        await viewer.get(`/api/movimenti?dal=2025-01-01&al=2025-12-31&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.items.map((m) => m.chiave_esterna));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual([...seen].sort(), expected(() => true));
    assert.equal(new Set(seen).size, seen.length);
  });

  it('refuses bad filters and cursors with a 422 naming the parameter', async () => {
    for (const [q, path] of [['dal=2025-13-01', 'dal'], ['dal=2025-06-01&al=2025-01-01', 'al'], ['importo_min=-3', 'importo_min'], ['segno=dare', 'segno'],
      ['contanti=forse', 'contanti'], ['sort=causale', 'sort'], ['importo_min=500&importo_max=100', 'importo_max']] as const) {
      const r = await viewer.get(`/api/movimenti?${q}`);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
      assert.deepEqual(paths(r), [path], q);
    }
    const tampered = Buffer.from(JSON.stringify({ s: '-data_operazione', d: 'a', k: ['2025-99-99', '00000000-0000-4000-8000-000000000000'] })).toString('base64url');
    const r = await viewer.get(`/api/movimenti?cursor=${tampered}`);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(paths(r), ['cursor']);
  });

  it('gives the customer file its latest movements and monthly volumes (index functions)', async () => {
    await analyst.post('/api/movimenti', { movimenti: [
      mov('vol-1', { cod_rapporto: 'RAP-2', data_operazione: '2026-10-05', importo: 100, segno: 'entrata' }),
      mov('vol-2', { cod_rapporto: 'RAP-2', data_operazione: '2026-10-20', importo: 40, segno: 'uscita', contanti: true }),
      mov('vol-3', { cod_rapporto: 'RAP-2', data_operazione: '2026-08-01', importo: 7.5, segno: 'uscita' }),
    ] });
    await withTenant(env.deps.db, { codAzienda: tenant }, async (trx) => {
      const volumes = await movementsMonthlyVolumes(trx, 'ANA-2', 4, new Date('2026-11-15T12:00:00Z'));
      assert.deepEqual(volumes, [
        { mese: '2026-08', entrate: 0, uscite: 7.5, contanti: 0, numero: 1 },
        { mese: '2026-09', entrate: 0, uscite: 0, contanti: 0, numero: 0 },
        { mese: '2026-10', entrate: 100, uscite: 40, contanti: 40, numero: 2 },
        { mese: '2026-11', entrate: 0, uscite: 0, contanti: 0, numero: 0 },
      ]);
      const recent = await recentMovements(trx, 'ANA-2', 2);
      assert.deepEqual(recent.map((m) => m.chiave_esterna), ['vol-2', 'vol-1']);
    });
    // Another tenant's transaction sees none of them.
    await withTenant(env.deps.db, { codAzienda: other }, async (trx) => {
      assert.deepEqual(await recentMovements(trx, 'ANA-2', 5), []);
    });
  });
});

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Subplans Removed'?: number; Plans?: PlanNode[] }
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];
const isPartition = (n: PlanNode) => /^movimenti_\d{4}_\d{2}$/.test(n['Relation Name'] ?? '');

/**
 * The plans on a seeded table (20,000 movements in the tenant read, 40,000 in two others, over two
 * dozen monthly partitions), explained as the application role in a tenant transaction: a date range
 * reads only its months' partitions, every read goes through an index, the default order needs no sort.
 */
describe('movements query plans (seeded, partitioned)', function () {
  this.timeout(300_000);
  let p: PlanDb;

  before(async () => {
    p = await startPlanDb();
    await seedTenants(p.owner);
    await LIST_SEEDS.movements!(p.owner);
    await p.owner.raw('analyze');
  });
  after(async () => { await p?.stop(); });

  async function explain(build: (trx: Knex) => Knex.QueryBuilder): Promise<PlanNode[]> {
    return withTenant(p.db, { codAzienda: BIG_TENANT }, async (trx) => {
      const { sql, bindings } = build(trx).toSQL();
      const [{ 'QUERY PLAN': [plan] }] = (await trx.raw(`explain (format json) ${sql}`, bindings)).rows as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
      if (process.env.MOV_PLANS_VERBOSE) console.log(JSON.stringify(plan!.Plan, (k, v) => (['Plans', 'Node Type', 'Relation Name', 'Index Name', 'Total Cost', 'Plan Rows', 'Sort Key', 'Filter', 'Index Cond'].includes(k) || /^\d+$/.test(k) || k === '' ? v : undefined)));
      return nodesOf(plan!.Plan);
    });
  }
  const months = (nodes: PlanNode[]) => [...new Set(nodes.filter(isPartition).map((n) => n['Relation Name']!))].sort();
  const scans = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);
  const monthOf = (offset: number) => {
    const d = new Date();
    const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
    return { first: m.toISOString().slice(0, 10), name: `movimenti_${m.toISOString().slice(0, 7).replace('-', '_')}` };
  };

  it('a date range reads only its months, through an index; the whole list reads in index order', async () => {
    const from = monthOf(-3);
    const to = monthOf(-2);
    const lastDay = new Date(Date.UTC(Number(to.first.slice(0, 4)), Number(to.first.slice(5, 7)), 0)).toISOString().slice(0, 10);
    for (const filters of [{}, { cod_anagrafe: 'MOVANA-00007' }, { cod_rapporto: 'MOVRAP-00007' }, { contanti: true }, { importo_min: 9_000 }]) {
      for (const sort of ['-data_operazione', 'importo']) {
        const req = listMovementsQuery.parse({ dal: from.first, al: lastDay, sort, ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)])) });
        const nodes = await explain((trx) => listPageQuery(trx, movementsList, tenantScope(BIG_TENANT), req));
        assert.deepEqual(months(nodes), [from.name, to.name], `${JSON.stringify(filters)} ${sort}: partitions pruned to the range`);
        assert.deepEqual(scans(nodes), [], `${JSON.stringify(filters)} ${sort}: no sequential scan`);
        assert.ok(nodes.some((n) => isPartition(n) && /Index/.test(n['Node Type'])), `${JSON.stringify(filters)} ${sort}: an index read`);
      }
    }
    const all = await explain((trx) => listPageQuery(trx, movementsList, tenantScope(BIG_TENANT), listMovementsQuery.parse({})));
    assert.deepEqual(scans(all), []);
    assert.ok(!all.some((n) => n['Node Type'] === 'Sort'), 'newest first straight from the indexes, partitions in order');
    assert.ok(months(all).length > 20, 'without a range every month may be read');
  });

  it('the customer file\'s reads use the customer\'s index; the volumes read only their months', async () => {
    const volumes = await explain((trx) => monthlyVolumesQuery(trx, 'MOVANA-00007', 3));
    assert.deepEqual(months(volumes), [monthOf(-2).name, monthOf(-1).name, monthOf(0).name]);
    assert.deepEqual(scans(volumes), []);
    assert.ok(volumes.some((n) => /movimenti_tenant_anagrafe_data|anagrafe/.test(n['Index Name'] ?? '')), 'the customer\'s index');
    const recent = await explain((trx) => recentMovementsQuery(trx, 'MOVANA-00007', 10));
    assert.deepEqual(scans(recent), []);
    assert.ok(!recent.some((n) => n['Node Type'] === 'Sort'), 'the latest movements straight from the index');
  });
});
