import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, ruleBody } from '../helpers/monitoring-fixture';

const html = { accept: 'text/html' };
const base = { nome: 'Molte controparti in entrata', tipologia: 'fan_in', punteggio: '55', finestra_dedup_giorni: '30', ambito: 'giornaliero', livello: 'cliente', esito: 'alert', descrizione: '' };
/** The builder's fields for rows (r0_…), as the page posts them. */
const rows = (...r: Record<string, string>[]) => Object.fromEntries([['righe', String(r.length)], ['modo', 'costruttore'], ['combinatore', 'tutti'],
  ...r.flatMap((x, i) => Object.entries(x).map(([k, v]) => [`r${i}_${k}`, v]))]);

describe('monitoring rule pages: /monitoraggio/regole and the builder', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient, co2: TestClient, admin: TestClient, viewer: TestClient, outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [co, co2, admin, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
  });

  it('starts a rule from a typology, adds and removes rows, switches to JSON and back, all without JavaScript', async () => {
    const start = await admin.get('/monitoraggio/regole/nuova?tipologia=fan_in', html);
    assert.equal(start.status, 200);
    assert.match(start.text, /name="r0_fn"/);
    assert.match(start.text, /<option value="distinct_counterparties" selected>/);
    assert.match(start.text, /data-preview-sentence>.*Il numero di controparti distinte dei movimenti in entrata negli ultimi 30 giorni è almeno 20/);
    const form = { ...base, cod_regola: 'fan_in_30', ...rows({ tipo: 'aggregato', fn: 'distinct_counterparties', finestra: '30', segno: 'entrata', op: 'gte', valore: '20' }) };
    const added = await admin.submitForm('/monitoraggio/regole/nuova', { ...form, azione: 'aggiungi_campo' }, '/monitoraggio/regole/nuova');
    assert.equal(added.status, 200);
    assert.match(added.text, /name="righe" value="2"/);
    assert.match(added.text, /name="r1_campo"/);
    assert.match(added.text, /value="fan_in_30"/, 'what was typed stays');
    const removed = await admin.submitForm('/monitoraggio/regole/nuova', { ...form, ...rows({ tipo: 'campo', campo: 'cliente.pep', op: 'eq', valore: 'sì' }, { tipo: 'aggregato', fn: 'count', finestra: '7', op: 'gt', valore: '3' }), azione: 'rimuovi_0' }, '/monitoraggio/regole/nuova');
    assert.match(removed.text, /name="righe" value="1"/);
    assert.match(removed.text, /<option value="count" selected>/);
    const json = await admin.submitForm('/monitoraggio/regole/nuova', { ...form, azione: 'modo_json' }, '/monitoraggio/regole/nuova');
    assert.match(json.text, /name="condizione_json"/);
    assert.match(json.text, /&quot;distinct_counterparties&quot;/);
    const nested = JSON.stringify({ tutti: [{ almeno_uno: [{ campo: 'cliente.pep', op: 'eq', valore: true }] }] });
    const back = await admin.submitForm('/monitoraggio/regole/nuova', { ...base, cod_regola: 'x1', modo: 'json', righe: '0', condizione_json: nested, azione: 'modo_costruttore' }, '/monitoraggio/regole/nuova');
    assert.match(back.text, /gruppi annidati/);
    assert.match(back.text, /name="condizione_json"/, 'a nested condition stays JSON');
    const preview = await admin.submitForm('/monitoraggio/regole/anteprima', rows({ tipo: 'campo', campo: 'evento.importo_eur', op: 'between', valore: '8.000', valore2: '9.999,99' }), '/monitoraggio/regole/nuova');
    assert.equal(preview.status, 200);
    assert.match(preview.text, /L&#39;importo dell&#39;operazione in euro è compreso tra 8\.?000 e 9\.?999,99/, 'the kit\'s numbers: grouped or not, Italian decimals');
  });

  it('refuses a malformed condition with the message next to the row\'s control and the node\'s path, and keeps what was typed', async () => {
    const bad = await admin.submitForm('/monitoraggio/regole/nuova', {
      ...base, cod_regola: 'rotta', punteggio: 'alto', azione: 'salva',
      ...rows({ tipo: 'campo', campo: 'evento.contanti', op: 'eq', valore: 'sì' }, { tipo: 'aggregato', fn: 'cash_share', finestra: '30', contanti: 'true', op: 'gt', valore: '0,5' }, { tipo: 'campo', campo: 'evento.importo_eur', op: 'gte', valore: 'molti' }),
    }, '/monitoraggio/regole/nuova');
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="r1_contanti-err">La quota di contanti considera già contanti e non contanti \(condizione\.tutti\.1\.aggregato\.contanti\)/);
    assert.match(bad.text, /id="r2_valore-err">Indica un numero/);
    assert.match(bad.text, /id="f-punteggio-err">Indica il punteggio: un numero intero/);
    assert.match(bad.text, /name="r2_valore" value="molti"/);
    assert.match(bad.text, /data-not-saved>[\s\S]*href="#r1_contanti">Condizione 2, contanti: [\s\S]*href="#r2_valore">Condizione 3, valore: Indica un numero/, 'the top of the page says the draft was not saved and links each problem');
    assert.equal(await env.ownerDb('monitoring_regole').where({ cod_azienda: tenant, cod_regola: 'rotta' }).first(), undefined);
    const json = await admin.submitForm('/monitoraggio/regole/nuova', { ...base, cod_regola: 'rotta', modo: 'json', righe: '0', condizione_json: '{"tutti":[{"campo":"evento.segno","op":"boh","valore":"x"}]}', azione: 'salva' }, '/monitoraggio/regole/nuova');
    assert.equal(json.status, 422);
    assert.match(json.text, /condizione\.tutti\.0\.op: Operatore non valido/);
  });

  it('saves a rule built on the page as a draft, shows it in words, edits it into a new draft once in force, retires it (compliance officer)', async () => {
    const saved = await admin.submitForm('/monitoraggio/regole/nuova', {
      ...base, cod_regola: 'fan_in_pagina', indicatori: ['11.1', '11.2'], azione: 'salva',
      ...rows({ tipo: 'aggregato', fn: 'distinct_counterparties', finestra: '30', segno: 'entrata', op: 'gte', valore: '20' }, { tipo: 'campo', campo: 'cliente.pep', op: 'eq', valore: 'sì', non: '1' }),
    }, '/monitoraggio/regole/nuova');
    assert.equal(saved.status, 302, saved.text.slice(0, 300));
    const detailPath = saved.headers.get('location')!;
    const detail = await viewer.get(detailPath, html);
    assert.match(detail.text, /Il numero di controparti distinte dei movimenti in entrata negli ultimi 30 giorni è almeno 20 e non è vero che persona politicamente esposta: sì/);
    assert.match(detail.text, /<strong>11\.1<\/strong>/);
    assert.doesNotMatch(detail.text, /form-ritira/, 'a viewer retires nothing');
    const rule = await env.ownerDb('monitoring_regole').where({ cod_azienda: tenant, cod_regola: 'fan_in_pagina' }).first();
    const v1 = await env.ownerDb('monitoring_regole_versioni').where({ regola_id: rule.id }).first();
    assert.deepEqual(v1.condizione, { tutti: [
      { aggregato: { fn: 'distinct_counterparties', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 20 },
      { non: { campo: 'cliente.pep', op: 'eq', valore: true } },
    ] });
    assert.deepEqual(v1.indicatori, ['11.1', '11.2']);
    await activateDraft(env, tenant, v1.id);

    const edit = await co.get(`${detailPath}/modifica`, html);
    assert.match(edit.text, /Il salvataggio crea una nuova bozza dalla versione in vigore/);
    assert.match(edit.text, /name="r1_non" value="1" checked/);
    const changed = await co.submitForm(`${detailPath}/modifica`, {
      ...base, punteggio: '65', indicatori: '11.1', azione: 'salva',
      ...rows({ tipo: 'aggregato', fn: 'distinct_counterparties', finestra: '30', segno: 'entrata', op: 'gte', valore: '25' }),
    }, `${detailPath}/modifica`);
    assert.equal(changed.status, 302);
    const after = await viewer.get(`/api/monitoring/rules/${rule.id}`);
    assert.deepEqual([after.body.attiva.versione, after.body.bozza.versione, after.body.bozza.punteggio, after.body.attiva.punteggio], [1, 2, 65, 55]);

    assert.equal((await admin.submitForm(`${detailPath}/ritira`, { motivazione: 'x' }, detailPath)).status, 403);
    const noReason = await co2.submitForm(`${detailPath}/ritira`, { motivazione: '' }, detailPath);
    assert.equal(noReason.status, 302);
    assert.ok((await viewer.get(`/api/monitoring/rules/${rule.id}`)).body.attiva, 'a retirement without a reason is refused');
    const retired = await co2.submitForm(`${detailPath}/ritira`, { motivazione: 'Superata dalla v2' }, detailPath);
    assert.equal(retired.status, 302);
    assert.equal((await viewer.get(`/api/monitoring/rules/${rule.id}`)).body.attiva, null);
    const discarded = await co.submitForm(`${detailPath}/scarta`, {}, detailPath);
    assert.equal(discarded.status, 302);
    assert.equal((await viewer.get(`/api/monitoring/rules/${rule.id}`)).body.bozza, null);
  });

  it('lists the rules with their version in force and draft; keeps them to the tenant and the builder to its editors', async () => {
    const r = await co.post('/api/monitoring/rules', ruleBody('elenco_1'));
    const list = await viewer.get('/monitoraggio/regole?bozza=true', html);
    assert.equal(list.status, 200);
    assert.match(list.text, /data-rule="elenco_1"/);
    assert.equal((await viewer.get('/monitoraggio/regole/nuova', html)).status, 403);
    assert.equal((await outsider.get(`/monitoraggio/regole/${r.body.id}`, html)).status, 404);
    assert.equal((await outsider.get(`/monitoraggio/regole/${r.body.id}/modifica`, html)).status, 404);
    assert.equal((await outsider.submitForm(`/monitoraggio/regole/${r.body.id}/scarta`, {}, '/monitoraggio/regole')).status, 404);
    assert.doesNotMatch((await outsider.get('/monitoraggio/regole', html)).text, /data-rule="elenco_1"/);
  });
});
