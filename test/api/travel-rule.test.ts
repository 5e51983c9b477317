import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { ethWallet, ivms101Payload } from '../helpers/travel-rule-fixture';

const SHARED = join(process.cwd(), '..', 'shared', 'data');
/** An OFAC-listed Ethereum address (Garantex), as the shared crypto list has it. */
const SANCTIONED = '0x4F47BC496083C727C5FBE3CE9CDF2B0F6496270C';
const BASE = '/api/v1/travel-rule/transazioni';

/**
 * The travel-rule API and pages on the real stack: recording (IVMS101 validated, idempotent on
 * the sender's reference), screening, the decisions the rules allow, a held transfer completed
 * and approved, a sanctioned address rejected, and the refusals: bad input (422 naming each
 * field), another tenant's transfer (404), an invalid transition (409 with the allowed actions),
 * a role that may not act (403).
 */
describe('travel rule API and pages', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient, co: TestClient, admin: TestClient, viewer: TestClient, outsider: TestClient;
  let dataDir: string;
  let n = 0;
  const previousDir = process.env.SANCTIONS_DATA_DIR;

  before(async () => {
    env = await getTestEnv();
    dataDir = mkdtempSync(join(tmpdir(), 'cp-travel-rule-'));
    cpSync(join(SHARED, 'sanctions', 'un'), join(dataDir, 'un'), { recursive: true });
    cpSync(join(SHARED, 'sanctions', 'crypto'), join(dataDir, 'crypto'), { recursive: true });
    process.env.SANCTIONS_DATA_DIR = dataDir;
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [analyst, co, admin, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    const platform = await env.login(await env.createUser({ tenant: null, roles: ['superadmin'] }));
    const r = await platform.post('/api/v1/screening/import', {});
    assert.equal(r.status, 202, r.text);
    await env.temporal.workflow.getHandle(r.body.workflow_id).result();
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-TR0001', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Bianchi', created_by: 'test' });
  });

  after(() => {
    if (previousDir === undefined) delete process.env.SANCTIONS_DATA_DIR; else process.env.SANCTIONS_DATA_DIR = previousDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const transfer = (over: Record<string, unknown> = {}) => ({
    riferimento_esterno: `EXT-${process.pid}-${++n}`, direzione: 'in_entrata', cod_anagrafe: 'ANA-TR0001', asset: 'ETH', rete: 'ETH', importo: '0.75', importo_eur: 2100.5,
    tx_hash: `0x${String(n).padStart(64, 'a')}`, indirizzo_originatore: '0x1111111111111111111111111111111111111111',
    indirizzo_beneficiario: '0x2222222222222222222222222222222222222222', tipo_wallet: 'vasp', vasp_controparte: 'Krypto Bank AG', ivms101: ivms101Payload(), ...over,
  });
  async function recorded(over: Record<string, unknown> = {}, client = analyst) {
    const r = await client.post(BASE, transfer(over));
    assert.equal(r.status, 201, r.text);
    return r.body as { cod_transazione: string; id: string; [k: string]: any };
  }
  async function screened(over: Record<string, unknown> = {}) {
    const t = await recorded(over);
    const s = await analyst.post(`${BASE}/${t.cod_transazione}/screen`, {});
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.stato, 'screened');
    return s.body as { cod_transazione: string; id: string; [k: string]: any };
  }
  const audit = (id: string) => env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'travel_rule', entity_id: id }).orderBy('id').pluck('action');

  it('records a transfer (201, TRR code, received, audited) and answers the same reference again without a second record', async () => {
    const body = transfer();
    const r = await analyst.post(BASE, body);
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.cod_transazione, /^TRR-\d{6}$/);
    assert.equal(r.headers.get('location'), `${BASE}/${r.body.cod_transazione}`);
    assert.equal(r.body.stato, 'received');
    assert.equal(r.body.importo, '0.750000000000000000');
    assert.deepEqual(r.body.allowed_actions, ['screen']);
    assert.ok(r.body.workflow.url.includes(encodeURIComponent(r.body.workflow.id)));
    assert.deepEqual(await audit(r.body.id), ['travel_rule.record']);
    const again = await analyst.post(BASE, body);
    assert.equal(again.status, 200);
    assert.equal(again.body.cod_transazione, r.body.cod_transazione);
    const clash = await analyst.post(BASE, { ...body, importo: '0.8' });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.code, 'DUPLICATE_REFERENCE');
    assert.equal(clash.body.cod_transazione, r.body.cod_transazione);
    assert.equal(await env.ownerDb('travel_rule_transazioni').where({ cod_azienda: tenant, riferimento_esterno: body.riferimento_esterno }).count<{ n: string }[]>({ n: '*' }).then((x) => Number(x[0]!.n)), 1);
  });

  it('bad input: 422 naming each field (IVMS101 fields as JSON pointers), nothing recorded; a viewer gets 403', async () => {
    const before = await env.ownerDb('travel_rule_transazioni').where({ cod_azienda: tenant }).count<{ n: string }[]>({ n: '*' });
    const sample = JSON.parse(readFileSync(join(SHARED, 'regulatory/ivms101/global-travel-rule/json/example/originator-example.json'), 'utf8'));
    const ivms = await analyst.post(BASE, transfer({ ivms101: sample }));
    assert.equal(ivms.status, 422, ivms.text);
    assert.equal(ivms.body.type, '/problems/validation-error');
    const paths = ivms.body.errors.map((e: { path: string }) => e.path);
    for (const p of ['/ivms101/beneficiary', '/ivms101/beneficiaryVASP', '/ivms101/originator/originatorPersons/0/naturalPerson/nationalIdentification/registrationAuthority']) assert.ok(paths.includes(p), `${p} in ${paths}`);
    assert.ok(ivms.body.errors.every((e: { message: string }) => /[a-z]/.test(e.message) && !/must /.test(e.message)));

    const fields = await analyst.post(BASE, { direzione: 'sideways', asset: '', importo: '-1', importo_eur: 'tanti', indirizzo_beneficiario: 'con spazi', tipo_wallet: 'cold', ivms101: [] });
    assert.equal(fields.status, 422);
    assert.deepEqual(fields.body.errors.map((e: { path: string }) => e.path).sort(), ['asset', 'direzione', 'importo', 'importo_eur', 'indirizzo_beneficiario', 'ivms101', 'tipo_wallet']);
    const customer = await analyst.post(BASE, transfer({ cod_anagrafe: 'ANA-NONE99' }));
    assert.equal(customer.status, 422);
    assert.deepEqual(customer.body.errors, [{ path: 'cod_anagrafe', message: 'Cliente non trovato in anagrafe' }]);
    assert.equal((await viewer.post(BASE, transfer())).status, 403);
    const after = await env.ownerDb('travel_rule_transazioni').where({ cod_azienda: tenant }).count<{ n: string }[]>({ n: '*' });
    assert.equal(after[0]!.n, before[0]!.n);
  });

  it('screens names and addresses, shows the rules, approves; the decision is audited and kept in the history; a closed transfer answers 409', async () => {
    const t = await screened();
    assert.equal(t.proposta, 'approved');
    assert.deepEqual(t.decisioni_ammesse, ['approved', 'held', 'returned', 'rejected']);
    assert.ok(t.screening.nomi.some((x: { nome: string }) => x.nome === 'Mario Rossi'));
    assert.ok(t.screening.indirizzi.some((x: { indirizzo: string; hit: boolean }) => x.indirizzo === '0x2222222222222222222222222222222222222222' && !x.hit));
    assert.ok(t.regole.some((r: { regola: string; esito: string }) => r.regola === 'originatore_identificazione' && r.esito === 'rispettata'));
    const d = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved' });
    assert.equal(d.status, 200, d.text);
    assert.equal(d.body.stato, 'approved');
    assert.equal(d.body.decisione, 'approved');
    assert.match(d.body.motivo, /Regole rispettate/);
    assert.deepEqual(d.body.allowed_actions, []);
    assert.deepEqual(await audit(t.id), ['travel_rule.record', 'travel_rule.screen', 'travel_rule.decide']);
    const event = await env.ownerDb('audit_events').where({ entity_id: t.id, action: 'travel_rule.decide' }).first('data');
    assert.equal(event.data.proposta, 'approved');
    assert.ok(event.data.regole.length >= 8);
    const detail = await analyst.get(`${BASE}/${t.cod_transazione}`);
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body.decisioni.map((x: { decisione: string }) => x.decisione), ['approved']);
    const again = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'rejected', motivo: 'Ripensamento' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'INVALID_TRANSITION');
    assert.deepEqual(again.body.allowed_actions, []);
    assert.equal((await analyst.post(`${BASE}/${t.cod_transazione}/screen`, {})).status, 409);
  });

  it('a decision before screening is a 409 naming screen; a bad decision body is a 422', async () => {
    const t = await recorded();
    const r = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved' });
    assert.equal(r.status, 409);
    assert.deepEqual(r.body.allowed_actions, ['screen']);
    assert.equal(r.body.state, 'received');
    const bad = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'maybe' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path), ['decisione']);
  });

  it('missing information: held with the fields listed (approval refused by the rules), completed, screened again and approved', async () => {
    const t = await screened({ ivms101: ivms101Payload({ senzaNomeBeneficiario: true }) });
    assert.equal(t.proposta, 'held');
    assert.deepEqual(t.informazioni_mancanti.map((m: { campo: string }) => m.campo), ['/beneficiary/beneficiaryPersons/0/naturalPerson/name']);
    const refused = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'DECISION_NOT_ALLOWED');
    assert.deepEqual(refused.body.decisioni_ammesse, ['held', 'returned', 'rejected']);
    assert.deepEqual(refused.body.allowed_actions, ['hold', 'return', 'reject']);
    const noReason = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'held' });
    assert.equal(noReason.status, 422);
    assert.deepEqual(noReason.body.errors.map((e: { path: string }) => e.path), ['motivo']);
    const held = await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'held', motivo: 'Richiesto il nome del beneficiario al prestatore ordinante' });
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.stato, 'held');
    assert.deepEqual(held.body.allowed_actions.sort(), ['complete', 'reject', 'return']);

    const invalid = await analyst.post(`${BASE}/${t.cod_transazione}/integrazione`, { ivms101: { originator: {} } });
    assert.equal(invalid.status, 422);
    assert.ok(invalid.body.errors.some((e: { path: string }) => e.path === '/ivms101/originator/originatorPersons'));
    const done = await analyst.post(`${BASE}/${t.cod_transazione}/integrazione`, { ivms101: ivms101Payload() });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.stato, 'screened');
    assert.equal(done.body.proposta, 'approved');
    const ok = await analyst.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved', motivo: 'Nome del beneficiario ricevuto' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.stato, 'approved');
    const detail = await analyst.get(`${BASE}/${t.cod_transazione}`);
    assert.deepEqual(detail.body.decisioni.map((x: { decisione: string }) => x.decisione), ['held', 'approved']);
    assert.deepEqual(await audit(t.id), ['travel_rule.record', 'travel_rule.screen', 'travel_rule.decide', 'travel_rule.complete', 'travel_rule.screen', 'travel_rule.decide']);
    const completion = await env.ownerDb('audit_events').where({ entity_id: t.id, action: 'travel_rule.complete' }).first('data');
    assert.deepEqual(completion.data.informazioni_richieste, ['/beneficiary/beneficiaryPersons/0/naturalPerson/name']);
    assert.ok(completion.data.ivms101_precedente.beneficiary, 'the payload it replaced is kept in the audit event');
  });

  it('a self-hosted address above EUR 1,000 is approved once the customer signs the transfer\'s own text with it', async () => {
    const w = ethWallet(11);
    const t = await screened({ tipo_wallet: 'self_hosted', indirizzo_originatore: w.indirizzo, importo_eur: 1500, vasp_controparte: null });
    assert.equal(t.proposta, 'held');
    assert.ok(t.messaggio_prova_controllo.includes(t.cod_transazione) && t.messaggio_prova_controllo.includes(w.indirizzo));
    await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'held', motivo: 'Chiesta la prova di controllo' });
    const wrong = await analyst.post(`${BASE}/${t.cod_transazione}/integrazione`, { ivms101: ivms101Payload(), prova_controllo: { messaggio: t.messaggio_prova_controllo, firma: ethWallet(12).sign(t.messaggio_prova_controllo) } });
    assert.equal(wrong.status, 200);
    assert.equal(wrong.body.proposta, 'held', 'signed by another key: still no proof');
    await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'held', motivo: 'Firma non valida: chiesta di nuovo' });
    const right = await analyst.post(`${BASE}/${t.cod_transazione}/integrazione`, { ivms101: ivms101Payload(), prova_controllo: { messaggio: t.messaggio_prova_controllo, firma: w.sign(t.messaggio_prova_controllo) } });
    assert.equal(right.body.proposta, 'approved', JSON.stringify(right.body.regole));
    assert.equal((await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved' })).body.stato, 'approved');
  });

  it('a sanctioned address: only rejection is allowed', async () => {
    const t = await screened({ indirizzo_originatore: SANCTIONED });
    assert.equal(t.proposta, 'rejected');
    assert.ok(t.screening.indirizzi.some((a: { indirizzo: string; hit: boolean }) => a.indirizzo === SANCTIONED && a.hit));
    assert.equal((await co.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'held', motivo: 'Verifica' })).body.code, 'DECISION_NOT_ALLOWED');
    const r = await co.post(`/api/v1/admin/travel-rule/${t.cod_transazione}/decisione`, { decisione: 'rejected', motivo: 'Indirizzo nella lista OFAC' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'rejected');
  });

  it('another tenant\'s transfer is not found; roles: admin records and screens but does not decide, a viewer reads only', async () => {
    const t = await recorded({}, admin);
    for (const [method, path, body] of [
      ['GET', `${BASE}/${t.cod_transazione}`, undefined], ['POST', `${BASE}/${t.cod_transazione}/screen`, {}],
      ['PUT', `${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved' }], ['POST', `/api/v1/admin/travel-rule/${t.cod_transazione}/decisione`, { decisione: 'approved' }],
      ['POST', `${BASE}/${t.cod_transazione}/integrazione`, { ivms101: ivms101Payload() }],
    ] as const) {
      const r = await outsider.request(method, path, body === undefined ? {} : { json: body });
      assert.equal(r.status, 404, `${method} ${path}: ${r.status}`);
    }
    assert.equal((await outsider.get(`/admin/travel-rule/${t.cod_transazione}`, { accept: 'text/html' })).status, 404);
    const list = await outsider.get(`${BASE}?q=${t.cod_transazione}`);
    assert.equal(list.body.items.length, 0);
    assert.equal((await admin.post(`${BASE}/${t.cod_transazione}/screen`, {})).status, 200);
    const forbidden = await admin.put(`${BASE}/${t.cod_transazione}/decisione`, { decisione: 'approved' });
    assert.equal(forbidden.status, 403);
    assert.equal((await viewer.post(`${BASE}/${t.cod_transazione}/screen`, {})).status, 403);
    assert.equal((await viewer.get(`${BASE}/${t.cod_transazione}`)).status, 200);
    assert.equal((await analyst.get(`${BASE}/TRR-999999`)).status, 404);
    assert.equal((await analyst.put(`${BASE}/non-un-codice/decisione`, { decisione: 'approved' })).status, 404);
  });

  it('lists through the list kit with filters and search; a bad filter is a 422', async () => {
    const t = await recorded({ direzione: 'in_uscita' });
    const all = await viewer.get(`${BASE}?direzione=in_uscita&stato=received`);
    assert.equal(all.status, 200);
    assert.ok(all.body.items.some((x: { cod_transazione: string }) => x.cod_transazione === t.cod_transazione));
    assert.ok(all.body.items.every((x: { direzione: string; stato: string }) => x.direzione === 'in_uscita' && x.stato === 'received'));
    const q = await viewer.get(`${BASE}?q=${t.riferimento_esterno}`);
    assert.deepEqual(q.body.items.map((x: { cod_transazione: string }) => x.cod_transazione), [t.cod_transazione]);
    assert.equal((await viewer.get(`${BASE}?stato=boh`)).status, 422);
    assert.equal((await viewer.get(`${BASE}?sort=-cod_transazione&limit=2`)).body.items.length, 2);
  });

  it('pages: list and detail render; the decision form shows its errors next to the fields; screen and decide through the forms', async () => {
    const t = await recorded({ ivms101: ivms101Payload({ senzaNomeBeneficiario: true }) });
    const list = await co.get('/admin/travel-rule?stato=received', { accept: 'text/html' });
    assert.equal(list.status, 200);
    assert.match(list.text, new RegExp(t.cod_transazione));
    const screen = await co.submitForm(`/admin/travel-rule/${t.cod_transazione}/screen`, {}, `/admin/travel-rule/${t.cod_transazione}`);
    assert.equal(screen.status, 302, screen.text.slice(0, 500));
    const missing = await co.submitForm(`/admin/travel-rule/${t.cod_transazione}/decisione`, { decisione: '', motivo: '' }, `/admin/travel-rule/${t.cod_transazione}`);
    assert.equal(missing.status, 422);
    assert.match(missing.text, /id="f-decisione-err"/);
    const refused = await co.submitForm(`/admin/travel-rule/${t.cod_transazione}/decisione`, { decisione: 'held', motivo: '' }, `/admin/travel-rule/${t.cod_transazione}`);
    assert.equal(refused.status, 422);
    assert.match(refused.text, /id="f-motivo-err"/);
    const held = await co.submitForm(`/admin/travel-rule/${t.cod_transazione}/decisione`, { decisione: 'held', motivo: 'Manca il nome del beneficiario' }, `/admin/travel-rule/${t.cod_transazione}`);
    assert.equal(held.status, 302);
    const badJson = await analyst.submitForm(`/admin/travel-rule/${t.cod_transazione}/integrazione`, { ivms101: '{ non json' }, `/admin/travel-rule/${t.cod_transazione}`);
    assert.equal(badJson.status, 422);
    assert.match(badJson.text, /id="f-ivms101-err"/);
    const badIvms = await analyst.submitForm(`/admin/travel-rule/${t.cod_transazione}/integrazione`, { ivms101: JSON.stringify({ originator: {} }) }, `/admin/travel-rule/${t.cod_transazione}`);
    assert.equal(badIvms.status, 422);
    assert.match(badIvms.text, /data-pointer="\/ivms101\/originator\/originatorPersons"/);
    const page = await viewer.get(`/admin/travel-rule/${t.cod_transazione}`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /data-current-state="held"/);
    assert.match(page.text, /data-mancante="\/beneficiary\/beneficiaryPersons\/0\/naturalPerson\/name"/);
    assert.doesNotMatch(page.text, /id="form-decisione"/, 'a viewer sees no decision form');
    assert.equal((await viewer.submitForm(`/admin/travel-rule/${t.cod_transazione}/decisione`, { decisione: 'rejected', motivo: 'x' }, `/admin/travel-rule/${t.cod_transazione}`)).status, 403);
  });
});
