import assert from 'node:assert/strict';
import { seedStructure } from '../../src/domains/verifications/structure';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/**
 * The corporate structure of a KYB (issue 13 part ubo): every structure route with bad input,
 * another tenant's and another kind's verification as 404, a duplicate edge and a closed
 * verification as 409, holdings above 100% refused, calcola-ubo's two methods and the discrepancy
 * with the declared owners, seedStructure, the audit trail and the page forms.
 */
describe('verifications: corporate structure and beneficial owners', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let kyb: string;
  let kyc: string;
  const ids: Record<string, string> = {};
  const base = () => `/api/v1/kyb/verifiche/${kyb}/struttura`;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    await env.ownerDb('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-UBO001', tipo_soggetto: 'societa', denominazione: 'Cliente Ubo S.p.A.', codice_fiscale: '01234567890', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-UBO002', tipo_soggetto: 'persona_fisica', nome: 'Piero', cognome: 'Sala', denominazione: 'Piero Sala', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-UBO003', tipo_soggetto: 'societa', denominazione: 'Seconda Ubo S.r.l.', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
    ]);
    const b = await analyst.post('/api/v1/kyb/verifiche', {
      cod_anagrafe: 'ANA-UBO001',
      dati_dichiarati: { titolari: [{ nome: 'Mario', cognome: 'Rossi', percentuale: 35, tipo_controllo: 'proprieta_indiretta' }, { nome: 'Carla', cognome: 'Blu', percentuale: 30, tipo_controllo: 'proprieta_diretta' }] },
    });
    assert.equal(b.status, 201, b.text);
    kyb = b.body.cod_verifica;
    const k = await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: 'ANA-UBO002' });
    assert.equal(k.status, 201, k.text);
    kyc = k.body.cod_verifica;
  });

  it('reads a structure; another tenant\'s, a KYC\'s or an unknown code is 404', async () => {
    const r = await viewer.get(base());
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.cod_verifica, kyb);
    assert.equal(r.body.calcolo, null);
    assert.equal((await outsider.get(base())).status, 404);
    assert.equal((await viewer.get(`/api/v1/kyb/verifiche/${kyc}/struttura`)).status, 404);
    const missing = await viewer.get('/api/v1/kyb/verifiche/KYB-999999/struttura');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'NOT_FOUND');
    assert.equal((await outsider.post(`${base()}/nodi`, { tipo: 'societa', denominazione: 'X' })).status, 404);
    assert.equal((await outsider.post(`${base()}/calcola-ubo`, {})).status, 404);
  });

  it('adds nodes: bad input named by field, a viewer refused, the customer as root created on the first change', async () => {
    let r = await analyst.post(`${base()}/nodi`, { tipo: 'fondazione', denominazione: ' ', paese: 'Italia', data_nascita: '1980-01-01' });
    assert.equal(r.status, 422);
    const paths = r.body.errors.map((e: { path: string }) => e.path).sort();
    assert.deepEqual(paths, ['denominazione', 'paese', 'tipo']);
    r = await analyst.post(`${base()}/nodi`, { tipo: 'societa', denominazione: 'Alfa S.r.l.', data_nascita: '1980-01-01' });
    assert.equal(r.status, 422);
    assert.equal(r.body.errors[0].path, 'data_nascita');
    r = await analyst.post(`${base()}/nodi`, { tipo: 'persona_fisica', denominazione: 'Tizio', data_nascita: '2999-01-01' });
    assert.equal(r.body.errors[0].path, 'data_nascita');
    r = await analyst.post(`${base()}/nodi`, { tipo: 'persona_fisica', denominazione: 'Tizio', cod_anagrafe: 'ANA-NONE' });
    assert.equal(r.status, 422);
    assert.equal(r.body.errors[0].path, 'cod_anagrafe');
    assert.equal((await viewer.post(`${base()}/nodi`, { tipo: 'societa', denominazione: 'Alfa S.r.l.' })).status, 403);

    for (const [key, tipo, denominazione] of [
      ['alfa', 'societa', 'Alfa S.r.l.'], ['gamma', 'societa', 'Gamma S.r.l.'], ['rossi', 'persona_fisica', 'Mario Rossi'],
      ['bianchi', 'persona_fisica', 'Laura Bianchi'], ['verdi', 'persona_fisica', 'Giulia Verdi'], ['neri', 'persona_fisica', 'Paolo Neri'],
    ] as const) {
      r = await analyst.post(`${base()}/nodi`, { tipo, denominazione, paese: 'it' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.paese, 'IT');
      ids[key] = r.body.id;
    }
    const s = await viewer.get(base());
    const root = s.body.nodi.find((n: { radice: boolean }) => n.radice);
    assert.equal(root.denominazione, 'Cliente Ubo S.p.A.');
    assert.equal(root.cod_anagrafe, 'ANA-UBO001');
    ids.root = root.id;
  });

  it('adds edges: validated, a duplicate is 409, holdings over 100% refused', async () => {
    const edge = (da: string, a: string, tipo: string, extra: Record<string, unknown> = {}) => analyst.post(`${base()}/archi`, { da_nodo_id: ids[da], a_nodo_id: ids[a], tipo, ...extra });
    let r = await analyst.post(`${base()}/archi`, { da_nodo_id: 'x', tipo: 'partecipazione' });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), ['a_nodo_id', 'da_nodo_id']);
    r = await edge('rossi', 'alfa', 'partecipazione');
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), ['percentuale']);
    r = await edge('rossi', 'alfa', 'partecipazione', { percentuale: 150 });
    assert.equal(r.body.errors[0].path, 'percentuale');
    r = await edge('rossi', 'alfa', 'trustee', { percentuale: 10 });
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), ['percentuale']);
    r = await edge('rossi', 'rossi', 'partecipazione', { percentuale: 10 });
    assert.equal(r.body.errors[0].path, 'a_nodo_id');
    r = await edge('rossi', 'bianchi', 'partecipazione', { percentuale: 10 });
    assert.equal(r.status, 422, 'a share of a person');
    assert.match(r.body.errors[0].message, /persona fisica/);
    r = await edge('rossi', 'alfa', 'trustee');
    assert.equal(r.status, 422, 'a trustee of a company');
    // A node of another structure is not in this one.
    const otherNode = await env.ownerDb('strutture_nodi').whereNot('verifica_id', (await env.ownerDb('verifiche').where({ cod_azienda: tenant, cod_verifica: kyb }).first('id')).id).first('id');
    if (otherNode) {
      r = await analyst.post(`${base()}/archi`, { da_nodo_id: otherNode.id, a_nodo_id: ids.alfa, tipo: 'partecipazione', percentuale: 5 });
      assert.equal(r.body.errors[0].path, 'da_nodo_id');
    }

    // The worked example of docs/ubo.md.
    for (const [da, a, p] of [['rossi', 'alfa', 60], ['bianchi', 'alfa', 40], ['alfa', 'root', 40], ['verdi', 'gamma', 45], ['neri', 'gamma', 45], ['bianchi', 'gamma', 10], ['gamma', 'root', 60]] as const) {
      r = await edge(da, a, 'partecipazione', { percentuale: p });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.percentuale, p);
    }
    r = await edge('rossi', 'alfa', 'partecipazione', { percentuale: 1 });
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'DUPLICATE_EDGE');
    r = await edge('rossi', 'root', 'partecipazione', { percentuale: 0.5 });
    assert.equal(r.status, 422, 'the customer is already 100% held');
    assert.equal(r.body.errors[0].path, 'percentuale');
    assert.match(r.body.errors[0].message, /supererebbero il 100%/);
    r = await edge('rossi', 'root', 'amministratore');
    assert.equal(r.status, 201);
  });

  it('calcola-ubo: both methods with their paths and differences, compared with the declared owners', async () => {
    let r = await analyst.post(`${base()}/calcola-ubo`, { soglia: 100 });
    assert.equal(r.status, 422);
    assert.equal(r.body.errors[0].path, 'soglia');
    assert.equal((await viewer.post(`${base()}/calcola-ubo`, {})).status, 403);
    r = await analyst.post(`${base()}/calcola-ubo`, {});
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.soglia, 25);
    const it = r.body.risultato.italiano;
    assert.equal(it.criterio, 'proprieta');
    assert.deepEqual(it.titolari.map((o: { denominazione: string; percentuale: number }) => `${o.denominazione}:${o.percentuale}`), ['Mario Rossi:40']);
    assert.deepEqual(it.titolari[0].motivi[0].percorsi[0].nodi, ['Mario Rossi', 'Alfa S.r.l.', 'Cliente Ubo S.p.A.']);
    assert.deepEqual(r.body.risultato.moltiplicativo.titolari.map((o: { denominazione: string; percentuale: number }) => `${o.denominazione}:${o.percentuale}`).sort(),
      ['Giulia Verdi:27', 'Paolo Neri:27']);
    assert.equal(r.body.risultato.differenze.length, 3);
    // Declared: Rossi 35% (computed 40%), Carla Blu (not confirmed).
    assert.equal(r.body.discrepanza_ubo, true);
    assert.deepEqual(r.body.discrepanze.map((d: { tipo: string; denominazione: string }) => `${d.tipo}:${d.denominazione}`).sort(), ['mancante:Carla Blu', 'quota:Mario Rossi']);
    const v = await env.ownerDb('verifiche').where({ cod_azienda: tenant, cod_verifica: kyb }).first();
    assert.equal(v.discrepanza_ubo, true);
    assert.equal(v.discrepanze_ubo.length, 2);
    const s = await viewer.get(base());
    assert.equal(s.body.calcolo.id, r.body.id);
    assert.equal(s.body.discrepanza_ubo, true);
    const actions = (await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'verifica', entity_id: v.id }).pluck('action'));
    for (const a of ['verifica.struttura_nodo', 'verifica.struttura_arco', 'verifica.calcola_ubo']) assert.ok(actions.includes(a), a);
  });

  it('calcola-ubo: nobody by ownership or control and no representative recorded is a warning naming the customer, answered and stored', async () => {
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: 'ANA-UBO004', tipo_soggetto: 'societa', denominazione: 'Senza Legali S.r.l.', codice_fiscale: '09876543210', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test',
    });
    const b = await analyst.post('/api/v1/kyb/verifiche', { cod_anagrafe: 'ANA-UBO004' });
    assert.equal(b.status, 201, b.text);
    const url = `/api/v1/kyb/verifiche/${b.body.cod_verifica}/struttura`;
    const root = (await viewer.get(url)).body.nodi.find((n: { radice: boolean }) => n.radice).id;
    const node = async (denominazione: string) => (await analyst.post(`${url}/nodi`, { tipo: 'persona_fisica', denominazione })).body.id as string;
    const [a, c, legale] = [await node('Anna Venti'), await node('Carlo Venti'), await node('Lia Legale')];
    for (const da of [a, c]) assert.equal((await analyst.post(`${url}/archi`, { da_nodo_id: da, a_nodo_id: root, tipo: 'partecipazione', percentuale: 20 })).status, 201);

    let r = await analyst.post(`${url}/calcola-ubo`, {});
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.risultato.italiano.titolari, []);
    assert.equal(r.body.risultato.avvisi.length, 1);
    const w = r.body.risultato.avvisi[0];
    assert.equal(w.codice, 'rappresentanti_mancanti');
    assert.deepEqual(w.metodi, ['italiano', 'moltiplicativo']);
    assert.deepEqual(w.soggetti.map((s: Record<string, unknown>) => [s.nodo_id, s.denominazione, s.cod_anagrafe, s.codice_fiscale, s.cliente]),
      [[root, 'Senza Legali S.r.l.', 'ANA-UBO004', '09876543210', true]]);
    assert.match(w.soggetti[0].messaggio, /^Senza Legali S\.r\.l\. \(anagrafe ANA-UBO004, codice fiscale 09876543210\): nessun legale rappresentante/);
    // Stored with the result: the structure's latest calculation and the row say the same.
    assert.deepEqual((await viewer.get(url)).body.calcolo.risultato.avvisi, r.body.risultato.avvisi);
    const row = await env.ownerDb('strutture_calcoli').where({ cod_azienda: tenant, id: r.body.id }).first();
    assert.equal(row.risultato.avvisi[0].soggetti[0].cod_anagrafe, 'ANA-UBO004');
    const page = await analyst.get(`/admin/kyb/${b.body.cod_verifica}`, { accept: 'text/html' });
    assert.match(page.text, /data-avviso="rappresentanti_mancanti"[\s\S]*Mancano i legali rappresentanti o gli amministratori[\s\S]*Senza Legali S\.r\.l\. \(anagrafe ANA-UBO004, codice fiscale 09876543210\)/);

    // With the legal representative recorded, the residual criterion names her and the warning is gone.
    assert.equal((await analyst.post(`${url}/archi`, { da_nodo_id: legale, a_nodo_id: root, tipo: 'rappresentante_legale' })).status, 201);
    r = await analyst.post(`${url}/calcola-ubo`, {});
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.risultato.italiano.criterio, 'residuale');
    assert.deepEqual(r.body.risultato.italiano.titolari.map((o: { denominazione: string }) => o.denominazione), ['Lia Legale']);
    assert.deepEqual(r.body.risultato.avvisi, []);
  });

  it('seedStructure: the customer and the declared owners as nodes, no edge taken from the declaration; twice changes nothing', async () => {
    const b = await analyst.post('/api/v1/kyb/verifiche', { cod_anagrafe: 'ANA-UBO003' });
    assert.equal(b.status, 201, b.text);
    const v = await env.ownerDb('verifiche').where({ cod_azienda: tenant, cod_verifica: b.body.cod_verifica }).first();
    await env.ownerDb('strutture_archi').where({ verifica_id: v.id }).delete();
    await env.ownerDb('strutture_nodi').where({ verifica_id: v.id }).delete();
    const req = {
      codAzienda: tenant, actor: { id: 'test-user', username: 'test' }, verificaId: v.id,
      titolari: [{ nome: 'Anna', cognome: 'Neri', percentuale: 60, tipo_controllo: 'proprieta_diretta', codice_fiscale: 'nrenna80a41f205x', nazionalita: 'IT' },
        { nome: 'Bruno', cognome: 'Gialli', tipo_controllo: 'rappresentanza' }, { nome: 'Carlo', cognome: 'Viola', percentuale: 30, tipo_controllo: 'proprieta_indiretta' }],
    };
    assert.deepEqual(await env.ownerDb.transaction((trx) => seedStructure(trx, req)), { nodi: 4, archi: 0 });
    assert.deepEqual(await env.ownerDb.transaction((trx) => seedStructure(trx, req)), { nodi: 0, archi: 0 });
    const s = await viewer.get(`/api/v1/kyb/verifiche/${b.body.cod_verifica}/struttura`);
    assert.deepEqual(s.body.nodi.map((n: { denominazione: string }) => n.denominazione), ['Seconda Ubo S.r.l.', 'Anna Neri', 'Bruno Gialli', 'Carlo Viola']);
    assert.equal(s.body.nodi[1].codice_fiscale, 'NRENNA80A41F205X');
    assert.deepEqual(s.body.archi, [], 'the declared shares are compared with the structure, never drawn into it');
    // A decided verification's structure is not changed.
    await env.ownerDb('verifiche').where({ id: v.id }).update({ stato: 'rejected', motivo_rifiuto: 'test', decided_by: 'test', decided_at: new Date() });
    const r = await analyst.post(`/api/v1/kyb/verifiche/${b.body.cod_verifica}/struttura/nodi`, { tipo: 'societa', denominazione: 'Tarda S.r.l.' });
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'VERIFICATION_CLOSED');
  });

  it('the KYB page: the drawing, both methods\' owners with paths, and the forms with errors next to the fields', async () => {
    const page = `/admin/kyb/${kyb}`;
    const p = await analyst.get(page, { accept: 'text/html' });
    assert.equal(p.status, 200, p.text.slice(0, 400));
    assert.match(p.text, /data-struttura-grafo[\s\S]*<svg/);
    assert.match(p.text, /data-titolari="italiano"[\s\S]*Mario Rossi[\s\S]*data-percorso[\s\S]*Mario Rossi → Alfa S\.r\.l\. → Cliente Ubo S\.p\.A\./);
    assert.match(p.text, /data-titolari="moltiplicativo"[\s\S]*Giulia Verdi/);
    assert.match(p.text, /data-discrepanze-struttura[\s\S]*Carla Blu/);
    let r = await analyst.submitForm(`${page}/struttura/nodi`, { tipo: 'societa', denominazione: '', paese: 'Italia' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="sn-denominazione-err">Indica il nome o la denominazione/);
    assert.match(r.text, /id="sn-paese-err">Paese non valido/);
    assert.match(r.text, /value="Italia"/);
    r = await analyst.submitForm(`${page}/struttura/archi`, { da_nodo_id: ids.rossi!, a_nodo_id: ids.alfa!, tipo: 'partecipazione', percentuale: '5' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="sa-_form|alert-danger" role="alert">Questo legame tra i due soggetti è già registrato/);
    r = await analyst.submitForm(`${page}/struttura/nodi`, { tipo: 'trust', denominazione: 'Trust Famiglia Rossi' }, page);
    assert.equal(r.status, 302);
    assert.match(r.headers.get('location') ?? '', new RegExp(`${page}#struttura`));
    r = await analyst.submitForm(`${page}/struttura/calcola`, { soglia: '0' }, page);
    assert.equal(r.status, 422);
    assert.match(r.text, /id="sc-soglia-err">La soglia deve essere maggiore di 0/);
    const v = await viewer.get(page, { accept: 'text/html' });
    assert.doesNotMatch(v.text, /data-form-nodo/, 'a viewer gets no forms');
    assert.equal((await viewer.submitForm(`${page}/struttura/nodi`, { tipo: 'societa', denominazione: 'X' }, page)).status, 403);
  });
});
