import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { seedRiskPortfolio, type SeededRisk } from '../helpers/risk-views-fixture';

const html = { accept: 'text/html' };

/**
 * The risk pages on a seeded portfolio: the overview, portfolio, heatmap, matrix and a cell, the
 * approvals and an assessment's page; another tenant's assessment is a 404, a cell outside 1..4 a 400,
 * and the approvals never offer an officer the confirmation of their own override.
 */
describe('risk views pages', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;
  let co2: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let coUser: TestUser;
  let seeded: SeededRisk;
  let foreign: SeededRisk;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    coUser = await env.createUser({ tenant, roles: ['co'] });
    [co, co2, viewer, outsider] = await Promise.all([
      env.login(coUser),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    seeded = await seedRiskPortfolio(env.ownerDb, tenant, { overrideBy: coUser.cod_utente });
    foreign = await seedRiskPortfolio(env.ownerDb, other, { overrideBy: coUser.cod_utente });
  });

  it('the overview shows the classes with links, what waits and the latest class changes', async () => {
    const r = await viewer.get('/rischio', html);
    assert.equal(r.status, 200, r.text.slice(0, 500));
    assert.match(r.text, /data-kpi="alto"[\s\S]*?>2 </, 'two customers high in force');
    assert.match(r.text, /href="\/anagrafe\?classe_rischio=alto"/);
    assert.match(r.text, new RegExp(`href="/rischio/${seeded.assessments.pending.cod}"`), 'the override waiting for confirmation');
    assert.match(r.text, new RegExp(`href="/rischio/${seeded.assessments.completed.cod}"`), 'the assessment waiting for release');
    assert.match(r.text, /data-section="cambi-classe"[\s\S]*Import Export Srl/);
    assert.match(r.text, /Il portafoglio non è ancora stato ricalcolato per intero/);
    for (const link of ['/rischio/matrice', '/rischio/heatmap', '/rischio/portfolio', '/rischio/scenari', '/rischio/configurazione']) assert.match(r.text, new RegExp(`href="${link}"`));
  });

  it('the portfolio and the heatmap draw their figures (the tables under the charts)', async () => {
    const p = await viewer.get('/rischio/portfolio', html);
    assert.equal(p.status, 200);
    assert.match(p.text, /data-kpi="mai_valutati">2</);
    assert.match(p.text, /id="grafico-portafoglio-mesi"/);
    assert.match(p.text, /id="grafico-portafoglio-fasce"/);
    const h = await viewer.get('/rischio/heatmap', html);
    assert.equal(h.status, 200);
    assert.match(h.text, /data-chart="heatmap"/);
    assert.match(h.text, /<th scope="row">Società<\/th>/);
  });

  it('the matrix links every cell with its count, and a cell lists its customers', async () => {
    const m = await viewer.get('/rischio/matrice', html);
    assert.equal(m.status, 200);
    assert.match(m.text, /data-cell="4-4"[\s\S]*?href="\/rischio\/matrice\/4\/4"[\s\S]*?>2</);
    assert.match(m.text, /data-cell="1-1"[\s\S]*?>2</);
    const c = await viewer.get('/rischio/matrice/4/4', html);
    assert.equal(c.status, 200);
    assert.match(c.text, /Gulf Trading FZE/);
    assert.match(c.text, /Import Export Srl/);
    assert.doesNotMatch(c.text, /Cliente Cancellato/);
    const bad = await viewer.get('/rischio/matrice/5/1', html);
    assert.equal(bad.status, 400);
  });

  it('the approvals page offers the confirmation to another officer only', async () => {
    const own = await co.get('/rischio/approvazioni', html);
    assert.equal(own.status, 200);
    assert.match(own.text, /data-own-request/);
    assert.doesNotMatch(own.text, /data-action="complete-override"/);
    const mineOnly = await co.get('/rischio/approvazioni?da_confermare=true', html);
    assert.match(mineOnly.text, /Nessuna modifica di classe da confermare/);
    const other = await co2.get('/rischio/approvazioni?da_confermare=true', html);
    assert.match(other.text, /data-action="complete-override"/);
    assert.match(other.text, /Alpen Handel GmbH/);
    const home = await co2.get('/', html);
    assert.match(home.text, /Modifiche di classe di rischio da confermare/);
  });

  it('an assessment page shows its state, diagram and explanation; another tenant\'s is not found', async () => {
    const r = await viewer.get(`/rischio/${seeded.assessments.pending.cod}`, html);
    assert.equal(r.status, 200, r.text.slice(0, 500));
    assert.match(r.text, /data-override/);
    assert.match(r.text, /Stato del processo/);
    assert.match(r.text, /data-chart="waterfall"/);
    assert.match(r.text, /Temporal Web UI/);
    const cross = await viewer.get(`/rischio/${foreign.assessments.pending.cod}`, html);
    assert.equal(cross.status, 404);
    const crossPost = await co2.submitForm(`/rischio/${foreign.assessments.pending.cod}/conferma-modifica`, {}, '/rischio/approvazioni');
    assert.equal(crossPost.status, 404);
    const unknown = await viewer.get('/rischio/VAL-999999999', html);
    assert.equal(unknown.status, 404);
    void outsider;
  });
});
