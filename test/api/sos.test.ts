import assert from 'node:assert/strict';
import { validateSosXml } from '../../src/domains/sos/export/sos.xml-validate';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, hit, raise, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * The SOS API (docs/sos.md): creation by hand and from a case, the machine's 409/403 through the
 * workflow, complete-transmission with the UIF protocol, attachments and communications, bad input,
 * another tenant's id, and the tipping-off policy in the database itself.
 */
describe('SOS API', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let reporter: TestClient;
  let reporterUser: TestUser;
  let analyst2: TestClient;
  let delegate: TestClient;
  let co: TestClient;
  let auditor: TestClient;
  let outsider: TestClient;
  const report = (over: Record<string, unknown> = {}) => ({ oggetto: 'Versamenti frazionati in contanti', descrizione: 'Dieci versamenti sotto soglia', cod_anagrafe: 'SOS-ANA-1', ...over });

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    for (const t of [tenant, other]) {
      await env.ownerDb('anagrafe').insert({ cod_azienda: t, cod_anagrafe: 'SOS-ANA-1', tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', codice_fiscale: 'RSSMRA80A01H501U', created_by: 'test' });
    }
    reporterUser = await env.createUser({ tenant, roles: ['analyst'] });
    [reporter, analyst2, delegate, co, auditor, outsider] = await Promise.all([
      env.login(reporterUser),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['sos'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['auditor'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['sos', 'co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  async function create(over: Record<string, unknown> = {}) {
    const r = await reporter.post('/api/sos/reports', report(over));
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; cod_segnalazione: string; stato: string; allowed_actions: string[] };
  }

  it('creates a draft by hand with the customer proposed as subject; the reporter and the delegates see it, nobody else', async () => {
    const s = await create({ content: undefined });
    assert.equal(s.stato, 'draft');
    assert.match(s.cod_segnalazione, /^SOS-\d{6,}$/);
    assert.deepEqual(s.allowed_actions, ['submit']);
    for (const c of [reporter, delegate, co]) {
      const list = await c.get('/api/sos/reports');
      assert.equal(list.status, 200, list.text);
      assert.ok(list.body.items.some((i: { id: string }) => i.id === s.id));
    }
    const other = await analyst2.get('/api/sos/reports');
    assert.equal(other.status, 200);
    assert.equal(other.body.items.some((i: { id: string }) => i.id === s.id), false, 'another analyst does not see it');
    assert.equal((await auditor.get('/api/sos/reports')).status, 403);
    const subjects = await env.ownerDb('sos_soggetti').where({ sos_id: s.id });
    assert.deepEqual(subjects.map((x) => [x.nominativo, x.ruolo]), [['Mario Rossi', 'cliente']]);
  });

  it('refuses bad input with the field path (422), an unknown subject, and a case of another tenant', async () => {
    const bad = await reporter.post('/api/sos/reports', { oggetto: '', origine: 'boh' });
    assert.equal(bad.status, 422);
    const paths = bad.body.errors.map((e: { path: string }) => e.path);
    assert.ok(paths.includes('oggetto') && paths.includes('origine'), JSON.stringify(bad.body));
    const unknown = await reporter.post('/api/sos/reports', report({ cod_anagrafe: 'NOPE' }));
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].path, 'cod_anagrafe');
    const fen = await reporter.post('/api/sos/reports', report({ content: { fenomeni: ['ZZZ'] } }));
    assert.equal(fen.status, 422);
    assert.equal(fen.body.errors[0].path, 'content.fenomeni.0');
    const theirCase = await outsider.post('/api/cases', { titolo: 'Caso altrui', tipo: 'indagine', priorita: 'alta', cod_anagrafe: 'SOS-ANA-1' });
    assert.equal(theirCase.status, 201, theirCase.text);
    const fromCase = await reporter.post('/api/sos/reports', report({ origine: 'caso', origine_ref: theirCase.body.id }));
    assert.equal(fromCase.status, 422);
    assert.equal(fromCase.body.errors[0].path, 'origine_ref');
  });

  it('runs the lifecycle through the workflow: 409 with the allowed actions, 403 by role, archive needs a reason, transmission a protocol and a complete report', async () => {
    const s = await create({ content: { operazioni: [{ data_operazione: '2026-10-01', importo: 4_900, valuta: 'EUR', causale: 'Versamento contanti' }] } });
    const early = await delegate.put(`/api/sos/reports/${s.id}/transition`, { action: 'evaluate' });
    assert.equal(early.status, 409, early.text);
    assert.deepEqual(early.body.allowed_actions, ['submit']);
    assert.equal((await reporter.put(`/api/sos/reports/${s.id}/transition`, { action: 'submit' })).status, 200);
    const byAnalyst = await reporter.put(`/api/sos/reports/${s.id}/transition`, { action: 'evaluate' });
    assert.equal(byAnalyst.status, 403, byAnalyst.text);
    const ev = await delegate.put(`/api/sos/reports/${s.id}/transition`, { action: 'evaluate' });
    assert.equal(ev.status, 200, ev.text);
    assert.deepEqual([...ev.body.allowed_actions].sort(), ['archive', 'to_transmit']);
    const noReason = await delegate.put(`/api/sos/reports/${s.id}/transition`, { action: 'archive' });
    assert.equal(noReason.status, 422, noReason.text);
    assert.equal((await delegate.put(`/api/sos/reports/${s.id}/transition`, { action: 'to_transmit' })).status, 200);
    const noProt = await delegate.post(`/api/sos/reports/${s.id}/complete-transmission`, { protocollo: '' });
    assert.equal(noProt.status, 422);
    assert.equal(noProt.body.errors[0].path, 'protocollo');
    // The description is too short: the required item is named, with its rule.
    const incomplete = await delegate.post(`/api/sos/reports/${s.id}/complete-transmission`, { protocollo: 'UIF-2026/000123' });
    assert.equal(incomplete.status, 422, incomplete.text);
    assert.deepEqual(incomplete.body.errors.map((e: { path: string }) => e.path), ['descrizione']);
    assert.match(incomplete.body.rules[0].rule, /UIF/);
    await env.ownerDb('sos_reports').where({ id: s.id }).update({ descrizione: 'Dieci versamenti in contanti sotto soglia in tre giorni, non coerenti con il profilo dichiarato.' });
    const tx = await delegate.post(`/api/sos/reports/${s.id}/complete-transmission`, { protocollo: 'UIF-2026/000123' });
    assert.equal(tx.status, 200, tx.text);
    assert.equal(tx.body.stato, 'transmitted');
    assert.equal(tx.body.protocollo_uif, 'UIF-2026/000123');
    const closed = await co.put(`/api/sos/reports/${s.id}/transition`, { action: 'close' });
    assert.equal(closed.status, 200, closed.text);
    // A closed report's workflow has ended: its row answers the machine's 409.
    const after = await delegate.put(`/api/sos/reports/${s.id}/transition`, { action: 'evaluate' });
    assert.equal(after.status, 409, after.text);
    assert.deepEqual(after.body.allowed_actions, []);
    const audit = await env.ownerDb('sos_audit').where({ sos_id: s.id }).orderBy('seq');
    assert.deepEqual(audit.map((a) => a.action), ['sos.create', 'sos.submit', 'sos.evaluate', 'sos.to_transmit', 'sos.complete-transmission', 'sos.close']);
    assert.equal(await env.ownerDb('audit_events').where({ entity_id: s.id }).count('* as n').first().then((r) => Number(r!.n)), 0, 'nothing in the tenant chain');

    // A replacement report links the one it replaces.
    const repl = await create({ sostituisce: s.cod_segnalazione });
    assert.equal((await env.ownerDb('sos_reports').where({ id: repl.id }).first()).sostituisce_id, s.id);
  });

  it('attachments and communications: stored under the report, refused for what the caller cannot see', async () => {
    const s = await create();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const att = await reporter.post(`/api/sos/reports/${s.id}/attachments`, { nome_file: 'estratto.pdf', contenuto_base64: pdf.toString('base64') });
    assert.equal(att.status, 201, att.text);
    assert.equal(att.body.mime, 'application/pdf');
    const exe = await reporter.post(`/api/sos/reports/${s.id}/attachments`, { nome_file: 'x.pdf', contenuto_base64: Buffer.from('MZ\x90\x00not a pdf').toString('base64') });
    assert.equal(exe.status, 422);
    assert.equal((await analyst2.post(`/api/sos/reports/${s.id}/attachments`, { nome_file: 'a.pdf', contenuto_base64: pdf.toString('base64') })).status, 404);
    assert.equal((await outsider.post(`/api/sos/reports/${s.id}/attachments`, { nome_file: 'a.pdf', contenuto_base64: pdf.toString('base64') })).status, 404);
    const draftComm = await delegate.post(`/api/sos/reports/${s.id}/communications`, { direzione: 'ricevuta', data: '2026-11-20', oggetto: 'Richiesta' });
    assert.equal(draftComm.status, 422);
    await reporter.put(`/api/sos/reports/${s.id}/transition`, { action: 'submit' });
    const comm = await delegate.post(`/api/sos/reports/${s.id}/communications`, { direzione: 'ricevuta', data: '2026-11-20', oggetto: 'Richiesta di integrazione', protocollo: 'UIF-9' });
    assert.equal(comm.status, 201, comm.text);
    assert.equal((await delegate.post(`/api/sos/reports/${s.id}/communications`, { direzione: 'x', data: '20/11' })).status, 422);
    assert.equal((await reporter.post(`/api/sos/reports/${s.id}/communications`, { direzione: 'ricevuta', data: '2026-11-20', oggetto: 'x' })).status, 403);
  });

  it('another tenant\'s report is 404 everywhere, and an unknown id too', async () => {
    const s = await create();
    for (const [m, path, body] of [
      ['put', `/api/sos/reports/${s.id}/transition`, { action: 'submit' }],
      ['post', `/api/sos/reports/${s.id}/complete-transmission`, { protocollo: 'X1' }],
      ['post', `/api/sos/reports/${s.id}/communications`, { direzione: 'ricevuta', data: '2026-11-20', oggetto: 'x' }],
      ['put', '/api/sos/reports/not-an-id/transition', { action: 'submit' }],
    ] as const) {
      const r = m === 'put' ? await outsider.put(path, body) : await outsider.post(path, body);
      assert.equal(r.status, 404, `${path}: ${r.text}`);
    }
    assert.equal((await outsider.get('/api/sos/reports')).body.items.some((i: { id: string }) => i.id === s.id), false);
  });

  it('the database enforces tipping-off: an unsigned or forged role sees no report, even with the tenant set', async () => {
    const s = await create();
    const key = env.deps.config.tenantContextKey;
    const { tenantSignature } = await import('../../src/db/tenant-key');
    const { withTenant } = await import('../../src/db/tenant');
    const count = (rows: unknown[]) => rows.length;
    // Tenant alone (every existing caller): nothing.
    assert.equal(count(await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => trx('sos_reports').where({ id: s.id }))), 0);
    // Claiming the role by hand, without the principal's signature: nothing.
    const forged = await env.deps.db.transaction(async (trx) => {
      await trx.raw("select set_config('app.cod_azienda', ?, true), set_config('app.tenant_sig', ?, true), set_config('app.user', 'x', true), set_config('app.roles', 'sos', true), set_config('app.principal_sig', 'f00', true)",
        [tenant, tenantSignature(key, tenant)]);
      return trx('sos_reports').where({ id: s.id });
    });
    assert.equal(forged.length, 0);
    // Signed as a delegate: visible; signed as an auditor: not, nor its children.
    assert.equal(count(await withTenant(env.deps.db, { codAzienda: tenant, principal: { user: 'u', roles: ['sos'] } }, (trx) => trx('sos_reports').where({ id: s.id }))), 1);
    assert.equal(count(await withTenant(env.deps.db, { codAzienda: tenant, principal: { user: 'u', roles: ['auditor', 'admin'] } }, (trx) => trx('sos_soggetti').where({ sos_id: s.id }))), 0);
    // The reporter's own id: visible.
    assert.equal(count(await withTenant(env.deps.db, { codAzienda: tenant, principal: { user: reporterUser.cod_utente, roles: ['analyst'] } }, (trx) => trx('sos_reports').where({ id: s.id }))), 1);
  });

  it('creates from an alert closed as suspicious: its operations, customer and rule indicators proposed; exports XML valid against the schema and a PDF', async () => {
    const { movements } = await seedCustomers(env.ownerDb, tenant, 1, 4);
    const rule = await co.post('/api/monitoring/rules', ruleBody('sos_contanti'));
    assert.equal(rule.status, 201, rule.text);
    await activateDraft(env, tenant, rule.body.bozza.id);
    const mov = movements.slice(0, 3).map((m) => ({ id: m.id, data_operazione: m.data_operazione }));
    const [alert] = await raise(env, tenant, [hit('sos_contanti', 'C-1', '2026-03-01', '2026-03-12', { movimenti: mov })]);
    const notYet = await reporter.post('/api/sos/reports', report({ origine: 'alert', origine_ref: alert!.cod_alert }));
    assert.equal(notYet.status, 422, 'an alert not closed as suspicious');
    assert.equal(notYet.body.errors[0].path, 'origine_ref');
    await co.put(`/api/monitoring/alerts/${alert!.id}/assign`, { assegnatario: reporterUser.cod_utente });
    const closed = await reporter.put(`/api/monitoring/alerts/${alert!.id}/close`, { disposizione: 'sospetto', motivazione: 'Frazionamento' });
    assert.equal(closed.status, 200, closed.text);

    const r = await reporter.post('/api/sos/reports', { origine: 'alert', origine_ref: alert!.cod_alert, oggetto: 'Contanti frazionati', descrizione: 'Vedi operazioni' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.cod_anagrafe, 'C-1');
    assert.equal(r.body.origine_ref, alert!.cod_alert);
    const ops = await env.ownerDb('sos_operazioni').where({ sos_id: r.body.id });
    assert.deepEqual(ops.map((o) => o.movimento_id).sort(), mov.map((m) => m.id).sort());
    assert.ok(ops.every((o) => o.cod_alert === alert!.cod_alert));
    const ind = await env.ownerDb('sos_indicatori').where({ sos_id: r.body.id });
    assert.deepEqual(ind.map((i) => [i.indicatore, i.sottoindice, i.proposto]), [[11, '11.1', true]]);
    const subj = await env.ownerDb('sos_soggetti').where({ sos_id: r.body.id });
    assert.deepEqual(subj.map((x) => [x.cod_anagrafe, x.ruolo]), [['C-1', 'cliente']]);

    const xml = await reporter.getBytes(`/api/dossier/sos/${r.body.cod_segnalazione}?formato=xml`);
    assert.equal(xml.status, 200);
    assert.equal(xml.headers.get('x-schema-validation'), 'valid');
    const text = xml.bytes.toString('utf8');
    assert.match(text, /<Codice>SOS-\d{6,}<\/Codice>/);
    assert.equal((text.match(/<Operazione>/g) ?? []).length, 3);
    assert.deepEqual(await validateSosXml(text), { valid: true, errors: [] }, 'the downloaded document passes the published XSD');
    assert.equal((await validateSosXml(text.replace('<Ruolo>cliente</Ruolo>', '<Ruolo>boh</Ruolo>'))).valid, false, 'and the schema does refuse');
    const pdf = await delegate.getBytes(`/dossier/sos/${r.body.cod_segnalazione}?formato=pdf`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
    assert.equal((await analyst2.getBytes(`/api/dossier/sos/${r.body.cod_segnalazione}?formato=xml`)).status, 404);
    assert.equal((await outsider.getBytes(`/api/dossier/sos/${r.body.cod_segnalazione}?formato=xml`)).status, 404);
    assert.equal((await reporter.get(`/api/dossier/sos/${r.body.cod_segnalazione}?formato=docx`)).status, 422);
    const trail = await env.ownerDb('sos_audit').where({ sos_id: r.body.id }).orderBy('seq').pluck('action');
    assert.deepEqual(trail, ['sos.create', 'sos.export', 'sos.export']);
  });
});
