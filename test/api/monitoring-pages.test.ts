import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, hit, raise, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

const html = { accept: 'text/html' };

describe('monitoring pages: /alert, /partials/alert-table, /transazioni', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient, co2: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;
  let analystUser: TestUser;
  let movements: Awaited<ReturnType<typeof seedCustomers>>['movements'];

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    analystUser = await env.createUser({ tenant, roles: ['analyst'] });
    [co, co2, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.login(analystUser),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    ({ movements } = await seedCustomers(env.ownerDb, tenant, 3, 4));
    const r = await co.post('/api/monitoring/rules', ruleBody('contanti'));
    await activateDraft(env, tenant, r.body.bozza.id);
  });

  const alertWith = async (customer: string, day: string, over: Parameters<typeof hit>[4] = {}) => {
    const mov = movements.filter((m) => m.cod_anagrafe === customer).slice(0, 2).map((m) => ({ id: m.id, data_operazione: m.data_operazione }));
    return (await raise(env, tenant, [hit('contanti', customer, day, day, { movimenti: mov, chiaveRiscontro: `page-${customer}-${day}`, ...over })]))[0]!;
  };

  it('lists alerts with their filters, the table as an htmx fragment at /partials/alert-table, and export links with the same filters', async () => {
    const a = await alertWith('C-1', '2026-03-20');
    const page = await viewer.get('/alert?stato=new', html);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`href="/alert/${a.id}">${a.cod_alert}<`));
    assert.match(page.text, /Cliente Monitorato 1/);
    assert.match(page.text, /href="\/api\/export\/alert\?formato=csv&amp;stato=new&amp;sort=-data_rilevazione"/);
    assert.doesNotMatch(page.text, /href="\/alert\/nuovo"/, 'a viewer makes no alert');
    const fragment = await viewer.get('/partials/alert-table?cod_anagrafe=C-2', { 'hx-request': 'true', ...html });
    assert.equal(fragment.status, 200);
    assert.equal(fragment.headers.get('hx-push-url'), '/alert?cod_anagrafe=C-2&sort=-data_rilevazione');
    assert.doesNotMatch(fragment.text, /<html/);
    assert.doesNotMatch(fragment.text, new RegExp(a.cod_alert));
    const theirs = await outsider.get('/alert', html);
    assert.doesNotMatch(theirs.text, new RegExp(a.cod_alert));
  });

  it('shows an alert with its customer, rule, window, score, evidence, movements, hits, the allowed buttons, the state diagram and the timeline', async () => {
    const a = await alertWith('C-2', '2026-03-20', { punteggio: 85 });
    const viewerPage = await viewer.get(`/alert/${a.id}`, html);
    assert.equal(viewerPage.status, 200);
    assert.match(viewerPage.text, /Nessuna azione disponibile per te/);
    const page = await analyst.get(`/alert/${a.cod_alert}`, html);
    assert.equal(page.status, 200);
    for (const text of ['Cliente Monitorato 2', 'Contanti oltre soglia contanti', 'versione 1', 'dal 20/03/2026 al 20/03/2026', 'Somma contanti 30g', '12.000',
      'Operazioni alla base dell', 'Diagramma degli stati dell', 'Alert generato']) assert.ok(page.text.includes(text), text);
    assert.equal((page.text.match(/data-movement="/g) ?? []).length, 2);
    assert.match(page.text, /id="form-assegna"/);
    assert.doesNotMatch(page.text, /id="form-chiudi"/, 'closing comes after the assignment');
    assert.equal((await outsider.get(`/alert/${a.id}`, html)).status, 404);
    assert.equal((await viewer.get('/alert/ALR-99999999', html)).status, 404);
  });

  it('takes the steps from the page: assign, a refused closure with the message next to the field, a proposed dismissal, its confirmation by someone else', async () => {
    const a = await alertWith('C-3', '2026-03-20', { punteggio: 90 });
    const path = `/alert/${a.id}`;
    const assigned = await analyst.submitForm(`${path}/assegna`, { assegnatario: '' }, path);
    assert.equal(assigned.status, 302);
    assert.equal(assigned.headers.get('location'), path);
    const bad = await analyst.submitForm(`${path}/chiudi`, { disposizione: 'falso_positivo', motivazione: '' }, path);
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-motivazione-err">Indica la motivazione della chiusura</);
    assert.match(bad.text, /<details class="confirm-action" id="form-chiudi" open/);
    const proposed = await analyst.submitForm(`${path}/chiudi`, { disposizione: 'falso_positivo', motivazione: 'Incassi del negozio' }, path);
    assert.equal(proposed.status, 302);
    const waiting = await analyst.get(path, html);
    assert.match(waiting.text, /data-pending>Chiusura proposta da te/);
    assert.match(waiting.text, /Ritira la chiusura/);
    const confirmedByOther = await co.submitForm(`${path}/chiudi`, { disposizione: 'giustificato', motivazione: 'Visto' }, path);
    assert.equal(confirmedByOther.status, 409);
    assert.match(confirmedByOther.text, /data-refusal>La conferma deve riportare la stessa disposizione/);
    const ok = await co.submitForm(`${path}/chiudi`, { disposizione: 'falso_positivo', motivazione: 'Visto' }, path);
    assert.equal(ok.status, 302);
    const closed = await viewer.get(path, html);
    assert.match(closed.text, /data-status="closed"/);
    assert.match(closed.text, /Chiusura dell&#39;alert confermata \(quattro occhi\)/);
  });

  it('escalates from the page into a case and links it; deletes with a reason (compliance officer)', async () => {
    const a = await alertWith('C-1', '2026-06-20');
    const path = `/alert/${a.id}`;
    await analyst.submitForm(`${path}/assegna`, { assegnatario: analystUser.cod_utente }, path);
    const esc = await analyst.submitForm(`${path}/escala`, { priorita: 'alta', motivazione: 'Da approfondire' }, path);
    assert.equal(esc.status, 302);
    const page = await analyst.get(path, html);
    const link = page.text.match(/href="(\/casi\/[0-9a-f-]+)" data-case-link/);
    assert.ok(link, 'the case is linked');
    const casePage = await analyst.get(link[1]!, html);
    assert.equal(casePage.status, 200);
    assert.match(casePage.text, new RegExp(a.cod_alert));

    const b = await alertWith('C-2', '2026-08-20');
    const bPath = `/alert/${b.id}`;
    assert.equal((await analyst.submitForm(`${bPath}/elimina`, { motivazione: 'x' }, bPath)).status, 403);
    const noReason = await co.submitForm(`${bPath}/elimina`, { motivazione: '' }, bPath);
    assert.equal(noReason.status, 422);
    assert.match(noReason.text, /Indica perché l&#39;alert viene eliminato/);
    const del = await co2.submitForm(`${bPath}/elimina`, { motivazione: 'Generato da una regola errata' }, bPath);
    assert.deepEqual([del.status, del.headers.get('location')], [302, '/alert']);
    assert.equal((await co.get(bPath, html)).status, 404);
  });

  it('makes an alert by hand: the customer\'s movements to tick, messages next to the fields, then the alert', async () => {
    const form = await analyst.get('/alert/nuovo?cod_anagrafe=C-1', html);
    assert.equal(form.status, 200);
    const c1 = movements.filter((m) => m.cod_anagrafe === 'C-1');
    assert.equal((form.text.match(/name="movimenti" value="/g) ?? []).length, c1.length);
    const unknown = await analyst.get('/alert/nuovo?cod_anagrafe=NON-ESISTE', html);
    assert.match(unknown.text, /Cliente non trovato in questa azienda/);
    assert.doesNotMatch(unknown.text, /id="form-alert"/);
    const bad = await analyst.submitForm('/alert/nuovo', { cod_anagrafe: 'C-1', tipologia: '', punteggio: '300', motivazione: '', movimenti: [c1[0]!.id] }, '/alert/nuovo?cod_anagrafe=C-1');
    assert.equal(bad.status, 422);
    for (const id of ['f-tipologia-err', 'f-punteggio-err', 'f-motivazione-err']) assert.match(bad.text, new RegExp(`id="${id}"`));
    assert.match(bad.text, new RegExp(`value="${c1[0]!.id}"[^>]*checked`), 'the ticked movements stay ticked');
    const other = movements.find((m) => m.cod_anagrafe === 'C-2')!;
    const wrong = await analyst.submitForm('/alert/nuovo', { cod_anagrafe: 'C-1', tipologia: 'importi_tondi', punteggio: '40', motivazione: 'Importi ripetuti', movimenti: [other.id] }, '/alert/nuovo?cod_anagrafe=C-1');
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /id="f-movimenti-err">Il movimento non è del cliente indicato/);
    const ok = await analyst.submitForm('/alert/nuovo', { cod_anagrafe: 'C-1', tipologia: 'importi_tondi', punteggio: '40', motivazione: 'Importi ripetuti', movimenti: [c1[0]!.id, c1[2]!.id] }, '/alert/nuovo?cod_anagrafe=C-1');
    assert.equal(ok.status, 302);
    const page = await analyst.get(ok.headers.get('location')!, html);
    assert.match(page.text, /Nessuna: alert inserito a mano/);
    assert.equal((page.text.match(/data-movement="/g) ?? []).length, 2);
    assert.equal((await viewer.get('/alert/nuovo', html)).status, 403);
  });

  it('lists the movements with their filters (a bad one explained next to it), and shows one movement with the alerts it is behind', async () => {
    const a = await alertWith('C-3', '2026-09-20');
    const list = await viewer.get('/transazioni?cod_anagrafe=C-3&contanti=true', html);
    assert.equal(list.status, 200);
    const c3cash = movements.filter((m) => m.cod_anagrafe === 'C-3' && m.contanti);
    assert.equal((list.text.match(/data-movement="/g) ?? []).length, c3cash.length);
    const bad = await viewer.get('/transazioni?cod_anagrafe=C-3&importo_min=tanti&dal=2026-13-01', html);
    assert.equal(bad.status, 200);
    assert.match(bad.text, /id="f-importo_min-err"/);
    assert.match(bad.text, /id="f-dal-err"/);
    assert.equal((bad.text.match(/data-movement="/g) ?? []).length, 4, 'the readable filter still applies');
    const first = movements.find((m) => m.cod_anagrafe === 'C-3')!;
    const one = await viewer.get(`/transazioni/${first.id}`, html);
    assert.equal(one.status, 200);
    assert.match(one.text, new RegExp(`href="/alert/${a.id}">${a.cod_alert}`));
    assert.equal((await outsider.get(`/transazioni/${first.id}`, html)).status, 404);
    assert.equal((await viewer.get('/transazioni/non-un-id', html)).status, 404);
  });
});
