import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { seedCustomers } from '../helpers/monitoring-fixture';
import { cashRule, insertMovements, waitForRun } from '../helpers/monitoring-runs';
import { releaseWorkflowId } from '../../workflows/monitoring-release/monitoring-release.contract';

const PERIOD = { dal: '2025-06-01', al: '2025-12-31' };

/**
 * Backtest and release gates (docs/monitoring.md, "Rules, versions and release gates"): a draft is
 * backtested over the stored history side by side with the version in force; it goes into force
 * only through its release workflow (`monitoring-release:<cod_azienda>:<version id>`), approved by
 * a second person, and only when the gates pass at that moment: a backtest of this exact draft, its
 * alert volume within the tenant's tolerance.
 */
describe('monitoring backtest and release gates (monitoring-backtest, monitoring-release)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co1: TestClient, co2: TestClient, admin: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;
  let ruleId: string;

  const backtest = async (over: Record<string, unknown> = PERIOD) => {
    const r = await co1.post(`/api/monitoring/rules/${ruleId}/backtest`, over);
    assert.equal(r.status, 202, r.text);
    return waitForRun(viewer, r.body.id);
  };
  const gates = async () => (await viewer.get('/api/engine/release-gates')).body.items.find((g: { regola_id: string }) => g.regola_id === ruleId);

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 4, 0);
    [co1, co2, admin, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
    // C-1 and C-4 reach 10,000 in cash within 30 days; C-2 only 8,500; C-3 3,000.
    await insertMovements(env.ownerDb, tenant, [
      { cod: 'C-1', day: '2025-07-01', importo: 6_000 }, { cod: 'C-1', day: '2025-07-10', importo: 5_000 },
      { cod: 'C-2', day: '2025-08-01', importo: 4_500 }, { cod: 'C-2', day: '2025-08-05', importo: 4_000 },
      { cod: 'C-3', day: '2025-09-01', importo: 3_000 },
      { cod: 'C-4', day: '2025-10-01', importo: 12_000 },
    ]);
    const created = await co1.post('/api/monitoring/rules', cashRule('contanti_soglia', 10_000));
    assert.equal(created.status, 201, created.text);
    ruleId = created.body.id;
  });

  it('puts a new rule in force only with a backtest of it, its volume within the cap and a second person\'s approval', async () => {
    const draftId = (await viewer.get(`/api/monitoring/rules/${ruleId}`)).body.bozza.id;
    const asked = await co1.post(`/api/monitoring/rules/${ruleId}/rilascio`, { motivazione: 'Soglia mensile dei contanti' });
    assert.equal(asked.status, 202, asked.text);
    assert.deepEqual([asked.body.rilascio.stato, asked.body.rilascio.workflow_id], ['in_attesa', releaseWorkflowId(tenant, draftId)]);
    assert.deepEqual([asked.body.cancelli.backtest.ok, asked.body.cancelli.approvazione.stato, asked.body.cancelli.pronta], [false, 'in_attesa', false]);

    const self = await co1.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.deepEqual([self.status, self.body.code], [403, 'FOUR_EYES_REQUIRED']);
    assert.equal((await analyst.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {})).status, 403);
    const noBacktest = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.deepEqual([noBacktest.status, noBacktest.body.code, noBacktest.body.cancelli.backtest.ok], [409, 'RELEASE_GATES_NOT_MET', false]);

    const run = await backtest();
    assert.deepEqual([run.stato, run.totale, run.riepilogo.alert_bozza, run.riepilogo.alert_attiva, run.riepilogo.solo_bozza], ['completed', 4, 2, null, 2]);
    const days = run.backtest.per_giorno;
    assert.equal(days.giorni.length, 214);
    assert.deepEqual(days.giorni.filter((_: string, i: number) => days.bozza[i] > 0), ['2025-07-10', '2025-10-01']);
    assert.deepEqual(run.backtest.solo_bozza.map((c: { cod_anagrafe: string }) => c.cod_anagrafe), ['C-1', 'C-4']);

    // A new rule: at most 100 alerts a year per 10,000 customers, so none for 4 customers over 7 months.
    const overCap = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.deepEqual([overCap.status, overCap.body.cancelli.backtest.ok, overCap.body.cancelli.volume.ok, overCap.body.cancelli.volume.massimo], [409, true, false, 0]);
    const setting = await admin.put('/api/admin/settings', { chiave: 'monitoring.alert_max_nuova_regola', valore: 10_000 });
    assert.equal(setting.status, 200, setting.text);
    const approved = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, { motivazione: 'Backtest esaminato' });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.rilascio.stato, 'attivata');
    const rule = (await viewer.get(`/api/monitoring/rules/${ruleId}`)).body;
    assert.deepEqual([rule.attiva?.versione, rule.bozza], [1, null]);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'monitoring_rule', entity_id: ruleId }).orderBy('id').pluck('action');
    assert.deepEqual(audit.filter((a: string) => a.startsWith('monitoring.release') || a === 'monitoring.rule.activate'),
      ['monitoring.release.request', 'monitoring.rule.activate', 'monitoring.release.approve']);
    const again = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.deepEqual([again.status, again.body.code], [409, 'NO_DRAFT']);
  });

  it('backtests a new draft against the version in force: alerts per day on both sides and the customers only one side alerts', async () => {
    const edit = await co1.put(`/api/monitoring/rules/${ruleId}`, { condizione: cashRule('x', 8_000).condizione });
    assert.equal(edit.status, 200, edit.text);
    const run = await backtest();
    assert.deepEqual([run.riepilogo.alert_bozza, run.riepilogo.alert_attiva, run.riepilogo.solo_bozza, run.riepilogo.solo_attiva, run.riepilogo.entrambe], [3, 2, 1, 0, 2]);
    assert.deepEqual(run.backtest.solo_bozza.map((c: { cod_anagrafe: string; alert_bozza: number; alert_attiva: number }) => [c.cod_anagrafe, c.alert_bozza, c.alert_attiva]), [['C-2', 1, 0]]);
    assert.deepEqual(run.backtest.solo_attiva, []);
    const days = run.backtest.per_giorno;
    const at = (d: string) => days.giorni.indexOf(d);
    assert.deepEqual([days.bozza[at('2025-08-05')], days.attiva[at('2025-08-05')], days.bozza[at('2025-07-10')], days.attiva[at('2025-07-10')]], [1, 0, 1, 1]);
    const g = await gates();
    assert.deepEqual([g.backtest.ok, g.volume.ok, g.volume.alert_bozza, g.volume.alert_attiva, g.volume.minimo, g.volume.massimo, g.approvazione.stato, g.pronta],
      [true, true, 3, 2, 1, 3, 'non_richiesta', true]);
  });

  it('asks for the release again after a draft is changed: the old backtest no longer counts; a refusal needs its reason', async () => {
    await co1.put(`/api/monitoring/rules/${ruleId}`, { punteggio: 70 });
    assert.equal((await gates()).backtest.ok, false, 'the draft backtested is not the draft any more');
    // The rules API's activation asks for the release, nothing more.
    const viaRules = await co1.put(`/api/monitoring/rules/${ruleId}`, { azione: 'attiva' });
    assert.equal(viaRules.status, 200, viaRules.text);
    assert.equal(viaRules.body.attiva.versione, 1, 'still the version in force');
    assert.equal((await viewer.get(`/api/monitoring/rules/${ruleId}/rilascio`)).body.rilascio.stato, 'in_attesa');
    const stale = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.deepEqual([stale.status, stale.body.cancelli?.backtest.ok], [409, false]);
    const noReason = await co1.post(`/api/monitoring/rules/${ruleId}/rilascio/respingi`, {});
    assert.equal(noReason.status, 422);
    const refused = await co1.post(`/api/monitoring/rules/${ruleId}/rilascio/respingi`, { motivazione: 'Da rivedere dopo il nuovo backtest' });
    assert.deepEqual([refused.status, refused.body.rilascio.stato], [200, 'respinta']);
    const twice = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/respingi`, { motivazione: 'di nuovo' });
    assert.equal(twice.status, 409, twice.text);
    const noRequest = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.equal(noRequest.status, 409);

    await backtest();
    assert.equal((await co1.post(`/api/monitoring/rules/${ruleId}/rilascio`, {})).status, 202, 'asked again: a new run of the same workflow id');
    const approved = await co2.post(`/api/monitoring/rules/${ruleId}/rilascio/approva`, {});
    assert.equal(approved.status, 200, approved.text);
    const rule = (await viewer.get(`/api/monitoring/rules/${ruleId}`)).body;
    assert.deepEqual([rule.attiva.versione, rule.attiva.punteggio, rule.versioni.find((v: { versione: number }) => v.versione === 1).stato], [2, 70, 'ritirata']);
  });

  it('answers another tenant\'s rule as missing, a rule without a draft with 409, and bad input with 422', async () => {
    assert.equal((await outsider.post(`/api/monitoring/rules/${ruleId}/rilascio`, {})).status, 404);
    assert.equal((await outsider.post(`/api/monitoring/rules/${ruleId}/backtest`, PERIOD)).status, 404);
    assert.equal((await outsider.get(`/api/monitoring/rules/${ruleId}/rilascio`)).status, 404);
    assert.equal((await outsider.get('/api/engine/release-gates')).body.items.length, 0);
    const noDraft = await co1.post(`/api/monitoring/rules/${ruleId}/backtest`, PERIOD);
    assert.deepEqual([noDraft.status, noDraft.body.code], [409, 'NO_DRAFT']);
    assert.deepEqual([(await co1.post(`/api/monitoring/rules/${ruleId}/rilascio`, {})).status], [409]);
    const bad = await co1.post(`/api/monitoring/rules/${ruleId}/backtest`, { dal: '2025-12-01', al: '2025-01-01' });
    assert.equal(bad.status, 422);
    assert.equal((await analyst.post(`/api/monitoring/rules/${ruleId}/backtest`, PERIOD)).status, 403);
    assert.equal((await viewer.get(`/api/monitoring/rules/${ruleId}/rilascio`)).status, 404, 'no draft: no release to show');
  });
});
