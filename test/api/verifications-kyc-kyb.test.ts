import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { createDocumento } from '../../src/domains/records';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const PROFILE = {
  forma_giuridica: 'srl', numero_registro: 'MI-1234567', registro: 'Registro delle imprese di Milano', codice_ateco: '62.01.00',
  paese_costituzione: 'IT', data_costituzione: '2015-03-12', capitale_sociale: 10000,
  sede_legale: { indirizzo: 'Via Dante 1', cap: '20121', comune: 'Milano', provincia: 'MI', paese: 'IT' },
};
const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path);

/**
 * The KYC and KYB verification API (docs/verifications.md): every route with bad input, another
 * tenant's records (404), invalid transitions (409 with the allowed actions), roles (403), the
 * KYB approval held by its checks (409 naming them), the waiver rules, the audit trail.
 */
describe('verifications API: KYC and KYB', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let co: TestClient;
  let admin: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let n = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [analyst, co, admin, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  async function customer(tipo: 'persona_fisica' | 'societa' = 'persona_fisica', codAzienda = tenant): Promise<string> {
    const cod = `VAPI-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({ cod_azienda: codAzienda, cod_anagrafe: cod, tipo_soggetto: tipo, denominazione: `Cliente ${n}`, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' });
    return cod;
  }
  const auditOf = (id: string) => env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'verifica', entity_id: id }).orderBy('id');

  async function openKyb(body: Record<string, unknown> = {}) {
    const r = await analyst.post('/api/v1/kyb/verifiche', { cod_anagrafe: await customer('societa'), profilo: PROFILE, ...body });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  it('opens a KYC with declared data and its documents: code, deadline from the earliest document, workflow, audit', async () => {
    const cod = await customer();
    const doc = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => createDocumento(trx, tenant, 'test', {
      cod_anagrafe: cod, tipo: 'passaporto', numero: `YA${n}00001`, data_rilascio: '2020-01-10', data_scadenza: `${new Date().getUTCFullYear() + 1}-01-31`,
    }));
    const r = await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: cod, dati_dichiarati: { nome: 'Mario', cognome: 'Rossi' }, documenti: [doc.cod_documento] });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.cod_verifica, /^KYC-\d{6}$/);
    assert.equal(r.headers.get('location'), `/api/v1/kyc/verifiche/${r.body.cod_verifica}`);
    assert.equal(r.body.stato, 'pending');
    assert.equal(r.body.origine, 'manuale');
    assert.deepEqual(r.body.dati_dichiarati, { nome: 'Mario', cognome: 'Rossi' });
    assert.deepEqual(r.body.azioni, ['start']);
    assert.equal(r.body.documenti.length, 1);
    assert.equal(r.body.documenti[0].cod_documento, doc.cod_documento);
    assert.equal(r.body.checks, undefined, 'a KYC has no checks');
    assert.equal(r.body.workflow_id, `verification:${tenant}:${r.body.cod_verifica}`);
    const scade = Date.parse(r.body.scade_il);
    assert.ok(scade < Date.now() + 366 * 86_400_000, 'the document expires before the 365 days');
    assert.equal(new Date(scade).toISOString().slice(0, 10) >= `${new Date().getUTCFullYear() + 1}-01-31`, true);
    const [ev] = await auditOf(r.body.id);
    assert.equal(ev.action, 'verifica.create');
    assert.equal(ev.data.scadenza.tipo, 'documento');
    const described = await env.temporal.workflow.getHandle(r.body.workflow_id).describe();
    assert.equal(described.status.name, 'RUNNING');

    // Read back, and the list.
    const read = await viewer.get(`/api/v1/kyc/verifiche/${r.body.cod_verifica}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.azioni, [], 'a viewer may do nothing');
    const list = await viewer.get(`/api/v1/kyc/verifiche?cod_anagrafe=${cod}`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.items.map((v: { cod_verifica: string }) => v.cod_verifica), [r.body.cod_verifica]);
    assert.equal((await viewer.get('/api/v1/kyb/verifiche?q=' + r.body.cod_verifica)).body.items.length, 0, 'the KYB list holds KYBs only');
    assert.equal((await viewer.get('/api/v1/kyc/verifiche?stato=approved&q=' + r.body.cod_verifica)).body.items.length, 0);
  });

  it('refuses bad input naming the field, the wrong kind of customer, a second open verification, and roles that may not open one', async () => {
    for (const [body, field] of [
      [{}, 'cod_anagrafe'], [{ cod_anagrafe: '' }, 'cod_anagrafe'], [{ cod_anagrafe: 'VAPI-X', extra: 1 }, ''],
      [{ cod_anagrafe: 'VAPI-X', dati_dichiarati: [1] }, 'dati_dichiarati'], [{ cod_anagrafe: 'VAPI-X', documenti: 'DOC-1' }, 'documenti'],
    ] as const) {
      const r = await analyst.post('/api/v1/kyc/verifiche', body);
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.headers.get('content-type')?.startsWith('application/problem+json'), true);
      if (field) assert.ok(paths(r).includes(field), `${JSON.stringify(body)} names ${field}: ${r.text}`);
    }
    const unknown = await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: 'VAPI-NOPE' });
    assert.equal(unknown.status, 422);
    assert.deepEqual(paths(unknown), ['cod_anagrafe']);
    const foreign = await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: await customer('persona_fisica', other) });
    assert.equal(foreign.status, 422, 'another tenant\'s customer is not found');
    const company = await customer('societa');
    const wrongKind = await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: company });
    assert.equal(wrongKind.status, 422);
    assert.match(wrongKind.body.errors[0].message, /KYB/);
    const person = await customer();
    assert.equal((await analyst.post('/api/v1/kyb/verifiche', { cod_anagrafe: person })).status, 422);
    const noDoc = await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: person, documenti: ['DOC-999999'] });
    assert.equal(noDoc.status, 422);
    assert.deepEqual(paths(noDoc), ['documenti.0']);

    assert.equal((await viewer.post('/api/v1/kyc/verifiche', { cod_anagrafe: person })).status, 403);
    const first = await admin.post('/api/v1/kyc/verifiche', { cod_anagrafe: person });
    assert.equal(first.status, 201, 'an administrator may open one');
    const second = await co.post('/api/v1/kyc/verifiche', { cod_anagrafe: person });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'VERIFICATION_OPEN');
    assert.equal(second.body.cod_verifica, first.body.cod_verifica);

    // The company profile is validated, each field named.
    const bad = await analyst.post('/api/v1/kyb/verifiche', {
      cod_anagrafe: company,
      profilo: { ...PROFILE, forma_giuridica: 'llc', numero_registro: '1234', codice_ateco: '62.1', paese_costituzione: 'XX', data_costituzione: '2999-01-01', capitale_sociale: -1, sede_legale: { ...PROFILE.sede_legale, cap: '123' } },
    });
    assert.equal(bad.status, 422, bad.text);
    for (const f of ['profilo.forma_giuridica', 'profilo.codice_ateco', 'profilo.paese_costituzione', 'profilo.data_costituzione', 'profilo.capitale_sociale']) {
      assert.ok(paths(bad).includes(f), `${f} named: ${bad.text}`);
    }
    const rea = await analyst.post('/api/v1/kyb/verifiche', { cod_anagrafe: company, profilo: { ...PROFILE, numero_registro: '1234', sede_legale: { ...PROFILE.sede_legale, cap: '123' } } });
    assert.equal(rea.status, 422);
    assert.deepEqual(paths(rea).sort(), ['profilo.numero_registro', 'profilo.sede_legale.cap']);
    assert.equal((await env.ownerDb('verifiche').where({ cod_azienda: tenant, cod_anagrafe: company })).length, 0, 'nothing written');
  });

  it('another tenant\'s verification, or a code of the other kind, is not found on every route', async () => {
    const kyb = await openKyb();
    const kycCod = (await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: await customer() })).body.cod_verifica as string;
    const cod = kyb.cod_verifica as string;
    const check = kyb.checks[0].cod_check as string;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/v1/kyb/verifiche/${cod}`], ['PUT', `/api/v1/kyb/verifiche/${cod}/stato`, { stato: 'in_progress' }],
      ['GET', `/api/v1/kyb/verifiche/${cod}/checks`], ['POST', `/api/v1/kyb/verifiche/${cod}/checks`, { tipo: 'altro', descrizione: 'Visita in sede' }],
      ['PUT', `/api/v1/kyb/verifiche/${cod}/checks/${check}`, { stato: 'passed' }], ['PUT', `/api/v1/kyb/verifiche/${cod}/profilo`, PROFILE],
      ['POST', `/api/v1/admin/kyb/${cod}/transizione`, { azione: 'start' }],
      ['GET', `/api/v1/kyc/verifiche/${kycCod}`], ['PUT', `/api/v1/kyc/verifiche/${kycCod}/stato`, { stato: 'in_progress' }],
      ['POST', `/api/v1/admin/kyc/${kycCod}/transizione`, { azione: 'start' }],
    ];
    for (const [method, path, body] of calls) {
      const r = method === 'GET' ? await outsider.get(path) : method === 'PUT' ? await outsider.put(path, body) : await outsider.post(path, body);
      assert.equal(r.status, 404, `${method} ${path} from another tenant: ${r.text}`);
    }
    assert.equal((await analyst.get(`/api/v1/kyc/verifiche/${cod}`)).status, 404, 'a KYB code on the KYC path');
    assert.equal((await analyst.get(`/api/v1/kyb/verifiche/${kycCod}`)).status, 404, 'a KYC code on the KYB path');
    assert.equal((await analyst.put(`/api/v1/kyb/verifiche/${cod}/checks/CHK-999999`, { stato: 'passed' })).status, 404);
    assert.equal((await outsider.get('/api/v1/kyb/verifiche?q=' + cod)).body.items.length, 0, 'the list is the tenant\'s');
  });

  it('moves a KYC through PUT .../stato: 409 with the allowed actions, 403 for an administrator\'s decision, 422 for a rejection without reason', async () => {
    const v = (await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: await customer() })).body;
    const base = `/api/v1/kyc/verifiche/${v.cod_verifica}`;
    const early = await co.put(`${base}/stato`, { stato: 'approved' });
    assert.equal(early.status, 409, early.text);
    assert.equal(early.body.code, 'INVALID_TRANSITION');
    assert.deepEqual(early.body.allowed_actions, ['start']);
    assert.equal((await co.put(`${base}/stato`, { stato: 'expired' })).status, 422, 'expiry is the timer\'s');
    assert.equal((await viewer.put(`${base}/stato`, { stato: 'in_progress' })).status, 403);
    const started = await admin.put(`${base}/stato`, { stato: 'in_progress' });
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.stato, 'in_progress');
    assert.deepEqual(started.body.azioni, [], 'an administrator does not decide');
    const adminApprove = await admin.put(`${base}/stato`, { stato: 'approved' });
    assert.equal(adminApprove.status, 403, adminApprove.text);
    assert.deepEqual(adminApprove.body.allowed_actions, []);
    const noReason = await co.put(`${base}/stato`, { stato: 'rejected' });
    assert.equal(noReason.status, 422, noReason.text);
    assert.deepEqual(paths(noReason), ['motivo']);
    const rejected = await co.put(`${base}/stato`, { stato: 'rejected', motivo: 'Documento d\'identità non leggibile' });
    assert.equal(rejected.status, 200, rejected.text);
    assert.equal(rejected.body.stato, 'rejected');
    assert.equal(rejected.body.motivo_rifiuto, 'Documento d\'identità non leggibile');
    assert.ok(rejected.body.decided_at);
    const after = await co.put(`${base}/stato`, { stato: 'approved' });
    assert.equal(after.status, 409, 'a decided verification moves no more');
    assert.deepEqual(after.body.allowed_actions, []);
    const actions = (await auditOf(v.id)).map((e) => e.action);
    assert.deepEqual(actions, ['verifica.create', 'verifica.start', 'verifica.reject']);
    const reject = (await auditOf(v.id)).find((e) => e.action === 'verifica.reject');
    assert.equal(reject.data.reason, 'Documento d\'identità non leggibile');
  });

  it('a KYB: standard checks, added and updated checks, waiver rules, profile, approval refused while a check is open (409 naming it)', async () => {
    const v = await openKyb({ dati_dichiarati: { titolari: [{ nome: 'Anna', cognome: 'Bianchi', percentuale: 60 }] } });
    const base = `/api/v1/kyb/verifiche/${v.cod_verifica}`;
    assert.match(v.cod_verifica, /^KYB-\d{6}$/);
    assert.deepEqual(v.checks.map((c: { tipo: string }) => c.tipo), ['registro', 'rappresentanti', 'titolari_effettivi', 'pep', 'sanzioni', 'informazioni_negative', 'documenti']);
    assert.ok(v.checks.every((c: { stato: string; cod_check: string }) => c.stato === 'pending' && /^CHK-\d{6}$/.test(c.cod_check)));
    assert.equal(v.profilo.codice_ateco, '62.01.00');

    const checks = await viewer.get(`${base}/checks`);
    assert.equal(checks.status, 200);
    assert.equal(checks.body.items.length, 7);
    const byType = Object.fromEntries(checks.body.items.map((c: { tipo: string; cod_check: string }) => [c.tipo, c.cod_check]));

    // Adding: a duplicate standard check is a conflict, 'altro' needs a description.
    assert.equal((await analyst.post(`${base}/checks`, { tipo: 'pep' })).status, 409);
    assert.equal((await analyst.post(`${base}/checks`, { tipo: 'nessuno' })).status, 422);
    const noDesc = await analyst.post(`${base}/checks`, { tipo: 'altro' });
    assert.equal(noDesc.status, 422);
    assert.deepEqual(paths(noDesc), ['descrizione']);
    assert.equal((await viewer.post(`${base}/checks`, { tipo: 'altro', descrizione: 'Visita in sede' })).status, 403);
    const added = await analyst.post(`${base}/checks`, { tipo: 'altro', descrizione: 'Visita in sede' });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.stato, 'pending');

    // Approval waits for the checks: start, then a 409 naming the open ones.
    assert.equal((await analyst.post(`/api/v1/admin/kyb/${v.cod_verifica}/transizione`, { azione: 'start' })).status, 200);
    await analyst.put(`${base}/checks/${byType.registro}`, { stato: 'failed', esito_nota: 'Visura non aggiornata' });
    const held = await co.post(`/api/v1/admin/kyb/${v.cod_verifica}/transizione`, { azione: 'approve' });
    assert.equal(held.status, 409, held.text);
    assert.equal(held.body.code, 'CHECKS_OPEN');
    assert.deepEqual(held.body.allowed_actions, ['reject']);
    assert.equal(held.body.checks.length, 8);
    assert.ok(held.body.checks.some((c: { cod_check: string; stato: string }) => c.cod_check === byType.registro && c.stato === 'failed'));
    assert.match(held.body.detail, new RegExp(byType.registro));

    // Waiver: compliance officer only, with a reason.
    const byAnalyst = await analyst.put(`${base}/checks/${byType.pep}`, { stato: 'waived', motivo_deroga: 'Nessuna carica pubblica' });
    assert.equal(byAnalyst.status, 403, byAnalyst.text);
    const noReason = await co.put(`${base}/checks/${byType.pep}`, { stato: 'waived' });
    assert.equal(noReason.status, 422);
    assert.deepEqual(paths(noReason), ['motivo_deroga']);
    assert.equal((await co.put(`${base}/checks/${byType.pep}`, { stato: 'bocciato' })).status, 422);
    const waived = await co.put(`${base}/checks/${byType.pep}`, { stato: 'waived', motivo_deroga: 'Nessuna carica pubblica' });
    assert.equal(waived.status, 200, waived.text);
    assert.equal(waived.body.stato, 'waived');
    assert.ok(waived.body.waived_by);
    for (const c of checks.body.items.filter((x: { tipo: string }) => x.tipo !== 'pep')) {
      const r = await analyst.put(`${base}/checks/${c.cod_check}`, { stato: 'passed', evidenze: [{ fonte: 'test' }] });
      assert.equal(r.status, 200, r.text);
    }
    assert.equal((await analyst.put(`${base}/checks/${added.body.cod_check}`, { stato: 'passed' })).status, 200);

    // Profile: validated, audited.
    const badProfile = await analyst.put(`${base}/profilo`, { ...PROFILE, codice_ateco: '6201' });
    assert.equal(badProfile.status, 422);
    assert.deepEqual(paths(badProfile), ['codice_ateco']);
    assert.equal((await viewer.put(`${base}/profilo`, PROFILE)).status, 403);
    const profile = await analyst.put(`${base}/profilo`, { ...PROFILE, capitale_sociale: '50000', sede_legale: { ...PROFILE.sede_legale, indirizzo: 'Corso Buenos Aires 10' } });
    assert.equal(profile.status, 200, profile.text);
    assert.equal(profile.body.profilo.capitale_sociale, 50000);

    const approved = await co.put(`${base}/stato`, { stato: 'approved' });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.stato, 'approved');
    // A decided KYB's checks and profile are history.
    const late = await analyst.put(`${base}/checks/${byType.registro}`, { stato: 'failed' });
    assert.equal(late.status, 409);
    assert.equal(late.body.state, 'approved');
    assert.equal((await analyst.put(`${base}/profilo`, PROFILE)).status, 409);
    assert.equal((await analyst.post(`${base}/checks`, { tipo: 'altro', descrizione: 'Altro' })).status, 409);

    const actions = (await auditOf(v.id)).map((e) => e.action);
    assert.equal(actions[0], 'verifica.create');
    for (const a of ['verifica_check.create', 'verifica_check.update', 'verifica_check.waive', 'verifica.profilo', 'verifica.start', 'verifica.approve']) assert.ok(actions.includes(a), `${a} audited`);
    assert.equal(actions.filter((a) => a === 'verifica.approve').length, 1, 'the refused approval wrote nothing');
  });

  it('the admin transition routes: start, approve and reject a KYC; bad actions named', async () => {
    const v = (await analyst.post('/api/v1/kyc/verifiche', { cod_anagrafe: await customer() })).body;
    const path = `/api/v1/admin/kyc/${v.cod_verifica}/transizione`;
    const bad = await co.post(path, { azione: 'expire' });
    assert.equal(bad.status, 422);
    assert.deepEqual(paths(bad), ['azione']);
    assert.equal((await viewer.post(path, { azione: 'start' })).status, 403);
    assert.equal((await co.post(path, { azione: 'start' })).status, 200);
    const twice = await co.post(path, { azione: 'start' });
    assert.equal(twice.status, 409);
    assert.deepEqual(twice.body.allowed_actions, ['approve', 'reject']);
    const approved = await analyst.post(path, { azione: 'approve' });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.stato, 'approved');
    assert.deepEqual(approved.body.azioni, []);
  });
});
