import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { MODELLI_MONITORAGGIO, installTemplates, DEMO_ACTIVATION_REASON } from '../../src/domains/monitoring/templates';
import { launchBrowser, screenshot, seriousA11yViolations } from '../helpers/browser';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const html = { accept: 'text/html' };

describe('monitoring templates: API (/api/monitoring/templates, POST /api/monitoring/rules with modello) and /monitoraggio/modelli', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient, viewer: TestClient, outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [co, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
  });

  it('lists every template with its fields, none enabled yet', async () => {
    const r = await viewer.get('/api/monitoring/templates');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items.length, MODELLI_MONITORAGGIO.length);
    const fan = r.body.items.find((i: { cod_regola: string }) => i.cod_regola === 'fan_out');
    assert.equal(fan.tipologia, 'fan_out');
    assert.equal(fan.tipologia_label, 'Molte controparti in uscita');
    assert.deepEqual(fan.condizione, MODELLI_MONITORAGGIO.find((m) => m.cod_regola === 'fan_out')!.condizione);
    assert.match(fan.frase, /controparti/);
    assert.equal(fan.regola, null);
    assert.ok(r.body.items.every((i: { indicatori: string[] }) => i.indicatori.length > 0));
  });

  it('creates a draft v1 from a template, the body\'s fields overriding; the list then names the rule', async () => {
    const r = await co.post('/api/monitoring/rules', { modello: 'contanti_oltre_soglia', punteggio: 80 });
    assert.equal(r.status, 201, r.text);
    const tpl = MODELLI_MONITORAGGIO.find((m) => m.cod_regola === 'contanti_oltre_soglia')!;
    assert.equal(r.body.cod_regola, 'contanti_oltre_soglia');
    assert.equal(r.body.nome, tpl.nome);
    assert.equal(r.body.attiva, null);
    assert.equal(r.body.bozza.versione, 1);
    assert.equal(r.body.bozza.punteggio, 80, 'the body wins');
    assert.equal(r.body.bozza.ambito, tpl.ambito);
    assert.deepEqual(r.body.bozza.condizione, tpl.condizione);
    assert.deepEqual(r.body.bozza.indicatori, [...tpl.indicatori]);
    assert.equal(r.body.bozza.descrizione, tpl.descrizione);
    // A second rule from the same template under another code.
    const copy = await co.post('/api/monitoring/rules', { modello: 'contanti_oltre_soglia', cod_regola: 'contanti_filiale_2' });
    assert.equal(copy.status, 201, copy.text);
    const again = await co.post('/api/monitoring/rules', { modello: 'contanti_oltre_soglia' });
    assert.equal(again.status, 422, again.text);
    assert.deepEqual(again.body.errors.map((e: { path: string }) => e.path), ['cod_regola']);
    const list = await viewer.get('/api/monitoring/templates');
    const item = list.body.items.find((i: { cod_regola: string }) => i.cod_regola === 'contanti_oltre_soglia');
    assert.deepEqual(item.regola, { id: r.body.id, nome: tpl.nome, attiva_versione: null, bozza_versione: 1 });
  });

  it('refuses an unknown template (422 naming modello), a bad override (422 naming the field) and readers (403)', async () => {
    const unknown = await co.post('/api/monitoring/rules', { modello: 'nessun_modello' });
    assert.equal(unknown.status, 422, unknown.text);
    assert.deepEqual(unknown.body.errors.map((e: { path: string }) => e.path), ['modello']);
    assert.match(unknown.body.errors[0].message, /Modello sconosciuto/);
    const notText = await co.post('/api/monitoring/rules', { modello: 12 });
    assert.equal(notText.status, 422);
    assert.ok(notText.body.errors.some((e: { path: string }) => e.path === 'modello'));
    const badScore = await co.post('/api/monitoring/rules', { modello: 'fan_in', punteggio: 500 });
    assert.equal(badScore.status, 422);
    assert.deepEqual(badScore.body.errors.map((e: { path: string }) => e.path), ['punteggio']);
    assert.equal((await viewer.post('/api/monitoring/rules', { modello: 'fan_in' })).status, 403);
  });

  it('keeps tenants apart: another tenant sees no rule of this one and its rule is a 404 here', async () => {
    const theirs = await outsider.get('/api/monitoring/templates');
    assert.equal(theirs.status, 200);
    assert.ok(theirs.body.items.every((i: { regola: unknown }) => i.regola === null));
    const created = await outsider.post('/api/monitoring/rules', { modello: 'picco_volume' });
    assert.equal(created.status, 201, created.text);
    assert.equal((await co.get(`/api/monitoring/rules/${created.body.id}`)).status, 404);
    const ours = await viewer.get('/api/monitoring/templates');
    assert.equal(ours.body.items.find((i: { cod_regola: string }) => i.cod_regola === 'picco_volume').regola, null);
  });

  it('installs the templates a tenant lacks as drafts, or in force for a demo tenant with the audit saying so', async () => {
    const fresh = await env.createTenant();
    const demo = await env.createTenant();
    const asDraft = (only?: string[]) => withTenant(env.deps.db, { codAzienda: fresh, actor: 'test' }, (trx) => installTemplates(trx, fresh, { attiva: false, cod_utente: null, ...(only ? { only } : {}) }));
    assert.deepEqual(await asDraft(['transito_rapido']), { creati: ['transito_rapido'], saltati: [] });
    const drafts = await asDraft();
    assert.deepEqual(drafts.saltati, ['transito_rapido'], 'a rule the tenant has is left alone');
    assert.equal(drafts.creati.length, MODELLI_MONITORAGGIO.length - 1);
    const freshStates = await env.ownerDb('monitoring_regole_versioni').where({ cod_azienda: fresh }).distinct('stato');
    assert.deepEqual(freshStates.map((v) => v.stato), ['bozza']);
    const active = await withTenant(env.deps.db, { codAzienda: demo, actor: 'test' }, (trx) => installTemplates(trx, demo, { attiva: true, cod_utente: null, only: ['fan_in', 'fan_out'] }));
    assert.deepEqual(active, { creati: ['fan_in', 'fan_out'], saltati: [] });
    const versions = await env.ownerDb('monitoring_regole_versioni').where({ cod_azienda: demo }).select('stato');
    assert.deepEqual(versions.map((v) => v.stato), ['attiva', 'attiva']);
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: demo, action: 'monitoring.rule.activate' }).select('data');
    assert.equal(audit.length, 2);
    assert.ok(audit.every((a) => (typeof a.data === 'string' ? JSON.parse(a.data) : a.data).motivazione === DEMO_ACTIVATION_REASON));
  });

  it('the page lists the templates with typology, description and indicators; Abilita makes a draft and opens the rule', async () => {
    const rules = await viewer.get('/monitoraggio/regole', html);
    assert.match(rules.text, /href="\/monitoraggio\/modelli"/, 'linked from the rules\' page');
    const page = await co.get('/monitoraggio/modelli', html);
    assert.equal(page.status, 200);
    assert.match(page.text, /data-template="importi_tondi"/);
    assert.match(page.text, /Importi tondi ricorrenti/);
    assert.match(page.text, /<strong>10\.12<\/strong>/, 'the indicators with their text');
    assert.match(page.text, /action="\/monitoraggio\/modelli\/importi_tondi\/abilita"/);
    const enabled = await co.submitForm('/monitoraggio/modelli/importi_tondi/abilita', {}, '/monitoraggio/modelli');
    assert.equal(enabled.status, 302, enabled.text);
    const rule = await env.ownerDb('monitoring_regole').where({ cod_azienda: tenant, cod_regola: 'importi_tondi' }).first('id');
    assert.equal(enabled.headers.get('location'), `/monitoraggio/regole/${rule.id}`);
    const after = await co.get('/monitoraggio/modelli', html);
    assert.doesNotMatch(after.text, /action="\/monitoraggio\/modelli\/importi_tondi\/abilita"/);
    assert.match(after.text, new RegExp(`href="/monitoraggio/regole/${rule.id}" data-enabled`));
    const readOnly = await viewer.get('/monitoraggio/modelli', html);
    assert.doesNotMatch(readOnly.text, /data-enable>/, 'a reader sees no Abilita');
    assert.equal((await co.submitForm('/monitoraggio/modelli/non_esiste/abilita', {}, '/monitoraggio/modelli')).status, 404);
  });

  it('draws the templates\' page without serious or critical accessibility violations (axe-core in Chromium)', async () => {
    const browser = await launchBrowser();
    try {
      const ctx = await browser.newContext({ locale: 'it-IT', timezoneId: 'Europe/Rome', viewport: { width: 1440, height: 900 } });
      await ctx.addCookies([{ name: 'cp_sid', value: co.cookie('cp_sid')!, url: env.baseUrl }]);
      const page = await ctx.newPage();
      await page.goto(`${env.baseUrl}/monitoraggio/modelli`);
      await screenshot(page, 'monitoring-templates');
      assert.deepEqual(await seriousA11yViolations(page), []);
      await ctx.close();
    } finally {
      await browser.close();
    }
  });
});
