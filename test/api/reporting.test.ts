import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { generatedReport, seedReportingMonth } from '../helpers/reporting-fixture';

const M1 = '2025-03';
const M2 = '2025-04';

/**
 * Regulatory reports from the movements (docs/reporting.md): every route with bad input, another
 * tenant's ids, invalid transitions and four-eyes; the lines of a real month and the operations
 * behind them; the exports; the filing draft; the missed deadline on the home.
 */
describe('reporting API (comunicazioni oggettive, S.AR.A.)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient, co1: TestClient, co2: TestClient, viewer: TestClient, outsider: TestClient;
  let co: Record<string, any>;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [analyst, co1, co2, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    await seedReportingMonth(env, tenant, analyst, M1);
    const r = await analyst.post('/api/reporting/generate', { tipo: 'comunicazione_oggettiva', periodo: M1 });
    assert.equal(r.status, 202, r.text);
    co = await generatedReport(analyst, r.body.items[0].id);
  });

  it('refuses bad input with the field that is wrong', async () => {
    const cases: [unknown, string][] = [
      [{ periodo: M1 }, 'tipo'], [{ tipo: 'str', periodo: M1 }, 'tipo'], [{ tipo: 'sara' }, 'periodo'],
      [{ tipo: 'sara', periodo: '2025-13' }, 'periodo'], [{ tipo: 'sara', periodo: '2999-01' }, 'periodo'],
      [{ tipo: 'sara', dal: '2025-05', al: '2025-01' }, 'al'], [{ tipo: 'sara', dal: '2020-01', al: '2022-12' }, 'al'],
      [{ tipo: 'sara', periodo: M1, dal: M1 }, 'periodo'], [{ tipo: 'sara', periodo: M1, extra: 1 }, ''],
    ];
    for (const [body, path] of cases) {
      const r = await analyst.post('/api/reporting/generate', body);
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
      if (path) assert.ok(r.body.errors.some((e: { path: string }) => e.path === path), `${JSON.stringify(body)}: ${r.text}`);
    }
    assert.equal((await analyst.get('/api/reporting/reports?stato=nope')).status, 422);
    assert.equal((await analyst.get('/api/reporting/reports?cursor=xyz')).status, 422);
  });

  it('who may: the viewer reads no report and generates none', async () => {
    assert.equal((await viewer.post('/api/reporting/generate', { tipo: 'sara', periodo: M1 })).status, 403);
    assert.equal((await viewer.get('/api/reporting/reports')).status, 403);
  });

  it('a comunicazione oggettiva of a real month: a line per subject, relationship and direction, with the operations behind it', async () => {
    assert.equal(co.stato, 'generated');
    assert.equal(co.negativa, false);
    assert.equal(co.progresso, 100);
    const lines = await env.ownerDb('reporting_lines').where({ report_id: co.id }).orderBy('n')
      .select('cod_anagrafe', 'anagrafe_codice_esterno', 'cod_rapporto', 'rapporto_codice_esterno', 'ruoli', 'segno', 'totale_eur', 'numero');
    assert.deepEqual(lines.map((l) => [l.cod_anagrafe, l.anagrafe_codice_esterno, l.cod_rapporto, l.rapporto_codice_esterno, l.ruoli, l.segno, l.totale_eur, l.numero]), [
      // ANA-R1's own deposits and the six ANA-R2 made on RAP-R1: 12; the withdrawals apart, never netted.
      ['ANA-R1', 'CBS-000101', 'RAP-R1', 'IT60X0542811101000000123456', ['cliente'], 'entrata', 12000, 12],
      ['ANA-R1', 'CBS-000101', 'RAP-R1', 'IT60X0542811101000000123456', ['cliente'], 'uscita', 5000, 5],
      // ANA-R2 reaches EUR 10,000 only with what it executed on ANA-R1's relationship.
      ['ANA-R2', 'CBS-000102', 'RAP-R1', 'IT60X0542811101000000123456', ['esecutore'], 'entrata', 6000, 6],
      ['ANA-R2', 'CBS-000102', 'RAP-R2', 'IT60X0542811101000000654321', ['cliente'], 'entrata', 4000, 4],
    ]);
    assert.deepEqual([co.righe, co.operazioni, co.totale_eur], [4, 27, 27000]);
    // The page shows each line's operations, read back from movimenti.
    const page = await co1.get(`/reporting/${co.id}`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    const line3 = page.text.slice(page.text.indexOf('data-operations="3"'), page.text.indexOf('data-operations="4"'));
    assert.equal(line3.match(/data-movimento=/g)?.length, 6);
    assert.match(line3, /ANA-R2/);
    assert.doesNotMatch(page.text, /ANA-R3/, 'deposits under the floor are never counted');
  });

  it('exports CSV and XLSX with the customer and relationship codes and external codes', async () => {
    const csv = await co1.get(`/reporting/${co.id}/csv`, { accept: 'text/csv' });
    assert.equal(csv.status, 200);
    const rows = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    assert.equal(rows[0], 'Codice cliente,Codice esterno cliente,Codice rapporto,Codice esterno rapporto,Mese,Tipo operazioni,Ruolo,Importo totale (EUR),Numero operazioni');
    assert.equal(rows[1], `ANA-R1,CBS-000101,RAP-R1,IT60X0542811101000000123456,${M1},Versamenti,cliente,12000,12`);
    assert.equal(rows.length, 5);
    const xlsx = await co1.getBytes(`/reporting/${co.id}/xlsx`);
    assert.equal(xlsx.status, 200);
    assert.equal(xlsx.bytes.subarray(0, 2).toString(), 'PK');
    assert.equal(await env.ownerDb('audit_events').where({ entity_id: co.id, action: 'reporting.export' }).count().first().then((r) => Number(r!.count)), 2);
  });

  it('a month with no subject over the threshold is a negative communication; the month cannot be generated twice', async () => {
    const r = await analyst.post('/api/reporting/generate', { tipo: 'comunicazione_oggettiva', periodo: M2 });
    assert.equal(r.status, 202, r.text);
    const neg = await generatedReport(analyst, r.body.items[0].id);
    assert.deepEqual([neg.stato, neg.negativa, neg.righe], ['generated', true, 0]);
    const again = await analyst.post('/api/reporting/generate', { tipo: 'comunicazione_oggettiva', dal: M1, al: M2 });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'REPORT_EXISTS');
  });

  it('a range of months in one request: one S.AR.A. report per month, each aggregating its own operations', async () => {
    const r = await co1.post('/api/reporting/generate', { tipo: 'sara', dal: '2025-01', al: M1 });
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.body.items.map((i: { periodo: string }) => i.periodo), ['2025-01', '2025-02', M1]);
    const done = await Promise.all(r.body.items.map((i: { id: string }) => generatedReport(co1, i.id)));
    assert.deepEqual(done.map((d) => [d.periodo, d.negativa, d.righe]), [['2025-01', true, 0], ['2025-02', true, 0], [M1, false, 1]]);
    const [line] = await env.ownerDb('reporting_lines').where({ report_id: done[2].id }).select('causale', 'residenza', 'settore', 'segno', 'totale_eur', 'numero', 'contanti_eur');
    assert.deepEqual(line, { causale: 'BONIFICO IN ENTRATA', residenza: 'IT', settore: '47', segno: 'entrata', totale_eur: 20000, numero: 1, contanti_eur: 0 });
    const list = await co1.get('/api/reporting/reports?tipo=sara&sort=periodo');
    assert.deepEqual(list.body.items.map((i: { periodo: string }) => i.periodo), ['2025-01', '2025-02', M1]);
    // Four-eyes: who generated it may not approve it.
    const own = await co1.post(`/api/reporting/reports/${done[2].id}/approve`);
    assert.equal(own.status, 403, own.text);
    assert.equal(own.body.code, 'FOUR_EYES_REQUIRED');
  });

  it('another tenant\'s report does not exist there', async () => {
    for (const [m, p, b] of [
      ['GET', `/api/reporting/reports/${co.id}`, undefined], ['POST', `/api/reporting/reports/${co.id}/approve`, {}], ['POST', `/api/reporting/reports/${co.id}/submit`, {}],
      ['POST', `/api/reporting/reports/${co.id}/complete-submission`, { submission_id: randomUUID(), esito: 'accettata' }],
      ['POST', `/api/reporting/reports/${randomUUID()}/submit`, {}], ['POST', '/api/reporting/reports/not-a-uuid/submit', {}],
    ] as const) {
      const r = await outsider.request(m, p, b === undefined ? {} : { json: b });
      assert.equal(r.status, 404, `${m} ${p}: ${r.text}`);
    }
    const list = await outsider.get('/api/reporting/reports');
    assert.deepEqual(list.body.items, []);
    assert.equal((await outsider.get(`/reporting/${co.id}`, { accept: 'text/html' })).status, 404);
    assert.equal((await outsider.get(`/reporting/${co.id}/csv`)).status, 404);
  });

  it('the lifecycle: four-eyes approval, submissions each with an outcome, 409 with the allowed actions otherwise', async () => {
    const early = await co2.post(`/api/reporting/reports/${co.id}/submit`, {});
    assert.equal(early.status, 409, early.text);
    assert.deepEqual([early.body.code, early.body.allowed_actions], ['INVALID_TRANSITION', ['approve']]);
    assert.equal((await analyst.post(`/api/reporting/reports/${co.id}/approve`)).status, 403, 'the analyst has no approval role');
    const approved = await co2.post(`/api/reporting/reports/${co.id}/approve`);
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual([approved.body.stato, approved.body.allowed_actions], ['approved', ['submit']]);
    assert.equal((await co2.post(`/api/reporting/reports/${co.id}/submit`, { riferimento: 'x'.repeat(201) })).status, 422);
    const sent = await co2.post(`/api/reporting/reports/${co.id}/submit`, { riferimento: 'INFOSTAT-2025-0001' });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.stato, 'submitted');
    const first = sent.body.submissions[0];
    assert.deepEqual([first.n, first.esito, first.riferimento], [1, 'in_attesa', 'INFOSTAT-2025-0001']);
    for (const bad of [{ esito: 'accettata' }, { submission_id: first.id }, { submission_id: first.id, esito: 'forse' }, { submission_id: 'x', esito: 'accettata' }]) {
      assert.equal((await co2.post(`/api/reporting/reports/${co.id}/complete-submission`, bad)).status, 422, JSON.stringify(bad));
    }
    const wrong = await co2.post(`/api/reporting/reports/${co.id}/complete-submission`, { submission_id: randomUUID(), esito: 'accettata' });
    assert.equal(wrong.status, 409, wrong.text);
    assert.equal(wrong.body.code, 'SUBMISSION_NOT_PENDING');
    const rejected = await co1.post(`/api/reporting/reports/${co.id}/complete-submission`, { submission_id: first.id, esito: 'scartata', note: 'Record non conforme' });
    assert.equal(rejected.status, 200, rejected.text);
    assert.equal(rejected.body.stato, 'approved', 'a rejected submission brings the report back for a new one');
    const resent = await co1.post(`/api/reporting/reports/${co.id}/submit`);
    assert.equal(resent.status, 200, resent.text);
    const second = resent.body.submissions[1];
    const done = await co1.post(`/api/reporting/reports/${co.id}/complete-submission`, { submission_id: second.id, esito: 'accettata', protocollo: 'UIF-778899' });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.stato, 'completed');
    assert.deepEqual(done.body.submissions.map((s: { esito: string }) => s.esito), ['scartata', 'accettata']);
    const after = await co1.post(`/api/reporting/reports/${co.id}/submit`);
    assert.equal(after.status, 409, after.text);
    assert.deepEqual(after.body.allowed_actions, []);
    const actions = await env.ownerDb('audit_events').where({ entity_id: co.id }).orderBy('id').pluck('action');
    assert.deepEqual(actions.filter((a) => a !== 'reporting.export' && !a.endsWith('due_soon') && !a.endsWith('overdue')), [
      'reporting.create', 'reporting.generate', 'reporting.generated', 'reporting.approve', 'reporting.submit', 'reporting.complete-submission', 'reporting.submit', 'reporting.complete-submission',
    ]);
  });

  it('a month whose deadline had passed when generated is overdue at once: flagged, notified, and on the home', async () => {
    const neg = (await co1.get(`/api/reporting/reports?tipo=comunicazione_oggettiva&periodo=${M2}`)).body.items[0];
    const until = Date.now() + 30_000;
    let row = await env.ownerDb('reporting_reports').where({ id: neg.id }).first();
    while (!row.overdue && Date.now() < until) { await new Promise((r) => setTimeout(r, 200)); row = await env.ownerDb('reporting_reports').where({ id: neg.id }).first(); }
    assert.equal(row.overdue, true);
    assert.deepEqual(await env.ownerDb('audit_events').where({ entity_id: neg.id }).whereIn('action', ['reporting.due_soon', 'reporting.overdue']).pluck('action'), ['reporting.overdue']);
    assert.ok((await env.ownerDb('notifications').where({ entity_id: neg.id }).pluck('tipo')).includes('reporting_overdue'));
    const home = await co1.get('/', { accept: 'text/html' });
    assert.match(home.text, /Segnalazioni periodiche scadute/);
    const overdue = await co1.get('/api/reporting/reports?overdue=true');
    assert.ok(overdue.body.items.some((i: { id: string }) => i.id === neg.id));
  });

  it('page actions: another tenant\'s report is a 404, a refused step comes back with its message, bad input with the field\'s', async () => {
    const r = await co1.post('/api/reporting/generate', { tipo: 'comunicazione_oggettiva', periodo: '2025-05' });
    assert.equal(r.status, 202, r.text);
    const rep = await generatedReport(co1, r.body.items[0].id);
    for (const path of [`/reporting/${rep.id}/approva`, `/reporting/${rep.id}/invio`, `/reporting/${rep.id}/invio/${randomUUID()}/esito`]) {
      assert.equal((await outsider.submitForm(path, { esito: 'accettata' }, '/reporting')).status, 404, path);
    }
    const own = await co1.submitForm(`/reporting/${rep.id}/approva`, {}, `/reporting/${rep.id}`);
    assert.equal(own.status, 302);
    assert.match((await co1.get(own.headers.get('location')!, { accept: 'text/html' })).text, /diverso da chi ne ha chiesto la generazione/);
    assert.equal((await env.ownerDb('reporting_reports').where({ id: rep.id }).first()).stato, 'generated');
    assert.equal((await co2.submitForm(`/reporting/${rep.id}/invio`, {}, `/reporting/${rep.id}`)).status, 302);
    assert.equal((await env.ownerDb('reporting_reports').where({ id: rep.id }).first()).stato, 'generated', 'submit before approval is refused');
    assert.equal((await co2.submitForm(`/reporting/${rep.id}/approva`, {}, `/reporting/${rep.id}`)).status, 302);
    assert.equal((await co2.submitForm(`/reporting/${rep.id}/invio`, { riferimento: 'INFOSTAT-9' }, `/reporting/${rep.id}`)).status, 302);
    const [sub] = await env.ownerDb('reporting_submissions').where({ report_id: rep.id }).select('id');
    assert.equal((await co2.submitForm(`/reporting/${rep.id}/invio/not-a-uuid/esito`, { esito: 'accettata' }, `/reporting/${rep.id}`)).status, 404);
    const bad = await co2.submitForm(`/reporting/${rep.id}/invio/${sub.id}/esito`, { esito: 'forse' }, `/reporting/${rep.id}`);
    assert.equal(bad.status, 302);
    assert.equal((await env.ownerDb('reporting_submissions').where({ id: sub.id }).first()).esito, 'in_attesa');
    assert.equal((await co2.submitForm(`/reporting/${rep.id}/invio/${sub.id}/esito`, { esito: 'accettata', protocollo: 'UIF-1' }, `/reporting/${rep.id}`)).status, 302);
    assert.equal((await env.ownerDb('reporting_reports').where({ id: rep.id }).first()).stato, 'completed');
    assert.equal((await viewer.get(`/reporting/${rep.id}`, { accept: 'text/html' })).status, 403);
  });

  it('pages: the list, the form with its messages next to the fields, a filing draft from a report', async () => {
    const list = await co1.get('/reporting', { accept: 'text/html' });
    assert.equal(list.status, 200);
    assert.match(list.text, /Segnalazioni periodiche/);
    assert.equal((await co1.get('/reporting/genera', { accept: 'text/html' })).status, 200);
    const bad = await co1.submitForm('/reporting/genera', { tipo: 'sara', dal: '', al: '' }, '/reporting/genera');
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-dal-err"[^>]*>Indica il mese di riferimento/);
    const neg = (await co1.get(`/api/reporting/reports?tipo=sara&periodo=${M1}`)).body.items[0];
    const made = await co1.submitForm(`/reporting/${neg.id}/filing`, {}, `/reporting/${neg.id}`);
    assert.equal(made.status, 302, made.text);
    const filingId = made.headers.get('location')!.split('/').pop()!;
    const filing = await env.ownerDb('filings').where({ id: filingId }).first();
    assert.deepEqual([filing.tipo, filing.periodo_riferimento, filing.stato, filing.content.transaction.length], ['sara', M1, 'draft', 1]);
    assert.equal(filing.content.transaction[0].amount_local, '20000.00');
    assert.equal((await env.ownerDb('reporting_reports').where({ id: neg.id }).first()).filing_id, filingId);
    const twice = await co1.submitForm(`/reporting/${neg.id}/filing`, {}, `/reporting/${neg.id}`);
    assert.equal(twice.status, 302);
    assert.match(twice.headers.get('location')!, new RegExp(`/reporting/${neg.id}$`));
  });
});
