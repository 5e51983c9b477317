import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { activeRuleVersions } from '../../src/domains/monitoring';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, ruleBody } from '../helpers/monitoring-fixture';

const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();

describe('monitoring rules API (/api/monitoring/rules)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient, co2: TestClient, admin: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;

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
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
  });

  it('creates a rule as its first draft (201), lists it with its draft and reads it by id or code', async () => {
    const r = await co.post('/api/monitoring/rules', ruleBody('contanti_mese'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.get('location'), `/api/monitoring/rules/${r.body.id}`);
    assert.equal(r.body.cod_regola, 'contanti_mese');
    assert.equal(r.body.attiva, null);
    assert.equal(r.body.bozza.versione, 1);
    assert.equal(r.body.bozza.stato, 'bozza');
    assert.deepEqual(r.body.bozza.indicatori, ['11.1']);
    assert.deepEqual(r.body.bozza.condizione, ruleBody('x').condizione);
    const list = await viewer.get('/api/monitoring/rules?bozza=true&limit=200');
    assert.equal(list.status, 200, list.text);
    const item = list.body.items.find((i: { cod_regola: string }) => i.cod_regola === 'contanti_mese');
    assert.deepEqual([item.bozza_versione, item.attiva_versione], [1, null]);
    assert.equal((await viewer.get('/api/monitoring/rules/contanti_mese')).body.id, r.body.id);
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'monitoring_rule', entity_id: r.body.id }).select('action');
    assert.deepEqual(audit.map((a) => a.action), ['monitoring.rule.create']);
  });

  it('refuses a malformed rule with 422 naming the path of the bad node, the field, the indicator', async () => {
    const badOp = await co.post('/api/monitoring/rules', ruleBody('rotta_1', {
      condizione: { tutti: [{ campo: 'evento.contanti', op: 'eq', valore: true }, { aggregato: { fn: 'sum', finestra_giorni: 30 }, op: 'boh', valore: 1 }] },
    }));
    assert.equal(badOp.status, 422, badOp.text);
    assert.deepEqual(paths(badOp), ['condizione.tutti.1.op']);
    const unknownField = await co.post('/api/monitoring/rules', ruleBody('rotta_2', { condizione: { almeno_uno: [{ campo: 'cliente.colore_occhi', op: 'eq', valore: 'blu' }] } }));
    assert.deepEqual(paths(unknownField), ['condizione.almeno_uno.0.campo']);
    assert.match(unknownField.body.errors[0].message, /Campo sconosciuto/);
    const badWindow = await co.post('/api/monitoring/rules', ruleBody('rotta_3', { condizione: { aggregato: { fn: 'count', finestra_giorni: 0 }, op: 'gt', valore: 3 } }));
    assert.deepEqual(paths(badWindow), ['condizione.aggregato.finestra_giorni']);
    const noCondition = await co.post('/api/monitoring/rules', ruleBody('rotta_4', { condizione: undefined }));
    assert.deepEqual(paths(noCondition), ['condizione']);
    const fields = await co.post('/api/monitoring/rules', ruleBody('Rotta 5', { indicatori: ['11.1', '99.9'], punteggio: 0, ambito: 'settimanale', tipologia: 'magia', nome: '' }));
    assert.deepEqual(paths(fields), ['ambito', 'cod_regola', 'indicatori.1', 'nome', 'punteggio', 'tipologia']);
    assert.match(fields.body.errors.find((e: { path: string }) => e.path === 'indicatori.1').message, /99\.9/);
    const dup = await co.post('/api/monitoring/rules', ruleBody('contanti_mese'));
    assert.deepEqual([dup.status, paths(dup)], [422, ['cod_regola']]);
    assert.equal(await env.ownerDb('monitoring_regole').where({ cod_azienda: tenant }).whereLike('cod_regola', 'rotta%').count('* as n').first().then((x) => Number(x!.n)), 0);
  });

  it('edits the draft in place; once a version is in force, the next edit opens one new draft from it', async () => {
    const created = await co.post('/api/monitoring/rules', ruleBody('fan_in_30'));
    const id = created.body.id;
    const edit = await admin.put(`/api/monitoring/rules/${id}`, { punteggio: 75 });
    assert.equal(edit.status, 200, edit.text);
    assert.deepEqual([edit.body.bozza.versione, edit.body.bozza.punteggio, edit.body.versioni.length], [1, 75, 1]);

    await activateDraft(env, tenant, created.body.bozza.id);
    const active = await viewer.get(`/api/monitoring/rules/${id}`);
    assert.deepEqual([active.body.attiva.versione, active.body.attiva.punteggio, active.body.bozza], [1, 75, null]);

    const draft = await co.put(`/api/monitoring/rules/${id}`, { condizione: { aggregato: { fn: 'distinct_counterparties', finestra_giorni: 30, segno: 'entrata' }, op: 'gte', valore: 20 } });
    assert.equal(draft.status, 200, draft.text);
    assert.equal(draft.body.bozza.versione, 2);
    assert.equal(draft.body.bozza.basata_su, active.body.attiva.id);
    assert.equal(draft.body.bozza.punteggio, 75, 'copied from the version in force');
    assert.equal(draft.body.attiva.versione, 1, 'the version in force is untouched');
    assert.deepEqual(draft.body.attiva.condizione, ruleBody('x').condizione);
    const again = await co.put(`/api/monitoring/rules/${id}`, { punteggio: 80, nome: 'Molte controparti in entrata', tipologia: 'fan_in' });
    assert.deepEqual([again.body.bozza.versione, again.body.bozza.punteggio, again.body.versioni.length], [2, 80, 2]);
    assert.deepEqual([again.body.nome, again.body.tipologia], ['Molte controparti in entrata', 'fan_in']);
    const actions = await env.ownerDb('audit_events').where({ entity_type: 'monitoring_rule', entity_id: id }).orderBy('id').pluck('action');
    assert.deepEqual(actions, ['monitoring.rule.create', 'monitoring.rule.update', 'monitoring.rule.activate', 'monitoring.rule.draft', 'monitoring.rule.update',
      'monitoring.rule.rename', 'monitoring.rule.update']);

    // What the evaluation paths load: the version in force only.
    const loaded = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => activeRuleVersions(trx, tenant));
    const mine = loaded.find((v) => v.cod_regola === 'fan_in_30')!;
    assert.deepEqual([mine.versione, mine.punteggio, mine.tipologia], [1, 75, 'fan_in']);

    // Put the second draft in force: the first version is retired in the same step.
    await activateDraft(env, tenant, again.body.bozza.id);
    const after = await viewer.get(`/api/monitoring/rules/${id}`);
    assert.deepEqual(after.body.versioni.map((v: { versione: number; stato: string }) => `${v.versione}:${v.stato}`), ['2:attiva', '1:ritirata']);
    await assert.rejects(activateDraft(env, tenant, again.body.bozza.id), /non è una bozza/);
  });

  it('retires the version in force (compliance officer only, with a reason) and discards a draft that is not the only version', async () => {
    const created = await co.post('/api/monitoring/rules', ruleBody('paesi_rischio'));
    const id = created.body.id;
    const only = await co.put(`/api/monitoring/rules/${id}`, { azione: 'scarta_bozza' });
    assert.deepEqual([only.status, only.body.code], [409, 'ONLY_VERSION']);
    const noActive = await co.put(`/api/monitoring/rules/${id}`, { azione: 'ritira', motivazione: 'Troppi falsi positivi' });
    assert.deepEqual([noActive.status, noActive.body.code], [409, 'NO_ACTIVE_VERSION']);
    await activateDraft(env, tenant, created.body.bozza.id);
    assert.deepEqual(paths(await co.put(`/api/monitoring/rules/${id}`, { azione: 'ritira' })), ['motivazione']);
    const byAdmin = await admin.put(`/api/monitoring/rules/${id}`, { azione: 'ritira', motivazione: 'Regola superata' });
    assert.equal(byAdmin.status, 403, 'an admin edits drafts but does not take detection away');
    await co.put(`/api/monitoring/rules/${id}`, { punteggio: 30 });
    const discarded = await co2.put(`/api/monitoring/rules/${id}`, { azione: 'scarta_bozza' });
    assert.equal(discarded.status, 200, discarded.text);
    assert.deepEqual([discarded.body.bozza, discarded.body.versioni.length], [null, 1]);
    const retired = await co2.put(`/api/monitoring/rules/${id}`, { azione: 'ritira', motivazione: 'Regola superata' });
    assert.equal(retired.status, 200, retired.text);
    assert.deepEqual([retired.body.attiva, retired.body.versioni[0].stato, retired.body.versioni[0].motivazione_ritiro], [null, 'ritirata', 'Regola superata']);
    // A retired rule comes back as a new draft from its latest version.
    const revived = await co.put(`/api/monitoring/rules/${id}`, { punteggio: 40 });
    assert.deepEqual([revived.body.bozza.versione, revived.body.bozza.punteggio], [2, 40]);
    assert.deepEqual(paths(await co.put(`/api/monitoring/rules/${id}`, {})), ['']);
  });

  it('keeps rules to their tenant and their writers', async () => {
    const mine = await co.post('/api/monitoring/rules', ruleBody('solo_mia'));
    assert.equal((await outsider.get(`/api/monitoring/rules/${mine.body.id}`)).status, 404);
    assert.equal((await outsider.get('/api/monitoring/rules/solo_mia')).status, 404);
    assert.equal((await outsider.put(`/api/monitoring/rules/${mine.body.id}`, { punteggio: 1 })).status, 404);
    assert.ok(!(await outsider.get('/api/monitoring/rules')).body.items.some((i: { id: string }) => i.id === mine.body.id));
    // The other tenant may use the same code for its own rule.
    assert.equal((await outsider.post('/api/monitoring/rules', ruleBody('solo_mia'))).status, 201);
    assert.equal((await analyst.post('/api/monitoring/rules', ruleBody('da_analista'))).status, 403);
    assert.equal((await viewer.put(`/api/monitoring/rules/${mine.body.id}`, { punteggio: 5 })).status, 403);
    assert.equal((await viewer.get('/api/monitoring/rules?attiva=true&sort=-created_at')).status, 200);
    assert.deepEqual(paths(await viewer.get('/api/monitoring/rules?tipologia=magia&sort=punteggio')), ['sort', 'tipologia']);
    assert.equal((await co.get('/api/monitoring/rules/00000000-0000-4000-8000-000000000000')).status, 404);
  });
});
