import assert from 'node:assert/strict';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { DEFAULT_RULES } from '../../src/domains/risk';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path);

describe('risk model API: factors, rules, rule sets, thresholds, evaluate', function () {
  this.timeout(300_000);
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
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
  });

  it('reads the default model, seeded on first use: factors in the four EBA families, rule set v1 active, thresholds', async () => {
    const f = await viewer.get('/api/risk/factors');
    assert.equal(f.status, 200, f.text);
    assert.deepEqual([...new Set(f.body.items.map((x: { famiglia: string }) => x.famiglia))].sort(), ['canale', 'cliente', 'geografia', 'prodotto']);
    assert.equal(f.body.items.find((x: { codice: string }) => x.codice === 'pep').regole_attive, 1);
    const geo = await viewer.get('/api/risk/factors?famiglia=geografia');
    assert.ok(geo.body.items.every((x: { famiglia: string }) => x.famiglia === 'geografia'));
    assert.deepEqual(paths(await viewer.get('/api/risk/factors?famiglia=luna')), ['famiglia']);

    const sets = await viewer.get('/api/risk/rule-sets');
    assert.deepEqual(sets.body.items.map((v: { versione: number; stato: string; regole: number; allowed_actions: string[] }) => [v.versione, v.stato, v.regole, v.allowed_actions]),
      [[1, 'active', DEFAULT_RULES.length, ['crea-bozza']]]);
    const rules = await viewer.get('/api/risk/rules');
    assert.equal(rules.body.items.length, DEFAULT_RULES.length);
    const pep = rules.body.items.find((r: { codice: string }) => r.codice === 'pep');
    assert.deepEqual([pep.punti, pep.classe_minima, pep.fattore_codice, pep.stato_versione], [30, 'medio_alto', 'pep', 'active']);
    assert.ok(pep.condizione_testo.length > 10, pep.condizione_testo);
    const soglie = await viewer.get('/api/risk/policy/thresholds');
    assert.deepEqual(soglie.body.items.map((s: { classe: string; punteggio_min: number; livello_cdd: string; revisione_mesi: number }) => [s.classe, s.punteggio_min, s.livello_cdd, s.revisione_mesi]),
      [['basso', 0, 'semplificata', 60], ['medio', 20, 'ordinaria', 36], ['medio_alto', 30, 'ordinaria', 24], ['alto', 40, 'rafforzata', 12]]);
  });

  it('evaluates a partial profile without storing anything: score, floors, policy consequences, explanations', async () => {
    const before = await env.ownerDb('rischio_storico').where({ cod_azienda: tenant }).count('* as n').first();
    const r = await analyst.post('/api/risk/policy/evaluate', {
      profilo: { cliente: { tipo_soggetto: 'societa', pep_collegati: true }, geografia: { paesi_operativita: ['IT', 'ch'] }, questionario: { volume_annuo: 'oltre_1m' } },
      aggregati: { 'cash_share:365': 0.8 },
    });
    assert.equal(r.status, 200, r.text);
    const p = r.body.punteggio;
    assert.deepEqual(p.contributi.map((c: { codice: string }) => c.codice), ['tipo_societa', 'pep', 'paese_extra_see', 'quota_contanti', 'q_volume_oltre_1m']);
    assert.equal(p.punteggio, 10 + 30 + 5 + 10 + 15);
    assert.equal(p.classe, 'alto');
    assert.deepEqual(r.body.politica, { classe: 'alto', livello_cdd: 'rafforzata', revisione_mesi: 12, approvazione: 'co_four_eyes', descrizione: r.body.politica.descrizione });
    assert.match(p.contributi.find((c: { codice: string }) => c.codice === 'paese_extra_see').spiegazione, /Svizzera \(CH\)/);
    assert.ok(r.body.aggregati_richiesti.includes('cash_share:365') && r.body.aggregati_richiesti.includes('sum:365'));

    const pepOnly = await analyst.post('/api/risk/policy/evaluate', { profilo: { cliente: { pep: true } } });
    assert.deepEqual([pepOnly.body.punteggio.punteggio, pepOnly.body.punteggio.classe, pepOnly.body.politica.livello_cdd], [30, 'medio_alto', 'ordinaria']);
    const after = await env.ownerDb('rischio_storico').where({ cod_azienda: tenant }).count('* as n').first();
    assert.deepEqual(after, before, 'nothing stored');

    const bad = await analyst.post('/api/risk/policy/evaluate', { profilo: { cliente: { tipo_soggetto: 'trust' }, geografia: { paesi: ['ITA'] }, banca: {} }, aggregati: { 'sum:365': 'tanti' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(paths(bad).sort(), ['aggregati.sum:365', 'profilo', 'profilo.cliente.tipo_soggetto', 'profilo.geografia.paesi.0'].sort());
  });

  it('changes the model only through a draft: create, edit, 409 on the active version, condition errors by path, activation by a compliance officer', async () => {
    const active = (await co.get('/api/risk/rule-sets')).body.items[0];
    const activeRules = (await co.get('/api/risk/rules')).body.items as { id: string; codice: string }[];
    const tipo = activeRules.find((r) => r.codice === 'tipo_societa')!;

    // Editing a rule of the active version: 409 with what to do.
    const locked = await co.put(`/api/risk/rules/${tipo.id}`, { punti: 12 });
    assert.equal(locked.status, 409, locked.text);
    assert.deepEqual([locked.body.code, locked.body.allowed_actions, locked.body.state], ['VERSION_NOT_EDITABLE', ['crea-bozza'], 'active']);

    // Roles: readers cannot change the model.
    assert.equal((await analyst.post('/api/risk/rule-sets', {})).status, 403);
    assert.equal((await viewer.put(`/api/risk/rules/${tipo.id}`, { punti: 12 })).status, 403);

    const draft = await admin.post('/api/risk/rule-sets', { descrizione: 'Taratura 2027' });
    assert.equal(draft.status, 201, draft.text);
    assert.deepEqual([draft.body.versione, draft.body.stato, draft.body.basata_su, draft.body.regole.length], [2, 'draft', active.id, DEFAULT_RULES.length]);
    const second = await co.post('/api/risk/rule-sets', {});
    assert.deepEqual([second.status, second.body.code, second.body.bozza_id], [409, 'DRAFT_EXISTS', draft.body.id]);

    const again = await co.put(`/api/risk/rules/${tipo.id}`, { punti: 12 });
    assert.equal(again.status, 409);
    const copy = (draft.body.regole as { id: string; codice: string }[]).find((r) => r.codice === 'tipo_societa')!;
    assert.deepEqual([again.body.allowed_actions, again.body.regola_bozza_id], [['modifica-bozza'], copy.id]);
    const edited = await co.put(`/api/risk/rules/${copy.id}`, { punti: 12 });
    assert.deepEqual([edited.status, edited.body.punti, edited.body.stato_versione], [200, 12, 'draft']);

    // Bad conditions: each error at its path.
    const factor = (await co.get('/api/risk/factors?famiglia=cliente')).body.items.find((f: { codice: string }) => f.codice === 'tipo_soggetto');
    const badRule = await co.post('/api/risk/rules', {
      fattore_id: factor.id, codice: 'Nuova', nome: '', punti: 500, classe_minima: 'altissimo',
      condizione: { tutti: [{ campo: 'cliente.pep', op: 'eq', valore: true }, { campo: 'cliente.colore', op: 'eq', valore: 'blu' }, { aggregato: { fn: 'media', finestra_giorni: 0 }, op: 'gt', valore: 1 }, { campo: 'geografia.paesi', op: 'intersects', valore: { lista: 'paesi_immaginari' } }] },
    });
    assert.equal(badRule.status, 422, badRule.text);
    assert.deepEqual(paths(badRule).sort(), [
      'classe_minima', 'codice', 'condizione.tutti.2.aggregato.finestra_giorni', 'condizione.tutti.2.aggregato.fn', 'condizione.tutti.3.valore.lista', 'nome', 'punti',
    ].sort());
    const unknownField = await co.post('/api/risk/rules', { fattore_id: factor.id, codice: 'colore', nome: 'Colore', punti: 1, condizione: { campo: 'cliente.colore', op: 'eq', valore: 'blu' } });
    assert.deepEqual(paths(unknownField), ['condizione.campo']);

    const created = await co.post('/api/risk/rules', {
      fattore_id: factor.id, codice: 'cliente_giovane', nome: 'Cliente con meno di 21 anni', punti: 5,
      condizione: { tutti: [{ campo: 'cliente.tipo_soggetto', op: 'eq', valore: 'persona_fisica' }, { campo: 'cliente.eta_anni', op: 'lt', valore: 21 }] },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.versione_id, draft.body.id);
    assert.deepEqual(paths(await co.post('/api/risk/rules', { ...created.body, id: undefined, fattore_id: factor.id, condizione: created.body.condizione, codice: 'cliente_giovane', nome: 'x', punti: 1 })), ['codice']);
    const off = await co.delete(`/api/risk/rules/${(draft.body.regole as { id: string; codice: string }[]).find((r) => r.codice === 'intermediario')!.id}`);
    assert.deepEqual([off.status, off.body.attiva], [200, false]);

    // The evaluation can read the draft before it is active.
    const young = await viewer.post('/api/risk/policy/evaluate', { versione_id: draft.body.id, profilo: { cliente: { tipo_soggetto: 'persona_fisica', eta_anni: 19 } } });
    assert.deepEqual(young.body.punteggio.contributi.map((c: { codice: string }) => c.codice), ['cliente_giovane']);

    // Activation: the compliance officer only; the previous version retires.
    assert.equal((await admin.post(`/api/risk/rule-sets/${draft.body.id}/activate`, {})).status, 403);
    const activated = await co2.post(`/api/risk/rule-sets/${draft.body.id}/activate`, {});
    assert.equal(activated.status, 200, activated.text);
    assert.equal(activated.body.stato, 'active');
    const sets = (await viewer.get('/api/risk/rule-sets')).body.items.map((v: { versione: number; stato: string }) => [v.versione, v.stato]);
    assert.deepEqual(sets, [[2, 'active'], [1, 'retired']]);
    const twice = await co.post(`/api/risk/rule-sets/${draft.body.id}/activate`, {});
    assert.deepEqual([twice.status, twice.body.code], [409, 'NOT_A_DRAFT']);
    const retiredEdit = await co.put(`/api/risk/rules/${tipo.id}`, { punti: 1 });
    assert.deepEqual([retiredEdit.status, retiredEdit.body.state], [409, 'retired']);
    assert.equal((await co.delete(`/api/risk/rule-sets/${active.id}`)).status, 409, 'a retired version is not discarded');

    // createRule with no draft makes one from the active version; discard removes it.
    const auto = await co.post('/api/risk/rules', { fattore_id: factor.id, codice: 'cliente_anziano', nome: 'Cliente oltre 90 anni', punti: 3, condizione: { campo: 'cliente.eta_anni', op: 'gte', valore: 90 } });
    assert.equal(auto.status, 201, auto.text);
    assert.equal(auto.body.versione, 3);
    const discarded = await co.delete(`/api/risk/rule-sets/${auto.body.versione_id}`);
    assert.deepEqual([discarded.status, discarded.body.scartata], [200, true]);
    assert.equal((await co.get(`/api/risk/rule-sets/${auto.body.versione_id}`)).status, 404);

    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant }).where('action', 'like', 'risk_model.%').select('action');
    for (const a of ['risk_model.seed', 'risk_model.draft-create', 'risk_model.rule-update', 'risk_model.rule-create', 'risk_model.rule-deactivate', 'risk_model.activate', 'risk_model.draft-discard']) {
      assert.ok(audit.some((x: { action: string }) => x.action === a), a);
    }
    assert.equal((await verifyAuditChain(env.ownerDb, tenant)).ok, true);
  });

  it('refuses an activation while a draft condition is invalid (stored before the catalogue changed), naming the rule', async () => {
    const draft = await co.post('/api/risk/rule-sets', {});
    assert.equal(draft.status, 201, draft.text);
    const rule = (draft.body.regole as { id: string; codice: string }[]).find((r) => r.codice === 'pep')!;
    await env.ownerDb('rischio_regole').where({ id: rule.id }).update({ condizione: JSON.stringify({ campo: 'cliente.vecchio_campo', op: 'eq', valore: true }) });
    const refused = await co.post(`/api/risk/rule-sets/${draft.body.id}/activate`, {});
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(paths(refused), ['regole.pep.condizione.campo']);
    assert.equal((await co.delete(`/api/risk/rule-sets/${draft.body.id}`)).status, 200);
  });

  it('keeps thresholds increasing with the class; one threshold per class', async () => {
    const items = (await co.get('/api/risk/policy/thresholds')).body.items as { id: string; classe: string }[];
    const medio = items.find((s) => s.classe === 'medio')!;
    const wrong = await co.put(`/api/risk/policy/thresholds/${medio.id}`, { punteggio_min: 45 });
    assert.equal(wrong.status, 422);
    assert.deepEqual(paths(wrong), ['punteggio_min']);
    assert.match(wrong.body.errors[0].message, /Medio-alto.*deve superare.*Medio/);
    const ok = await admin.put(`/api/risk/policy/thresholds/${medio.id}`, { punteggio_min: 25, revisione_mesi: 30 });
    assert.deepEqual([ok.status, ok.body.punteggio_min, ok.body.revisione_mesi], [200, 25, 30]);
    assert.deepEqual(paths(await co.put(`/api/risk/policy/thresholds/${medio.id}`, { revisione_mesi: 0, livello_cdd: 'nessuna' })).sort(), ['livello_cdd', 'revisione_mesi']);
    const dup = await co.post('/api/risk/policy/thresholds', { classe: 'alto', punteggio_min: 60, livello_cdd: 'rafforzata', revisione_mesi: 12, approvazione: 'co' });
    assert.deepEqual([dup.status, dup.body.code], [409, 'THRESHOLD_EXISTS']);
    assert.equal((await analyst.put(`/api/risk/policy/thresholds/${medio.id}`, { punteggio_min: 21 })).status, 403);
  });

  it('answers 404 for another tenant\'s ids in the path and for ids that are not ids; 422 for one named in a body', async () => {
    const rule = (await co.get('/api/risk/rules')).body.items[0];
    const set = (await co.get('/api/risk/rule-sets')).body.items[0];
    const soglia = (await co.get('/api/risk/policy/thresholds')).body.items[0];
    const factor = (await co.get('/api/risk/factors')).body.items[0];
    for (const r of [
      await outsider.get(`/api/risk/rules/${rule.id}`), await outsider.put(`/api/risk/rules/${rule.id}`, { punti: 1 }), await outsider.delete(`/api/risk/rules/${rule.id}`),
      await outsider.get(`/api/risk/rule-sets/${set.id}`), await outsider.post(`/api/risk/rule-sets/${set.id}/activate`, {}), await outsider.delete(`/api/risk/rule-sets/${set.id}`),
      await outsider.put(`/api/risk/policy/thresholds/${soglia.id}`, { punteggio_min: 1 }), await outsider.put(`/api/risk/factors/${factor.id}`, { nome: 'x' }),
      await outsider.get(`/api/risk/rules?versione_id=${set.id}`),
      await co.get('/api/risk/rules/not-an-id'), await co.get('/api/risk/rule-sets/123'),
    ]) assert.equal(r.status, 404, r.text);
    // A version named in a body is a reference: another tenant's is a 422 on its field, as if it did not exist.
    assert.deepEqual(paths(await outsider.post('/api/risk/policy/evaluate', { versione_id: set.id })), ['versione_id']);
    // The outsider's own model is untouched and its own.
    const own = (await outsider.get('/api/risk/rule-sets')).body.items;
    assert.deepEqual(own.map((v: { versione: number }) => v.versione), [1]);
  });

  it('factors: create, rename, deactivate (then no new rule may use it)', async () => {
    const created = await co.post('/api/risk/factors', { codice: 'eta', nome: 'Età del cliente', famiglia: 'cliente' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(paths(await co.post('/api/risk/factors', { codice: 'eta', nome: 'Doppio', famiglia: 'cliente' })), ['codice']);
    assert.deepEqual(paths(await co.post('/api/risk/factors', { codice: 'x', nome: 'X', famiglia: 'spazio' })).sort(), ['codice', 'famiglia']);
    const renamed = await co.put(`/api/risk/factors/${created.body.id}`, { nome: 'Età' });
    assert.equal(renamed.body.nome, 'Età');
    const off = await co.delete(`/api/risk/factors/${created.body.id}`);
    assert.equal(off.body.attivo, false);
    const rule = await co.post('/api/risk/rules', { fattore_id: created.body.id, codice: 'eta_minima', nome: 'Età', punti: 1, condizione: { campo: 'cliente.eta_anni', op: 'lt', valore: 18 } });
    assert.deepEqual([rule.status, paths(rule)], [422, ['fattore_id']]);
  });
});
