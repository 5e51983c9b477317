import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/**
 * The SOS and filing lists in the list kit (cursor pages, filters, bad input, exports), and a
 * transmitted SOS turned into a goAML STR filing (docs/sos.md, "From an SOS to a goAML filing"):
 * state and role checks, another tenant's report, unknown FIU indicators, the link both ways and
 * the reserved filing hidden from every role but the delegate and the compliance officer.
 */
describe('SOS and filing lists; from an SOS to a goAML filing', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let reporter: TestClient;
  let analyst2: TestClient;
  let delegate: TestClient;
  let co: TestClient;
  let auditor: TestClient;
  let outsider: TestClient;
  let reports: { id: string; cod_segnalazione: string }[] = [];

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    for (const [t, code] of [[tenant, 'SF-1'], [tenant, 'SF-2'], [other, 'SF-1']] as const) {
      await env.ownerDb('anagrafe').insert({
        cod_azienda: t, cod_anagrafe: code, tipo_soggetto: 'persona_fisica', denominazione: code === 'SF-1' ? 'Giulia Verdi' : 'Mario Rossi', nome: code === 'SF-1' ? 'Giulia' : 'Mario',
        cognome: code === 'SF-1' ? 'Verdi' : 'Rossi', codice_fiscale: code === 'SF-1' ? 'VRDGLI80A41H501U' : 'RSSMRA80A01H501U', data_nascita: '1980-01-01',
        nazionalita: 'IT', paese_residenza: 'IT', telefono: '+39 333 1234567', created_by: 'test',
      });
    }
    // The customer's passport: goAML asks for an identity document of the entity's own client.
    await env.ownerDb('documenti').insert({
      id: '5d0c9a4e-3b1f-4a8e-9c2d-7e6f5a4b3c2d', cod_documento: 'DOC-900001', cod_azienda: tenant, cod_anagrafe: 'SF-1', tipo: 'passaporto', numero: 'YA1234567', paese_rilascio: 'IT',
      data_rilascio: '2020-01-15', data_scadenza: '2030-01-14', created_by: 'test',
    });
    [reporter, analyst2, delegate, co, auditor, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['sos'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['auditor'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['sos', 'co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    for (const [code, oggetto] of [['SF-1', 'Bonifici ricorrenti verso un paese terzo'], ['SF-2', 'Versamenti frazionati'], ['SF-1', 'Prelievi in contanti']]) {
      const r = await reporter.post('/api/sos/reports', {
        cod_anagrafe: code, oggetto, descrizione: 'Bonifici mensili verso una società estera senza giustificazione economica documentata.',
        content: { operazioni: [{ data_operazione: '2026-10-01', importo: 9_800, valuta: 'EUR', segno: 'uscita', causale: 'Bonifico estero' }] },
      });
      assert.equal(r.status, 201, r.text);
      reports.push(r.body);
    }
    reports = reports.reverse(); // newest first, as the list reads them
  });

  it('the SOS list pages with cursors, filters by state, type, customer and dates, refuses bad input, and shows each caller only what the database lets them see', async () => {
    const first = await delegate.get('/api/sos/reports?limit=2');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.items.map((i: { id: string }) => i.id), reports.slice(0, 2).map((r) => r.id));
    assert.equal(first.body.total, 3);
    assert.ok(first.body.next_cursor);
    const second = await delegate.get(`/api/sos/reports?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    assert.deepEqual(second.body.items.map((i: { id: string }) => i.id), [reports[2]!.id]);
    assert.equal(second.body.next_cursor, null);
    const ids = async (q: string, c = delegate) => ((await c.get(`/api/sos/reports?${q}`)).body.items as { id: string }[]).map((i) => i.id).sort();
    assert.deepEqual(await ids('cod_anagrafe=SF-1'), [reports[0]!.id, reports[2]!.id].sort());
    assert.deepEqual(await ids('stato=draft&tipo=originale'), reports.map((r) => r.id).sort());
    assert.deepEqual(await ids('tipo=sostitutiva'), []);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await ids(`dal=${today}`)).length, 3);
    assert.deepEqual(await ids('al=2020-01-01'), []);
    assert.deepEqual(await ids('sort=valutazione_scadenza&q=Versamenti'), [reports[1]!.id]);
    assert.equal((await ids('', analyst2)).length, 0, 'another analyst sees none of them');
    assert.equal((await ids('', outsider)).length, 0, 'another tenant sees none of them');
    for (const [q, path] of [['stato=boh', 'stato'], ['dal=2026-02-30', 'dal'], ['dal=2026-03-02&al=2026-03-01', 'al'], ['cursor=nonsense', 'cursor'], ['sort=oggetto', 'sort'], ['limit=500', 'limit']]) {
      const r = await delegate.get(`/api/sos/reports?${q}`);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
      assert.equal(r.body.errors[0].path, path, q);
    }
    assert.equal((await auditor.get('/api/sos/reports')).status, 403);
    // The queue and the list pages read through the same list.
    assert.equal((await reporter.get('/sos/queue')).status, 200);
    const page = await delegate.get('/sos?cod_anagrafe=SF-2');
    assert.ok(page.text.includes(reports[1]!.cod_segnalazione) && !page.text.includes(reports[0]!.cod_segnalazione));
  });

  it('the SOS export holds what the caller\'s list holds, audited in each report\'s trail and never in the tenant\'s chain', async () => {
    const csv = await delegate.get('/api/export/sos?formato=csv&cod_anagrafe=SF-1');
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.text, /Codice,Tipo,Stato/);
    assert.ok(csv.text.includes(reports[0]!.cod_segnalazione) && !csv.text.includes(reports[1]!.cod_segnalazione));
    assert.ok(csv.text.includes('Bozza'), 'states as their Italian labels');
    assert.equal((await delegate.get('/api/export/sos?formato=csv&stato=boh')).status, 422);
    const none = await analyst2.get('/api/export/sos?formato=csv');
    assert.equal(none.status, 200);
    assert.ok(!reports.some((r) => none.text.includes(r.cod_segnalazione)), 'another analyst exports none of them');
    assert.equal((await auditor.get('/api/export/sos?formato=csv')).status, 403);
    const trail = await env.ownerDb('sos_audit').where({ action: 'sos.export' }).whereIn('sos_id', reports.map((r) => r.id));
    assert.deepEqual(trail.map((e) => e.sos_id).sort(), [reports[0]!.id, reports[2]!.id].sort());
    const chain = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'export.completed' }).whereRaw("data->>'elenco' = 'sos.reports'");
    assert.deepEqual(chain, []);
  });

  it('a transmitted report makes a goAML STR filing in draft: refused before transmission, by role, for another tenant and for unknown FIU indicators', async () => {
    const s = reports[0]!;
    const early = await delegate.post(`/api/sos/reports/${s.id}/filing`, { indicatori: ['STRUC'] });
    assert.equal(early.status, 409, early.text);
    assert.equal(early.body.code, 'SOS_NOT_TRANSMITTED');
    assert.equal((await reporter.put(`/api/sos/reports/${s.id}/transition`, { action: 'submit' })).status, 200);
    for (const action of ['evaluate', 'to_transmit']) assert.equal((await delegate.put(`/api/sos/reports/${s.id}/transition`, { action })).status, 200);
    const tx = await delegate.post(`/api/sos/reports/${s.id}/complete-transmission`, { protocollo: 'UIF-2026/000777' });
    assert.equal(tx.status, 200, tx.text);

    assert.equal((await reporter.post(`/api/sos/reports/${s.id}/filing`, { indicatori: ['STRUC'] })).status, 403, 'the reporting analyst may not file');
    assert.equal((await auditor.post(`/api/sos/reports/${s.id}/filing`, {})).status, 403);
    const foreign = await outsider.post(`/api/sos/reports/${s.id}/filing`, { indicatori: ['STRUC'] });
    assert.equal(foreign.status, 404, foreign.text);
    const unknown = await delegate.post(`/api/sos/reports/${s.id}/filing`, { indicatori: ['NOPE1'] });
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal(unknown.body.errors[0].path, 'indicatori');
    const bad = await delegate.post(`/api/sos/reports/${s.id}/filing`, { indicatori: ['st r'] });
    assert.equal(bad.status, 422, bad.text);

    // The tenant's id at the FIU goes into the package (rentity_id).
    await env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'filing.goaml_rentity_id', valore: JSON.stringify(101), updated_by: 'test' });
    const made = await delegate.post(`/api/sos/reports/${s.cod_segnalazione}/filing`, { indicatori: ['STRUC'] });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.headers.get('location'), `/filing/${made.body.filing_id}`);
    const id = made.body.filing_id as string;
    const f = await co.get(`/api/filing/${id}`);
    assert.equal(f.status, 200, f.text);
    assert.equal(f.body.stato, 'draft');
    assert.equal(f.body.tipo, 'str');
    assert.equal(f.body.riservata, true);
    assert.equal(f.body.cod_anagrafe, 'SF-1');
    assert.deepEqual(f.body.sos, { id: s.id, cod_segnalazione: s.cod_segnalazione });
    assert.equal(f.body.content.transaction.length, 1);
    assert.equal(f.body.content.transaction[0].amount_local, '9800.00');
    assert.match(f.body.content.reason, /Bonifici mensili/);
    assert.match(f.body.content.action, /UIF-2026\/000777/);
    assert.deepEqual(f.body.content.report_indicators, { indicator: ['STRUC'] });
    assert.equal(f.body.content.rentity_id, '101');
    // Classified for the FIU, the prefilled package is valid against the goAML schema and its rules as it stands.
    assert.equal((await co.post(`/api/filing/${id}/classify`, { tipo: 'str', jurisdiction: 'ae-goaml-5.0.2', report_code: 'STR' })).status, 200);
    const preview = await co.get(`/api/filing/${id}/preview`);
    assert.equal(preview.status, 200, preview.text);
    assert.deepEqual(preview.body.findings, []);
    assert.equal(preview.body.valid, true);

    // Linked both ways: the report lists its filing; a second open filing is refused.
    const page = await delegate.get(`/sos/${s.id}`);
    assert.ok(page.text.includes(`href="/filing/${id}"`));
    const again = await co.post(`/api/sos/reports/${s.id}/filing`, { indicatori: ['STRUC'] });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'SOS_FILING_EXISTS');
    const audit = await env.ownerDb('sos_audit').where({ sos_id: s.id, action: 'sos.filing' });
    assert.equal(audit.length, 1);

    // Reserved: other roles find no such filing, in the list, its export or by id; the tenant's chain holds no SOS id.
    for (const c of [reporter, analyst2, auditor]) {
      assert.equal((await c.get(`/api/filing/${id}`)).status, 404);
      assert.equal((await c.get('/api/filing')).body.items.some((i: { id: string }) => i.id === id), false);
      assert.ok(!(await c.get('/api/export/filing?formato=csv')).text.includes(s.cod_segnalazione));
    }
    assert.equal((await outsider.get(`/api/filing/${id}`)).status, 404);
    // Its steps are audited in the report's own chain: the tenant's, which auditors read, holds no trace of it.
    const chain = await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_id: id });
    assert.deepEqual(chain, []);
    const steps = await env.ownerDb('sos_audit').where({ sos_id: s.id, action: 'sos.filing.event' }).orderBy('seq').select('data');
    assert.deepEqual(steps.map((e) => e.data.filing_action), ['filing.create', 'filing.classify']);
    assert.ok(steps.every((e) => e.data.filing_id === id));
  });

  it('the filing list pages with cursors, filters by state, type, customer and dates, and refuses bad input', async () => {
    const first = await co.get('/api/filing?limit=1&tipo=str');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.items.length, 1);
    assert.deepEqual(Object.keys(first.body).sort(), ['items', 'limit', 'next_cursor', 'offset', 'prev_cursor', 'total', 'total_exact']);
    assert.equal((await co.get('/api/filing?cod_anagrafe=SF-1')).body.items.length, 1);
    assert.equal((await co.get('/api/filing?cod_anagrafe=SF-2')).body.items.length, 0);
    assert.equal((await co.get('/api/filing?al=2020-01-01')).body.items.length, 0);
    assert.equal((await co.get('/api/filing?sort=due_at&stato=classified')).body.items.length, 1);
    for (const [q, path] of [['stato=boh', 'stato'], ['tipo=x', 'tipo'], ['dal=2026-13-01', 'dal'], ['cursor=zz', 'cursor'], ['offset=5000', 'offset']]) {
      const r = await co.get(`/api/filing?${q}`);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
      assert.equal(r.body.errors[0].path, path, q);
    }
    const csv = await co.get('/api/export/filing?formato=csv&tipo=str');
    assert.equal(csv.status, 200);
    assert.match(csv.text, /Titolo,Tipo,Stato/);
    const page = await co.get('/filing?tipo=str');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('Riservata'));
  });

  it('from a CDD abstention: only an abstained task of the tenant and of the subject named, its reasons and evidence carried into the draft', async () => {
    const other = (await env.ownerDb('anagrafe').where({ cod_anagrafe: 'SF-1' }).whereNot({ cod_azienda: tenant }).first('cod_azienda')).cod_azienda as string;
    const task = async (t: string, code: string, stato: string) => {
      const id = randomUUID();
      await env.ownerDb('cdd_pratiche').insert({
        id, cod_azienda: t, cod_pratica: code, cod_anagrafe: 'SF-1', livello: 'rafforzata', motivo: 'manuale', stato, due_at: new Date(), created_by: 'test',
        workflow_id: `cdd-task:${t}:${id}`, ...(stato === 'abstained' ? { motivazione_astensione: 'Il cliente non ha fornito la documentazione sull\'origine dei fondi' } : {}),
      });
      return id;
    };
    const abstained = await task(tenant, 'CDD-900001', 'abstained');
    const open = await task(tenant, 'CDD-900002', 'open');
    const foreign = await task(other, 'CDD-900003', 'abstained');
    await env.ownerDb('cdd_evidenze').insert({
      id: randomUUID(), cod_azienda: tenant, cdd_pratica_id: abstained, tipo: 'documento', descrizione: 'Estratto conto senza causali', riferimento: 'DOC-900001',
      sha256: 'a'.repeat(64), nome_file: 'estratto.pdf', mime: 'application/pdf', dimensione: 1234, created_by: 'test',
    });
    const body = (over: Record<string, unknown>) => ({ origine: 'cdd', oggetto: 'Astensione per fondi non giustificati', descrizione: '', ...over });
    for (const [ref, path] of [[open, 'origine_ref'], [foreign, 'origine_ref'], [randomUUID(), 'origine_ref'], ['CDD-999999', 'origine_ref']] as const) {
      const r = await reporter.post('/api/sos/reports', body({ origine_ref: ref }));
      assert.equal(r.status, 422, `${ref}: ${r.text}`);
      assert.equal(r.body.errors[0].path, path);
    }
    const wrongSubject = await reporter.post('/api/sos/reports', body({ origine_ref: abstained, cod_anagrafe: 'SF-2' }));
    assert.equal(wrongSubject.status, 422, wrongSubject.text);
    assert.equal(wrongSubject.body.errors[0].path, 'cod_anagrafe');
    const made = await reporter.post('/api/sos/reports', body({ origine_ref: 'CDD-900001' }));
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.cod_anagrafe, 'SF-1');
    assert.equal(made.body.origine_ref, 'CDD-900001');
    assert.match(made.body.descrizione, /Astensione nella verifica CDD-900001: Il cliente non ha fornito[\s\S]*- Estratto conto senza causali \(DOC-900001\)/);
    const files = await env.ownerDb('sos_allegati').where({ sos_id: made.body.id });
    assert.deepEqual(files.map((f) => [f.nome_file, f.sha256]), [['estratto.pdf', 'a'.repeat(64)]]);
    // A case of the tenant about another subject than the one named is refused too.
    const c = await co.post('/api/cases', { titolo: 'Caso su SF-1', tipo: 'indagine', priorita: 'alta', cod_anagrafe: 'SF-1' });
    assert.equal(c.status, 201, c.text);
    const mismatch = await reporter.post('/api/sos/reports', body({ origine: 'caso', origine_ref: c.body.id, cod_anagrafe: 'SF-2' }));
    assert.equal(mismatch.status, 422, mismatch.text);
    assert.equal(mismatch.body.errors[0].path, 'cod_anagrafe');
  });
});
