import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { seedMonitoringEvalPages } from '../helpers/monitoring-eval-pages-seed';
import { waitForRun } from '../helpers/monitoring-runs';

/**
 * The pages of monitoring's evaluation paths (docs/monitoring.md): the KYT alerts, a decision's
 * trace in Italian with the escalation of its KYT alert, a KYT event, a movement's decision (the
 * fragment its page loads), the runs with a replay's form, a backtest's comparison, the named lists
 * and their forms, a draft's release page. Bad input comes back with the message next to the field;
 * another tenant's records are 404.
 */
describe('monitoring evaluation pages (/kyt, /monitoraggio/esecuzioni, /monitoraggio/liste, release)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient, co2: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;
  let seed: Awaited<ReturnType<typeof seedMonitoringEvalPages>>;

  const html = async (c: TestClient, path: string, status = 200) => {
    const r = await c.get(path, { accept: 'text/html' });
    assert.equal(r.status, status, `${path}: ${r.status} ${r.text.slice(0, 400)}`);
    return r.text;
  };
  const form = async (c: TestClient, path: string, fields: Record<string, string>, from: string) => {
    const token = await c.csrfToken(from);
    return c.request('POST', path, { form: { _csrf: token, ...fields }, headers: { accept: 'text/html' } });
  };

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [co, co2, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    seed = await seedMonitoringEvalPages(env, tenant, co, analyst);
  });

  it('shows a decision\'s trace in Italian: every rule, fired or not, and what it read', async () => {
    const page = await html(viewer, `/kyt/decision/${seed.decisioneMovimento}`);
    assert.match(page, /data-rule="contanti_30g" data-fired="true"/);
    assert.match(page, /data-rule="kyt_lista_interna" data-fired="false"/);
    assert.match(page, /Il totale dei movimenti in contanti negli ultimi 30 giorni/);
    assert.match(page, /data-read="aggregato:[^"]+">11\.000,00\s€</, 'the 30-day cash total as Italian reads an amount');
    assert.match(page, /Scattata · Alert/);
    assert.match(page, /Lucia Ferri/);
    const fragment = await html(viewer, `/transazioni/${seed.movimento}/decisione`);
    assert.match(fragment, new RegExp(`data-decision="${seed.decisioneMovimento}"`));
    assert.doesNotMatch(fragment, /<html/);
    const movementPage = await html(viewer, `/transazioni/${seed.movimento}`);
    assert.match(movementPage, new RegExp(`data-decision>Decisione <a[^>]*href="/kyt/decision/${seed.decisioneMovimento}"`));
    assert.match(movementPage, /data-rule="contanti_30g" data-fired="true"/, 'the movement\'s page shows the trace');
    const alerts = await viewer.get(`/api/monitoring/alerts?cod_anagrafe=E-1`);
    const alertPage = await html(viewer, `/alert/${alerts.body.items[0].id}`);
    assert.match(alertPage, new RegExp(`data-trace>[\\s\\S]*data-decision="${seed.decisioneMovimento}"[\\s\\S]*data-rule="contanti_30g" data-fired="true"`), 'the alert\'s page shows the trace of its decision');
    await html(outsider, `/kyt/decision/${seed.decisioneMovimento}`, 404);
    await html(outsider, `/transazioni/${seed.movimento}/decisione`, 404);
    await html(viewer, '/kyt/decision/DEC-20260101-0000000000000', 404);
  });

  it('lists the KYT alerts, shows an event with its decision, and escalates the alert from the decision\'s page', async () => {
    const list = await html(viewer, '/kyt/alerts');
    assert.match(list, new RegExp(`href="/kyt/decision/${seed.decisioneKyt}"`));
    const event = await html(co, `/kyt/event/${seed.eventoKyt}`);
    assert.match(event, /Wallet del cliente \(onboarding\)/);
    assert.match(event, /In entrata \(il cliente riceve\)/);
    await html(outsider, `/kyt/event/${seed.eventoKyt}`, 404);
    await html(co, '/kyt/event/KYT-9999999', 404);

    const decision = await html(analyst, `/kyt/decision/${seed.decisioneKyt}`);
    assert.match(decision, /Escala in un caso/);
    assert.doesNotMatch(await html(viewer, `/kyt/decision/${seed.decisioneKyt}`), /Escala in un caso/, 'a viewer may not escalate');
    const refused = await form(analyst, `/kyt/escalate/${seed.decisioneKyt}`, { priorita: 'enorme' }, `/kyt/decision/${seed.decisioneKyt}`);
    assert.equal(refused.status, 422);
    assert.match(refused.text, /id="f-priorita-err"/);
    const done = await form(analyst, `/kyt/escalate/${seed.decisioneKyt}`, { motivazione: 'Controparte nella lista interna', priorita: 'alta' }, `/kyt/decision/${seed.decisioneKyt}`);
    assert.equal(done.status, 302, done.text);
    assert.match(done.headers.get('location') ?? '', /^\/casi\//);
    const again = await form(analyst, `/kyt/escalate/${seed.decisioneKyt}`, {}, `/kyt/decision/${seed.decisioneKyt}`);
    assert.equal(again.status, 409);
  });

  it('lists the runs, starts a replay from the form (bad dates next to their field), shows a backtest\'s comparison', async () => {
    const runs = await html(viewer, '/monitoraggio/esecuzioni');
    assert.match(runs, /Riesecuzione dello storico/);
    assert.doesNotMatch(runs, /data-replay-form/, 'a viewer may not start one');
    const bad = await form(co, '/monitoraggio/esecuzioni/replay', { dal: '2026-02-01', al: '2026-01-01' }, '/monitoraggio/esecuzioni');
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-al-err"[^>]*>La data finale precede quella iniziale/);
    const started = await form(co, '/monitoraggio/esecuzioni/replay', { dal: '2026-01-01', al: '2026-01-31' }, '/monitoraggio/esecuzioni');
    assert.equal(started.status, 302, started.text);
    const id = (started.headers.get('location') ?? '').split('/').pop()!;
    await waitForRun(co, id);
    assert.match(await html(viewer, `/monitoraggio/esecuzioni/${id}`), /data-run-stato="completed"/);
    const future = await form(co, '/monitoraggio/esecuzioni/giornaliera', { giorno: '2099-01-01' }, '/monitoraggio/esecuzioni');
    assert.equal(future.status, 409);
    assert.match(future.text, /id="f-giorno-err"/);

    const backtest = await html(co, `/monitoraggio/esecuzioni/${seed.backtest}`);
    assert.match(backtest, /Backtest di una bozza · Contanti oltre 10000 in 30 giorni/, 'the page names the rule it tried');
    assert.match(backtest, /Avviata da Prova \S+ \(\S+\) il/, 'the person who started it by name, as the rule page names people');
    const polled = await co.get(`/monitoraggio/esecuzioni/${seed.backtest}?frammento=avanzamento`, { accept: 'text/html', 'hx-request': 'true' });
    assert.equal(polled.headers.get('hx-refresh'), 'true', 'the poll that sees the end reloads the page (the comparison is outside the progress)');
    assert.match(backtest, /data-backtest-summary/);
    assert.match(backtest, /id="grafico-backtest"/);
    assert.match(backtest, /data-only="solo_bozza"[\s\S]*Marta Galli/, 'the draft alone alerts the customer under the old threshold');
    await html(outsider, `/monitoraggio/esecuzioni/${seed.backtest}`, 404);
  });

  it('shows the named lists and saves a new version of a tenant list from the form', async () => {
    assert.match(await html(viewer, '/monitoraggio/liste'), /data-list="paesi_alto_rischio"/);
    const ref = await html(co, '/monitoraggio/liste/paesi_alto_rischio');
    assert.doesNotMatch(ref, /data-edit-list/, 'a reference list is not edited');
    const noReason = await form(co, `/monitoraggio/liste/${seed.lista}`, { aggiungi: 'ROSSI SRL' }, `/monitoraggio/liste/${seed.lista}`);
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="f-motivazione-err"/);
    assert.match(noReason.text, /ROSSI SRL/, 'what was typed comes back');
    const saved = await form(co, `/monitoraggio/liste/${seed.lista}`, { aggiungi: 'Rossi Srl\nBianchi Spa', motivazione: 'Nuove controparti da osservare' }, `/monitoraggio/liste/${seed.lista}`);
    assert.equal(saved.status, 302, saved.text);
    const page = await html(co, `/monitoraggio/liste/${seed.lista}`);
    assert.match(page, /<code>ROSSI SRL<\/code>/);
    assert.match(page, /<strong>v2<\/strong>/);
    const badNew = await form(co, '/monitoraggio/liste', { codice: 'paesi_x', nome: 'Paesi X', tipo: 'paesi', voci: 'IT\nItalia' }, '/monitoraggio/liste');
    assert.equal(badNew.status, 422);
    assert.match(badNew.text, /id="f-voci-err"[^>]*>Riga 2/);
    await html(outsider, `/monitoraggio/liste/${seed.lista}`, 404);
  });

  it('shows a draft\'s release page with its gates; the requester cannot approve, a second officer can', async () => {
    const asRequester = await html(co, `/monitoraggio/regole/${seed.regola}/rilascio`);
    assert.match(asRequester, /data-gate="backtest" data-ok="true"/);
    assert.match(asRequester, /In attesa di approvazione/);
    assert.doesNotMatch(asRequester, /data-approve-form/, 'the requester does not see the approval');
    const second = await html(co2, `/monitoraggio/regole/${seed.regola}/rilascio`);
    assert.match(second, /data-approve-form/);
    const noReason = await form(co2, `/monitoraggio/regole/${seed.regola}/rilascio/respingi`, {}, `/monitoraggio/regole/${seed.regola}/rilascio`);
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /id="f-motivazione_rifiuto-err"/);
    const self = await form(co, `/monitoraggio/regole/${seed.regola}/rilascio/approva`, {}, `/monitoraggio/regole/${seed.regola}/rilascio`);
    assert.equal(self.status, 403);
    assert.match(self.text, /quattro occhi/);
    await html(outsider, `/monitoraggio/regole/${seed.regola}/rilascio`, 404);
    assert.equal((await form(analyst, `/monitoraggio/regole/${seed.regola}/rilascio/approva`, {}, `/monitoraggio/regole/${seed.regola}/rilascio`)).status, 403);
  });
});
