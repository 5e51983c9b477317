import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const html = { accept: 'text/html' };
const CONFIG = '/rischio/configurazione';

/** The text of an element marked with a data attribute (the first one), tags stripped. */
const textOf = (page: string, attr: string) => {
  const m = new RegExp(`<[^>]+${attr}[^>]*>([\\s\\S]*?)</(div|td|p|span)>`).exec(page);
  return m ? m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() : '';
};

describe('risk configuration pages: rule sets, rules, factors, policy', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;
  let co2: TestClient;
  let admin: TestClient;
  let analyst: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [co, co2, admin, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['admin'] }),
      env.createUser({ tenant, roles: ['analyst'] }), env.createUser({ tenant, roles: ['viewer'] }), env.createUser({ tenant: other, roles: ['co', 'admin'] }),
    ].map(async (u) => env.login(await u)));
  });

  const versions = () => env.ownerDb('rischio_versioni').where({ cod_azienda: tenant }).orderBy('versione').select('id', 'versione', 'stato', 'basata_su', 'activated_by');
  const ruleIn = (versione_id: string, codice: string) => env.ownerDb('rischio_regole').where({ versione_id, codice }).first();
  const post = (c: TestClient, path: string, form: Record<string, string>) => c.submitForm(path, form, CONFIG);
  const ruleForm = (r: { nome: string; descrizione: string; fattore_id: string; punti: number; classe_minima: string | null; condizione: unknown }) => ({
    nome: r.nome, descrizione: r.descrizione, fattore_id: r.fattore_id, punti: String(r.punti), classe_minima: r.classe_minima ?? '', condizione: JSON.stringify(r.condizione, null, 2),
    attiva: '1',
  });

  it('every staff role reads the model (seeded on first visit); only co and admin see the editing actions', async () => {
    const page = await viewer.get(CONFIG, html);
    assert.equal(page.status, 200, page.text.slice(0, 500));
    assert.match(page.text, /data-versione="1" data-stato="active"/);
    assert.match(page.text, /data-rule="pep"/);
    assert.match(page.text, /Persona politicamente esposta/, 'the condition in Italian');
    assert.doesNotMatch(page.text, /action="\/rischio\/configurazione\/bozza"/, 'a viewer cannot open a draft');
    const coPage = await co.get(CONFIG, html);
    assert.match(coPage.text, /action="\/rischio\/configurazione\/bozza"/);
    for (const path of ['/rischio/fattori', '/rischio/policy']) {
      assert.equal((await analyst.get(path, html)).status, 200, path);
    }
  });

  it('refuses writes to the roles that only read, and activation to anyone but a compliance officer', async () => {
    assert.equal((await post(analyst, `${CONFIG}/bozza`, {})).status, 403);
    assert.equal((await analyst.get(`${CONFIG}/nuova`, html)).status, 403);
    assert.equal((await post(viewer, '/rischio/fattori/nuovo', { codice: 'x_y', nome: 'X', famiglia: 'cliente' })).status, 403);
    assert.equal((await post(analyst, '/rischio/policy/nuovo', { classe: 'alto' })).status, 403);
    // The admin opens the draft; only a compliance officer puts it in force.
    assert.equal((await post(admin, `${CONFIG}/bozza`, { descrizione: 'Prova ruoli' })).status, 302);
    const draft = (await versions()).find((v) => v.stato === 'draft')!;
    assert.equal(draft.versione, 2);
    assert.equal((await post(admin, `${CONFIG}/attiva`, { versione_id: draft.id })).status, 403);
    const adminPage = await admin.get(CONFIG, html);
    assert.match(adminPage.text, /data-activate-co/, 'the admin is told who activates');
    // A second draft is refused with the reason on the page; then the draft is discarded.
    const again = await post(co, `${CONFIG}/bozza`, {});
    assert.equal(again.status, 409, again.text.slice(0, 300));
    assert.match(again.text, /data-refusal/);
    assert.equal((await post(co, `${CONFIG}/bozza/scarta`, { versione_id: draft.id })).status, 302);
    assert.equal((await versions()).some((v) => v.stato === 'draft'), false);
  });

  it('edits a rule in the draft: bad input next to each field with the condition path, nothing lost; the version in force is refused', async () => {
    assert.equal((await post(co, `${CONFIG}/bozza`, { descrizione: 'Calibrazione' })).status, 302);
    const all = await versions();
    const draft = all.find((v) => v.stato === 'draft')!;
    const active = all.find((v) => v.stato === 'active')!;
    assert.equal(draft.basata_su, active.id);
    const rule = await ruleIn(draft.id, 'canale_remoto');
    const activeRule = await ruleIn(active.id, 'canale_remoto');

    const form = await co.get(`${CONFIG}/${rule.id}`, html);
    assert.equal(form.status, 200);
    assert.match(form.text, /&quot;campo&quot;: &quot;canale.canale&quot;/, 'the condition pretty-printed in the textarea');

    const badCondition = '{ "tutti": [ { "campo": "canale.canale", "op": "eq", "valore": "online" }, { "campo": "geografia.paesi", "op": "intersects", "valore": 5 } ] }';
    const bad = await post(co, `${CONFIG}/${rule.id}`, { ...ruleForm(rule), nome: 'Canale remoto rivisto', punti: '250', condizione: badCondition });
    assert.equal(bad.status, 422, bad.text.slice(0, 300));
    assert.match(textOf(bad.text, 'data-errore-condizione'), /^tutti\.1\.valore: /, 'the condition error names its path');
    assert.match(bad.text, /id="f-punti-err">[^<]*da -100 a 100/);
    assert.match(bad.text, /value="Canale remoto rivisto"/, 'what was typed comes back');
    assert.match(bad.text, /&quot;geografia.paesi&quot;/, 'the typed condition comes back');
    const notJson = await post(co, `${CONFIG}/${rule.id}`, { ...ruleForm(rule), condizione: '{ "campo": ' });
    assert.equal(notJson.status, 422);
    assert.match(notJson.text, /JSON non valido/);
    assert.equal((await ruleIn(draft.id, 'canale_remoto')).punti, rule.punti, 'nothing saved');

    const good = await post(co, `${CONFIG}/${rule.id}`, {
      ...ruleForm(rule), punti: '12', classe_minima: 'medio', condizione: JSON.stringify({ tutti: [{ campo: 'canale.canale', op: 'eq', valore: 'online' }, { campo: 'canale.intermediario', op: 'eq', valore: false }] }),
    });
    assert.equal(good.status, 302, good.text.slice(0, 500));
    const saved = await ruleIn(draft.id, 'canale_remoto');
    assert.equal(saved.punti, 12);
    assert.equal(saved.classe_minima, 'medio');
    assert.deepEqual(saved.condizione, { tutti: [{ campo: 'canale.canale', op: 'eq', valore: 'online' }, { campo: 'canale.intermediario', op: 'eq', valore: false }] });

    // The same rule in the version in force: read only, and a post is refused with the reason.
    const readOnly = await co.get(`${CONFIG}/${activeRule.id}`, html);
    assert.match(readOnly.text, /data-read-only/);
    const refused = await post(co, `${CONFIG}/${activeRule.id}`, { ...ruleForm(activeRule), punti: '40' });
    assert.equal(refused.status, 409);
    assert.match(textOf(refused.text, 'data-refusal'), /si modificano solo nella bozza/);
    assert.equal((await ruleIn(active.id, 'canale_remoto')).punti, activeRule.punti);
    assert.equal((await post(co, `${CONFIG}/${activeRule.id}/disattiva`, {})).status, 409);

    // A new rule in the draft; a wrong code and an unknown factor stay next to their fields.
    const factor = rule.fattore_id as string;
    const cond = JSON.stringify({ campo: 'cliente.eta_anni', op: 'lt', valore: 21 });
    const wrong = await post(co, `${CONFIG}/nuova`, { codice: 'Età!', nome: 'Cliente giovane', fattore_id: 'nessuno', punti: '3', condizione: cond });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /id="f-codice-err"/);
    assert.match(wrong.text, /id="f-fattore_id-err"/);
    const created = await post(co, `${CONFIG}/nuova`, { codice: 'cliente_giovane', nome: 'Cliente giovane', fattore_id: factor, punti: '3', classe_minima: '', condizione: cond });
    assert.equal(created.status, 302, created.text.slice(0, 500));
    assert.equal((await ruleIn(draft.id, 'cliente_giovane')).punti, 3);

    // Deactivating a rule of the draft, and back through the form's checkbox.
    assert.equal((await post(co, `${CONFIG}/${saved.id}/disattiva`, {})).status, 302);
    assert.equal((await ruleIn(draft.id, 'canale_remoto')).attiva, false);
    assert.equal((await post(co, `${CONFIG}/${saved.id}`, { ...ruleForm(saved), attiva: '1' })).status, 302);
    assert.equal((await ruleIn(draft.id, 'canale_remoto')).attiva, true);
  });

  it('previews a condition in Italian, or names the path of each problem', async () => {
    const ok = await analyst.request('POST', `${CONFIG}/anteprima`, {
      form: { condizione: JSON.stringify({ campo: 'cliente.pep', op: 'eq', valore: true }), _csrf: await analyst.csrfToken(CONFIG) }, headers: { ...html, 'hx-request': 'true' },
    });
    assert.equal(ok.status, 200);
    assert.match(ok.text, /data-anteprima-ok/);
    assert.match(ok.text, /persona politicamente esposta/i);
    const bad = await analyst.request('POST', `${CONFIG}/anteprima`, {
      form: { condizione: '{"almeno_uno": [{"campo": "cliente.pep", "op": "boh"}]}', _csrf: await analyst.csrfToken(CONFIG) }, headers: html,
    });
    assert.match(bad.text, /almeno_uno\.0\.op: /);
    const example = await analyst.request('POST', `${CONFIG}/anteprima`, { form: { esempio: '1', _csrf: await analyst.csrfToken(CONFIG) }, headers: html });
    assert.match(example.text, /id="editor-condizione"/);
    assert.match(example.text, /paesi_alto_rischio/);
  });

  it('answers 404 for another tenant\'s rules, factors and thresholds, and for ids that are not ids', async () => {
    const rule = await env.ownerDb('rischio_regole').where({ cod_azienda: tenant, codice: 'pep' }).first('id', 'fattore_id');
    const threshold = await env.ownerDb('rischio_soglie').where({ cod_azienda: tenant }).first('id');
    for (const path of [`${CONFIG}/${rule.id}`, `/rischio/fattori/${rule.fattore_id}`, `/rischio/policy/${threshold.id}`, `${CONFIG}/non-un-id`, '/rischio/fattori/123']) {
      assert.equal((await outsider.get(path, html)).status, 404, path);
    }
    assert.equal((await post(outsider, `${CONFIG}/${rule.id}`, { nome: 'x', punti: '1' })).status, 404);
    assert.equal((await post(outsider, `/rischio/fattori/${rule.fattore_id}/disattiva`, {})).status, 404);
    assert.equal((await post(outsider, `/rischio/policy/${threshold.id}`, { punteggio_min: '1' })).status, 404);
    assert.equal((await env.ownerDb('rischio_regole').where({ id: rule.id }).first()).updated_by, null, 'nothing changed');
  });

  it('factors: created, edited, deactivated from the page, with the rules that use each', async () => {
    const bad = await post(co, '/rischio/fattori/nuovo', { codice: 'Trust', nome: '', famiglia: 'pianeta' });
    assert.equal(bad.status, 422);
    for (const f of ['codice', 'nome', 'famiglia']) assert.match(bad.text, new RegExp(`id="f-${f}-err"`), f);
    assert.match(bad.text, /value="Trust"/);
    assert.equal((await post(co, '/rischio/fattori/nuovo', { codice: 'cliente_trust', nome: 'Trust e fiduciarie', famiglia: 'cliente', descrizione: 'Strutture opache' })).status, 302);
    const dup = await post(co, '/rischio/fattori/nuovo', { codice: 'cliente_trust', nome: 'Di nuovo', famiglia: 'cliente' });
    assert.ok([409, 422].includes(dup.status), `a second factor with the same code is refused (${dup.status})`);
    const f = await env.ownerDb('rischio_fattori').where({ cod_azienda: tenant, codice: 'cliente_trust' }).first();
    assert.equal((await post(co, `/rischio/fattori/${f.id}`, { nome: 'Trust, fiduciarie e simili', descrizione: '', attivo: '1' })).status, 302);
    assert.equal((await env.ownerDb('rischio_fattori').where({ id: f.id }).first()).attivo, true);
    assert.equal((await post(co, `/rischio/fattori/${f.id}/disattiva`, {})).status, 302);
    const after = await env.ownerDb('rischio_fattori').where({ id: f.id }).first();
    assert.equal(after.nome, 'Trust, fiduciarie e simili');
    assert.equal(after.attivo, false);
    const list = await viewer.get('/rischio/fattori', html);
    assert.match(list.text, /data-fattore="pep"[\s\S]*?data-regole-in-vigore>1</, 'the PEP factor is used by one rule in force');
  });

  it('policy: thresholds edited with messages next to the fields, and the trial form answers class and consequences', async () => {
    const alto = await env.ownerDb('rischio_soglie').where({ cod_azienda: tenant, classe: 'alto' }).first();
    const bad = await post(co, `/rischio/policy/${alto.id}`, { punteggio_min: 'tanti', livello_cdd: 'rafforzata', revisione_mesi: '0', approvazione: 'co' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-punteggio_min-err"/);
    assert.match(bad.text, /id="f-revisione_mesi-err"/);
    assert.match(bad.text, /value="tanti"/);
    assert.equal((await post(co, `/rischio/policy/${alto.id}`, { punteggio_min: String(alto.punteggio_min), livello_cdd: 'rafforzata', revisione_mesi: '6', approvazione: 'co_four_eyes', descrizione: 'Revisione semestrale' })).status, 302);
    assert.equal((await env.ownerDb('rischio_soglie').where({ id: alto.id }).first()).revisione_mesi, 6);
    // Every class has its threshold: a new one for a class already there is refused.
    const dup = await post(co, '/rischio/policy/nuovo', { classe: 'alto', punteggio_min: '70', livello_cdd: 'rafforzata', revisione_mesi: '12', approvazione: 'co' });
    assert.ok([409, 422].includes(dup.status), `duplicate class refused (${dup.status})`);

    const trial = await viewer.get(`/rischio/policy?punteggio=${alto.punteggio_min + 5}&classe_minima=`, html);
    assert.equal(trial.status, 200);
    assert.match(trial.text, /data-esito-prova[\s\S]*data-status="alto"/);
    assert.match(trial.text, /data-esito-prova[\s\S]*ogni 6 mesi/);
    const floor = await viewer.get('/rischio/policy?punteggio=0&classe_minima=medio_alto', html);
    assert.match(floor.text, /data-esito-prova[\s\S]*data-status="medio_alto"[\s\S]*alzata dalla classe minima/);
    const wrong = await viewer.get('/rischio/policy?punteggio=molto', html);
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /id="f-punteggio-err"/);
  });

  it('activates the draft as a compliance officer: the draft is in force, the old version retired', async () => {
    const before = await versions();
    const draft = before.find((v) => v.stato === 'draft')!;
    const page = await co2.get(CONFIG, html);
    assert.match(page.text, /href="\/rischio\/scenari"/, 'the dry run is one click away');
    const fromPage = /action="\/rischio\/configurazione\/attiva"[\s\S]*?name="versione_id" value="([^"]+)"/.exec(page.text)?.[1];
    assert.equal(fromPage, draft.id, 'the confirmation form names the draft');
    assert.equal((await post(co2, `${CONFIG}/attiva`, { versione_id: fromPage ?? '' })).status, 302);
    const after = await versions();
    assert.equal(after.find((v) => v.id === draft.id)!.stato, 'active');
    assert.equal(after.filter((v) => v.stato === 'active').length, 1);
    assert.ok(after.some((v) => v.stato === 'retired'));
  });
});
