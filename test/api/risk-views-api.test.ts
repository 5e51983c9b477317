import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { seedRiskPortfolio } from '../helpers/risk-views-fixture';

/**
 * The portfolio's read API (portfolio, distribution, heatmap, matrix and its cells) on a seeded
 * portfolio: every figure computed by hand from test/helpers/risk-views-fixture.ts. Another
 * tenant holds the same customers: none of them is ever counted.
 */
describe('risk views API: portfolio, distribution, heatmap, matrix', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let analystUser: TestUser;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    analystUser = await env.createUser({ tenant, roles: ['analyst'] });
    [analyst, viewer, outsider] = await Promise.all([
      env.login(analystUser),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    await seedRiskPortfolio(env.ownerDb, tenant, { overrideBy: analystUser.cod_utente });
    // The other tenant: the same customers, and more of them in the highest cell.
    await seedRiskPortfolio(env.ownerDb, other, { overrideBy: analystUser.cod_utente });
    await env.ownerDb('rischio_correnti').where({ cod_azienda: other }).update({ probabilita: 4, impatto: 4, classe_effettiva: 'alto' });
  });

  it('GET /api/risk/portfolio counts customers by class in force, segment and country, the average score and the never assessed', async () => {
    const r = await viewer.get('/api/risk/portfolio');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.per_classe, { basso: 3, medio: 1, medio_alto: 2, alto: 2 }, 'the override in force counts (ANA-RV0007 is high), the deleted customer does not');
    assert.equal(r.body.valutati, 8);
    assert.equal(r.body.totale_clienti, 10);
    assert.equal(r.body.mai_valutati, 2);
    assert.equal(r.body.punteggio_medio, 22.6);
    const seg = Object.fromEntries(r.body.per_segmento.map((s: { segmento: string }) => [s.segmento, s]));
    assert.deepEqual(seg.persona_fisica, { segmento: 'persona_fisica', totale: 4, per_classe: { basso: 3, medio: 0, medio_alto: 1, alto: 0 } });
    assert.deepEqual(seg.societa.per_classe, { basso: 0, medio: 0, medio_alto: 1, alto: 2 });
    assert.equal(seg.ditta_individuale.totale, 1);
    assert.deepEqual(r.body.per_paese[0], { paese: 'IT', totale: 4, per_classe: { basso: 2, medio: 1, medio_alto: 1, alto: 0 } }, 'the largest country first');
    assert.deepEqual(r.body.per_paese.map((p: { paese: string }) => p.paese).sort(), ['AE', 'DE', 'FR', 'IR', 'IT']);
  });

  it('GET /api/risk/portfolio/distribution gives the score bands and the classes at each month end of the last 24 months', async () => {
    const r = await analyst.get('/api/risk/portfolio/distribution');
    assert.equal(r.status, 200, r.text);
    const bands = Object.fromEntries(r.body.fasce.map((f: { label: string; clienti: number }) => [f.label, f.clienti]));
    assert.equal(r.body.fasce.length, 12);
    assert.deepEqual(bands, {
      'meno di 0': 1, '0–9': 1, '10–19': 2, '20–29': 1, '30–39': 2, '40–49': 0, '50–59': 0, '60–69': 1, '70–79': 0, '80–89': 0, '90–99': 0, '100 e oltre': 0,
    });
    const months = r.body.mesi as { mese: string; per_classe: Record<string, number>; totale: number }[];
    assert.equal(months.length, 24);
    assert.ok(months[0]!.mese < months[23]!.mese, 'oldest first');
    const at = (ago: number) => months[23 - ago]!;
    assert.deepEqual(at(0).per_classe, { basso: 3, medio: 2, medio_alto: 2, alto: 1 }, 'this month: the calculated classes of the latest scores');
    assert.deepEqual(at(3).per_classe, { basso: 0, medio: 2, medio_alto: 0, alto: 0 }, 'three months ago: two customers scored medium then');
    assert.deepEqual(at(4).per_classe, { basso: 0, medio: 1, medio_alto: 0, alto: 0 }, 'a class is carried forward to later month ends');
    assert.equal(at(6).totale, 0, 'nobody was scored six months ago');
  });

  it('GET /api/risk/portfolio/heatmap counts segment × class and country × class', async () => {
    const r = await analyst.get('/api/risk/portfolio/heatmap');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.classi, ['basso', 'medio', 'medio_alto', 'alto']);
    const ir = r.body.paesi.find((p: { paese: string }) => p.paese === 'IR');
    assert.deepEqual(ir.per_classe, { basso: 0, medio: 0, medio_alto: 0, alto: 1 });
    const total = r.body.segmenti.reduce((s: number, x: { totale: number }) => s + x.totale, 0);
    assert.equal(total, 8);
  });

  it('GET /api/risk/matrix counts customers by probability and impact', async () => {
    const r = await analyst.get('/api/risk/matrix');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.celle, [[2, 1, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 0, 0, 2]]);
    assert.equal(r.body.totale, 8);
  });

  it('GET /api/risk/matrix/:p/:i lists a cell\'s customers by score with a cursor, and refuses a cell outside 1..4', async () => {
    const first = await analyst.get('/api/risk/matrix/4/4?limit=1');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.items.map((c: { cod_anagrafe: string }) => c.cod_anagrafe), ['ANA-RV0005'], 'highest score first');
    assert.equal(first.body.total, 2, 'the other tenant\'s customers in the same cell are not counted');
    assert.equal(first.body.probabilita, 4);
    assert.ok(first.body.next_cursor);
    const second = await analyst.get(`/api/risk/matrix/4/4?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body.items.map((c: { cod_anagrafe: string; classe: string; classe_calcolata: string }) => [c.cod_anagrafe, c.classe, c.classe_calcolata]), [['ANA-RV0007', 'alto', 'medio']]);
    assert.equal(second.body.next_cursor, null);
    const byCode = await analyst.get('/api/risk/matrix/1/1?sort=cod_anagrafe');
    assert.deepEqual(byCode.body.items.map((c: { cod_anagrafe: string }) => c.cod_anagrafe), ['ANA-RV0001', 'ANA-RV0008']);
    const search = await analyst.get('/api/risk/matrix/1/1?q=esposito');
    assert.deepEqual(search.body.items.map((c: { cod_anagrafe: string }) => c.cod_anagrafe), ['ANA-RV0008']);
    const empty = await analyst.get('/api/risk/matrix/2/4');
    assert.equal(empty.body.total, 0);

    for (const bad of ['0/1', '5/1', '1/0', '1/5', 'a/2', '2/x', '1.5/2', '-1/2']) {
      const r = await analyst.get(`/api/risk/matrix/${bad}`);
      assert.equal(r.status, 400, `${bad}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
    }
    const badSort = await analyst.get('/api/risk/matrix/1/1?sort=denominazione');
    assert.equal(badSort.status, 422);
    const badLimit = await analyst.get('/api/risk/matrix/1/1?limit=0');
    assert.equal(badLimit.status, 422);
  });

  it('another tenant sees only its own portfolio', async () => {
    const m = await outsider.get('/api/risk/matrix');
    assert.equal(m.status, 200);
    assert.deepEqual(m.body.celle, [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]]);
    const cell = await outsider.get('/api/risk/matrix/1/1');
    assert.equal(cell.body.total, 0);
  });

  it('needs a staff session', async () => {
    const anon = env.client();
    for (const path of ['/api/risk/portfolio', '/api/risk/portfolio/distribution', '/api/risk/portfolio/heatmap', '/api/risk/matrix', '/api/risk/matrix/1/1']) {
      const r = await anon.get(path);
      assert.equal(r.status, 401, path);
    }
  });
});
