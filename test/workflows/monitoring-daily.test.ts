import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, seedCustomers } from '../helpers/monitoring-fixture';
import { cashRule, insertMovements, waitForRun } from '../helpers/monitoring-runs';
import { lastClosedDay } from '../../src/domains/monitoring/runs/runs.commands';
import {
  MONITORING_DAILY_SWEEP_WORKFLOW_TYPE, MONITORING_DAILY_WORKFLOW_TYPE, monitoringDailyWorkflowId, type MonitoringDailyInput,
} from '../../workflows/monitoring-runs/monitoring-runs.contract';

const DAY = '2026-03-15';

/**
 * The daily batch (docs/monitoring.md, "Daily batch") on the real worker and the engine's queue: a
 * tenant's closed day in chunks of customers (batches of one customer here, so the position moves
 * and every chunk commits on its own), the events real time did not decide (and only those), the
 * close of the day (daily rules, peer medians computed first), progress in monitoring_esecuzioni;
 * the same day again adds nothing. The Schedule's sweep starts one per active tenant.
 */
describe('monitoring daily batch (monitoring-daily:<cod_azienda>:<giorno>)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;
  let analyst: TestClient;
  let realTimeId: string;

  const start = async (input: Partial<MonitoringDailyInput> = {}) => {
    const handle = await env.temporal.workflow.start(MONITORING_DAILY_WORKFLOW_TYPE, {
      workflowId: monitoringDailyWorkflowId(tenant, DAY), taskQueue: env.deps.config.temporal.taskQueue,
      args: [{ codAzienda: tenant, giorno: DAY, requestedBy: 'test', engineTaskQueue: env.deps.config.temporal.engineTaskQueue, batchSize: 1, ...input }],
    });
    return handle.result() as Promise<{ runId: string; stato: string }>;
  };
  const count = async (table: string, where: Record<string, unknown>) =>
    Number((await env.ownerDb(table).where({ cod_azienda: tenant, ...where }).count('* as n'))[0]!.n);

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 6, 0);
    [co, analyst] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
    ]);
    const rules = [
      cashRule('contanti_30g', 10_000),
      { ...cashRule('molte_operazioni', 0), nome: 'Tre operazioni in un giorno', tipologia: 'picco_velocita', ambito: 'giornaliero',
        condizione: { aggregato: { fn: 'count', finestra_giorni: 1 }, op: 'gte', valore: 3 } },
      { ...cashRule('sopra_i_pari', 0), nome: 'Volume tre volte i clienti simili', tipologia: 'picco_volume', ambito: 'giornaliero',
        condizione: { aggregato: { fn: 'peer_ratio', finestra_giorni: 30 }, op: 'gte', valore: 3 } },
    ];
    for (const body of rules) {
      const r = await co.post('/api/monitoring/rules', body);
      assert.equal(r.status, 201, r.text);
      await activateDraft(env, tenant, r.body.bozza.id);
    }
    // C-1 decided in real time first (posted through the API) ...
    const posted = await analyst.post('/api/movimenti', { cod_rapporto: 'R-1', data_operazione: DAY, importo: 6_000, segno: 'entrata', contanti: true, chiave_esterna: 'rt-daily-1' });
    assert.equal(posted.body.movimenti[0].decisione.stato, 'valutata', posted.text);
    realTimeId = posted.body.movimenti[0].id;
    // ... then the day's imported movements, which no one evaluated: C-1 reaches 10,500 in cash with three operations, C-6 moves
    // 20,000 while four of their peers move 1,000 each (both over three times the group's median).
    await insertMovements(env.ownerDb, tenant, [
      { cod: 'C-1', day: DAY, importo: 2_500 }, { cod: 'C-1', day: DAY, importo: 2_000 },
      { cod: 'C-2', day: DAY, importo: 1_000 }, { cod: 'C-3', day: DAY, importo: 1_000 }, { cod: 'C-4', day: DAY, importo: 1_000 },
      { cod: 'C-5', day: DAY, importo: 1_000, contanti: false }, { cod: 'C-6', day: DAY, importo: 20_000, contanti: false },
      { cod: 'C-6', day: '2026-03-16', importo: 50_000 },
    ]);
  });

  it('evaluates the day\'s pending events and the close of the day in resumable chunks, with its progress', async () => {
    const result = await start();
    assert.equal(result.stato, 'completed');
    const run = await waitForRun(co, result.runId);
    assert.deepEqual([run.tipo, run.giorno, run.totale, run.elaborati, run.eventi], ['giornaliero', DAY, 6, 6, 8]);
    assert.equal(run.posizione, undefined, 'the position is internal');
    // 7 imported events of the day (the real-time one left alone) and a close of the day for each of the 6 customers.
    assert.equal(run.decisioni, 13);
    assert.equal(await count('monitoring_decisioni', { giorno: DAY, tipo: 'evento', origine: 'giornaliero' }), 7);
    assert.equal(await count('monitoring_decisioni', { evento_id: realTimeId }), 1, 'the real-time decision is the only one on that movement');
    assert.equal(await count('monitoring_decisioni', { giorno: DAY, tipo: 'giornaliera' }), 6);
    assert.equal(await count('monitoring_decisioni', { giorno: '2026-03-16' }), 0, 'the next day is not this run\'s');
    // The peer medians of the day: C-6 is 20 times the median of its group (the 1,000 of the others).
    const peers = await env.ownerDb('monitoring_statistiche_pari').where({ cod_azienda: tenant, giorno: DAY }).first();
    assert.equal(peers.clienti, 6);
    assert.deepEqual(Object.values(Object.values(peers.mediane as Record<string, Record<string, number>>)[0]!), [1_000]);
    const alerts = await env.ownerDb('monitoring_alert').where({ cod_azienda: tenant }).orderBy('cod_regola').select('cod_regola', 'cod_anagrafe', 'origine', 'data_rilevazione');
    assert.deepEqual(alerts.map((a) => [a.cod_regola, a.cod_anagrafe, a.origine]), [
      ['contanti_30g', 'C-1', 'giornaliero'], ['molte_operazioni', 'C-1', 'giornaliero'], ['sopra_i_pari', 'C-1', 'giornaliero'], ['sopra_i_pari', 'C-6', 'giornaliero'],
    ]);
    for (const a of alerts) assert.equal(new Date(a.data_rilevazione).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' }), DAY, 'dated the closed day');
    assert.equal(run.alert_nuovi, 4);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'monitoring_run', entity_id: result.runId }).pluck('action');
    assert.deepEqual(audit.sort(), ['monitoring.run.finish', 'monitoring.run.start']);
  });

  it('run again for the same day, decides and raises nothing twice', async () => {
    const decisions = await count('monitoring_decisioni', {});
    const hits = await count('monitoring_alert_riscontri', {});
    const result = await start();
    const run = await waitForRun(co, result.runId);
    assert.deepEqual([run.stato, run.elaborati, run.decisioni, run.alert_nuovi, run.alert_aggiornati], ['completed', 6, 0, 0, 0]);
    assert.equal(await count('monitoring_decisioni', {}), decisions);
    assert.equal(await count('monitoring_alert_riscontri', {}), hits);
  });

  it('decides a KYT event left pending (its evaluation failed) when the day is run again, and names the decision on the event', async () => {
    const id = randomUUID();
    await env.ownerDb('kyt_eventi').insert({
      id, cod_azienda: tenant, chain: 'ethereum', hash: `0x${'cd'.repeat(32)}`, direzione: 'entrata', indirizzo_da: `0x${'1'.repeat(40)}`, indirizzo_a: `0x${'2'.repeat(40)}`,
      asset: 'ETH', importo: '1', importo_eur: 900, data_ora: `${DAY}T09:00:00Z`, giorno: DAY, ora: '10:00:00', cod_anagrafe: 'C-2', risolto_da: 'wallet', created_by: 'test',
    });
    const run = await waitForRun(co, (await start()).runId);
    assert.deepEqual([run.stato, run.decisioni], ['completed', 1]);
    const event = await env.ownerDb('kyt_eventi').where({ id }).first();
    const decision = await env.ownerDb('monitoring_decisioni').where({ cod_azienda: tenant, evento_id: id }).first();
    assert.deepEqual([decision.fonte_evento, decision.origine, event.cod_decisione], ['kyt', 'giornaliero', decision.cod_decisione]);
  });

  it('is started by the Schedule\'s sweep for every active tenant, once per closed day', async () => {
    const yesterday = lastClosedDay();
    const run = await env.temporal.workflow.execute(MONITORING_DAILY_SWEEP_WORKFLOW_TYPE, {
      workflowId: `monitoring-daily-sweep-test-${tenant}`, taskQueue: env.deps.config.temporal.taskQueue, args: [{ engineTaskQueue: env.deps.config.temporal.engineTaskQueue }],
    }) as { giorno: string; avviati: string[]; gia_presenti: string[] };
    assert.equal(run.giorno, yesterday);
    assert.ok(run.avviati.includes(tenant) || run.gia_presenti.includes(tenant));
    const row = await env.ownerDb('monitoring_esecuzioni').where({ cod_azienda: tenant, tipo: 'giornaliero', giorno: yesterday }).first();
    assert.equal(row.stato, 'completed');
    assert.equal(row.workflow_id, monitoringDailyWorkflowId(tenant, yesterday));
  });

  it('lets an operator run a closed day again through the API, and refuses a day not closed', async () => {
    const ok = await co.post('/api/monitoring/giornaliera', { giorno: DAY });
    assert.equal(ok.status, 202, ok.text);
    assert.equal(ok.body.workflow_id, monitoringDailyWorkflowId(tenant, DAY));
    await env.temporal.workflow.getHandle(ok.body.workflow_id).result();
    const future = await co.post('/api/monitoring/giornaliera', { giorno: '2099-01-01' });
    assert.equal(future.status, 409, future.text);
    const bad = await co.post('/api/monitoring/giornaliera', { giorno: '2026-02-30' });
    assert.equal(bad.status, 422, bad.text);
    assert.equal((await analyst.post('/api/monitoring/giornaliera', { giorno: DAY })).status, 403);
  });
});
