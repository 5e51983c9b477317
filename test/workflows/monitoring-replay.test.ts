import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { finishRun, planPeriodRun, runChunk } from '../../src/domains/monitoring/runs/runs.lifecycle';
import { insertRun } from '../../src/domains/monitoring/runs/runs.repo';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, seedCustomers } from '../helpers/monitoring-fixture';
import { cashRule, insertMovements, waitForRun } from '../helpers/monitoring-runs';

const romeDay = (d: Date | string) => new Date(d).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

/**
 * Replay (docs/monitoring.md, "Replay"): a tenant that imported a year of history sees what
 * monitoring would have found. The active rules run over the stored period day by day per customer
 * (the engine's replay, on the engine's queue), each alert raised with origine `replay` and dated
 * the day it would have been raised; the same period again raises nothing twice; one replay at a
 * time; runs of another tenant do not exist.
 */
describe('monitoring replay (monitoring-replay:<cod_azienda>:<id>, /api/monitoring/replay)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;
  let runId: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 3, 0);
    [co, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    for (const body of [
      cashRule('contanti_30g', 10_000),
      { ...cashRule('molte_operazioni', 0), tipologia: 'picco_velocita', ambito: 'giornaliero', condizione: { aggregato: { fn: 'count', finestra_giorni: 1 }, op: 'gte', valore: 3 } },
    ]) {
      const r = await co.post('/api/monitoring/rules', body);
      await activateDraft(env, tenant, r.body.bozza.id);
    }
    // A year imported: C-1 reaches 10,500 in cash on 20 June, then 12,000 in three operations on 5 September; C-2 makes three
    // transfers on 1 August; C-3 only ordinary movements.
    await insertMovements(env.ownerDb, tenant, [
      { cod: 'C-1', day: '2025-06-01', importo: 4_000 }, { cod: 'C-1', day: '2025-06-10', importo: 3_500 }, { cod: 'C-1', day: '2025-06-20', importo: 3_000 },
      { cod: 'C-1', day: '2025-09-05', importo: 4_000 }, { cod: 'C-1', day: '2025-09-05', importo: 4_000 }, { cod: 'C-1', day: '2025-09-05', importo: 4_000 },
      { cod: 'C-2', day: '2025-08-01', importo: 900, contanti: false }, { cod: 'C-2', day: '2025-08-01', importo: 800, contanti: false },
      { cod: 'C-2', day: '2025-08-01', importo: 700, contanti: false },
      { cod: 'C-3', day: '2025-05-03', importo: 1_200, contanti: false }, { cod: 'C-3', day: '2025-11-03', importo: 1_200, contanti: false },
    ]);
  });

  it('raises what the rules would have found, each alert dated the day it would have been raised', async () => {
    const started = await co.post('/api/monitoring/replay', { dal: '2025-04-01', al: '2025-12-31' });
    assert.equal(started.status, 202, started.text);
    assert.equal(started.headers.get('location'), `/api/monitoring/esecuzioni/${started.body.id}`);
    assert.match(started.body.workflow_id, new RegExp(`^monitoring-replay:${tenant}:`));
    runId = started.body.id;
    const run = await waitForRun(viewer, runId);
    assert.deepEqual([run.stato, run.tipo, run.totale, run.elaborati, run.eventi, run.alert_nuovi], ['completed', 'replay', 3, 3, 11, 4]);
    const alerts = await env.ownerDb('monitoring_alert').where({ cod_azienda: tenant }).orderBy(['data_rilevazione', 'cod_regola'])
      .select('cod_regola', 'cod_anagrafe', 'origine', 'data_rilevazione', 'riscontri');
    assert.deepEqual(alerts.map((a) => [romeDay(a.data_rilevazione), a.cod_regola, a.cod_anagrafe, a.origine]), [
      ['2025-06-20', 'contanti_30g', 'C-1', 'replay'],
      ['2025-08-01', 'molte_operazioni', 'C-2', 'replay'],
      ['2025-09-05', 'contanti_30g', 'C-1', 'replay'],
      ['2025-09-05', 'molte_operazioni', 'C-1', 'replay'],
    ]);
    const behind = await env.ownerDb('monitoring_alert as a').join('monitoring_alert_movimenti as m', 'm.alert_id', 'a.id')
      .where({ 'a.cod_azienda': tenant, 'a.cod_regola': 'contanti_30g' }).orderBy('m.data_operazione').select(env.ownerDb.raw('m.data_operazione::text as d'));
    assert.deepEqual(behind.map((b: { d: string }) => b.d), ['2025-06-01', '2025-06-10', '2025-06-20', '2025-09-05', '2025-09-05', '2025-09-05'], 'the operations behind each alert');
    assert.equal(await env.ownerDb('monitoring_decisioni').where({ cod_azienda: tenant }).first(), undefined, 'a replay records alerts, not decisions');
  });

  it('raises nothing twice when the same period is replayed again', async () => {
    const again = await co.post('/api/monitoring/replay', { dal: '2025-01-01', al: '2025-12-31' });
    const run = await waitForRun(viewer, again.body.id);
    assert.deepEqual([run.stato, run.alert_nuovi, run.alert_aggiornati], ['completed', 0, 0]);
    assert.equal(Number((await env.ownerDb('monitoring_alert').where({ cod_azienda: tenant }).count('* as n'))[0]!.n), 4);
  });

  it('runs one replay at a time, stops on request, and lists the tenant\'s runs only', async () => {
    const fake = randomUUID();
    await env.ownerDb('monitoring_esecuzioni').insert({
      id: fake, cod_azienda: tenant, tipo: 'replay', stato: 'running', dal: '2025-01-01', al: '2025-01-31', workflow_id: `monitoring-replay:${tenant}:${fake}`, avviata_da: 'test',
    });
    const busy = await co.post('/api/monitoring/replay', { dal: '2025-01-01', al: '2025-01-31' });
    assert.deepEqual([busy.status, busy.body.running_id], [409, fake]);
    assert.equal((await outsider.post(`/api/monitoring/esecuzioni/${fake}/annulla`)).status, 404);
    assert.equal((await analyst.post(`/api/monitoring/esecuzioni/${fake}/annulla`)).status, 403);
    const cancelled = await co.post(`/api/monitoring/esecuzioni/${fake}/annulla`);
    assert.deepEqual([cancelled.status, cancelled.body.stato], [200, 'cancelled']);
    const twice = await co.post(`/api/monitoring/esecuzioni/${fake}/annulla`);
    assert.equal(twice.status, 409);
    const list = await viewer.get('/api/monitoring/esecuzioni?tipo=replay');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.items.map((r: { stato: string }) => r.stato), ['cancelled', 'completed', 'completed']);
    assert.equal((await viewer.get('/api/monitoring/esecuzioni?stato=finita')).status, 422);
    assert.equal((await outsider.get('/api/monitoring/esecuzioni')).body.items.length, 0);
    assert.equal((await outsider.get(`/api/monitoring/esecuzioni/${runId}`)).status, 404);
    assert.equal((await viewer.get('/api/monitoring/esecuzioni/non-un-id')).status, 404);
  });

  it('refuses a period that ends before it starts, a too long one, an impossible day and a caller who may not', async () => {
    const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();
    assert.deepEqual(paths(await co.post('/api/monitoring/replay', { dal: '2025-06-01', al: '2025-05-01' })), ['al']);
    assert.deepEqual(paths(await co.post('/api/monitoring/replay', { dal: '2020-01-01', al: '2025-05-01' })), ['al']);
    assert.deepEqual(paths(await co.post('/api/monitoring/replay', { dal: '2025-02-30', al: '2025-05-01' })), ['dal']);
    assert.deepEqual(paths(await co.post('/api/monitoring/replay', {})), ['al', 'dal']);
    assert.equal((await analyst.post('/api/monitoring/replay', { dal: '2025-01-01', al: '2025-01-31' })).status, 403);
  });
  it('reads the next batch while one is evaluated and written: batches of one customer raise the same alerts', async () => {
    const alerts = () => env.ownerDb('monitoring_alert').where({ cod_azienda: tenant }).orderBy(['data_rilevazione', 'cod_regola']).select(
      'cod_regola', 'cod_anagrafe', 'origine', 'data_rilevazione', 'riscontri', 'punteggio', 'evidenza', env.ownerDb.raw('finestra_da::text as da'), env.ownerDb.raw('finestra_a::text as a'));
    const first = await alerts();
    for (const table of ['monitoring_alert_movimenti', 'monitoring_alert_riscontri', 'monitoring_alert']) await env.ownerDb(table).where({ cod_azienda: tenant }).delete();
    const id = randomUUID();
    await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => insertRun(trx, {
      id, codAzienda: tenant, tipo: 'replay', dal: '2025-04-01', al: '2025-12-31', workflow_id: `monitoring-replay:${tenant}:${id}`, avviata_da: 'test',
    }));
    await planPeriodRun(env.deps.db, { codAzienda: tenant, runId: id });
    const beats: unknown[] = [];
    const r = await runChunk(env.deps.db, { codAzienda: tenant, runId: id, batchSize: 1, maxBatches: 10 }, { heartbeat: (d) => beats.push(d) });
    assert.deepEqual(r, { done: true, stopped: false });
    // The first batch reads its own input; the next ones were read while the one before was written.
    assert.deepEqual(beats, [0, 1, 2, 3].map((batch) => ({ batch, read_ahead: batch === 1 || batch === 2 })));
    await finishRun(env.deps.db, { codAzienda: tenant, runId: id, stato: 'completed' });
    const run = await viewer.get(`/api/monitoring/esecuzioni/${id}`);
    assert.deepEqual([run.body.elaborati, run.body.eventi, run.body.alert_nuovi], [3, 11, 4]);
    assert.deepEqual(await alerts(), first);
  });
});
