import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, hit, raise, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * The SOS pages without JavaScript (docs/sos.md): a report written at /sos/nuova, filled in the
 * investigation view from the customer's movements, taken through the machine's buttons, checked
 * at /sos/completeness and transmitted at /sos/transmission; bad input answers the form with the
 * message next to its field.
 */
describe('SOS pages', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let delegate: TestClient;
  let viewer: TestClient;
  let co: TestClient;
  let analystId: string;
  let movementIds: string[];

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const { movements } = await seedCustomers(env.ownerDb, tenant, 1, 4);
    movementIds = movements.map((m) => m.id);
    const analystUser = await env.createUser({ tenant, roles: ['analyst'] });
    analystId = analystUser.cod_utente;
    [analyst, delegate, viewer, co] = await Promise.all([
      env.login(analystUser),
      env.createUser({ tenant, roles: ['sos'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
    ]);
  });

  it('from the new-report form to the transmission, every step a form', async () => {
    const empty = await analyst.submitForm('/sos/nuova', { oggetto: '', origine: 'manuale', cod_anagrafe: '' });
    assert.equal(empty.status, 422);
    assert.match(empty.text, /Indica l&#39;oggetto della segnalazione|Indica l'oggetto della segnalazione/);
    const made = await analyst.submitForm('/sos/nuova', { oggetto: 'Contanti frazionati', origine: 'manuale', cod_anagrafe: 'C-1', descrizione: '' });
    assert.equal(made.status, 302, made.text.slice(0, 300));
    const id = made.headers.get('location')!.split('/').pop()!;
    const row = await env.ownerDb('sos_reports').where({ id }).first();

    const inv = await analyst.get(`/sos/investigation/${row.cod_segnalazione}`);
    assert.equal(inv.status, 200);
    assert.ok(movementIds.every((m) => inv.text.includes(m)), 'the customer\'s movements are offered');
    const bad = await analyst.submitForm(`/sos/investigation/${row.cod_segnalazione}`, { movimenti: [movementIds[0]!], indicatori: '11.1, 99.9', descrizione: 'x' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Sub-indice sconosciuto: 99\.9/);
    const saved = await analyst.submitForm(`/sos/investigation/${row.cod_segnalazione}`, {
      movimenti: movementIds.slice(0, 2), fenomeni: ['F02'], indicatori: '11.1',
      descrizione: 'Versamenti in contanti frazionati sotto soglia in giorni consecutivi, incoerenti con il profilo dichiarato.',
    });
    assert.equal(saved.status, 302, saved.text.slice(0, 500));
    assert.equal(await env.ownerDb('sos_operazioni').where({ sos_id: id }).count('* as n').first().then((r) => Number(r!.n)), 2);

    const before = await analyst.get(`/sos/completeness/${row.cod_segnalazione}`);
    assert.equal(before.status, 200);
    assert.match(before.text, /data-item="valutazione" data-ok="false"/);
    assert.match(before.text, /data-item="operazioni" data-ok="true"/);
    assert.match(before.text, /Regola: Art\. 36 d\.lgs\. 231\/2007/);

    assert.equal((await analyst.submitForm(`/sos/${id}/transizione`, { action: 'submit' }, `/sos/${id}`)).status, 302);
    const refused = await analyst.submitForm(`/sos/${id}/transizione`, { action: 'evaluate' }, `/sos/${id}`);
    assert.equal(refused.status, 302);
    assert.equal((await env.ownerDb('sos_reports').where({ id }).first()).stato, 'submitted', 'the analyst may not evaluate');
    for (const action of ['evaluate', 'to_transmit']) assert.equal((await delegate.submitForm(`/sos/${id}/transizione`, { action }, `/sos/${id}`)).status, 302);
    const detail = await delegate.get(`/sos/${id}`);
    assert.match(detail.text, /<svg/);
    assert.match(detail.text, /data-action="complete-transmission"/);

    const queue = await delegate.get('/sos/queue');
    assert.ok(queue.text.includes(row.cod_segnalazione));
    const noProt = await delegate.submitForm(`/sos/transmission/${row.cod_segnalazione}`, { protocollo: '' });
    assert.equal(noProt.status, 422);
    const sent = await delegate.submitForm(`/sos/transmission/${row.cod_segnalazione}`, { protocollo: 'UIF-77' });
    assert.equal(sent.status, 302, sent.text.slice(0, 500));
    assert.deepEqual(await env.ownerDb('sos_reports').where({ id }).first('stato', 'protocollo_uif'), { stato: 'transmitted', protocollo_uif: 'UIF-77' });
    assert.equal((await analyst.get(`/sos/transmission/${row.cod_segnalazione}`)).status, 200, 'the reporter still sees their report');
    for (const p of ['/sos', `/sos/${id}`, '/sos/queue', `/sos/investigation/${row.cod_segnalazione}`]) assert.equal((await viewer.get(p)).status, 403, p);
  });

  it('the alert, case and abstained CDD pages link to a new report for SOS roles only, and never tell whether one exists (art. 39)', async () => {
    const LINK = 'Prepara segnalazione SOS';
    const rule = await co.post('/api/monitoring/rules', ruleBody('sos_link'));
    assert.equal(rule.status, 201, rule.text);
    await activateDraft(env, tenant, rule.body.bozza.id);
    const mov = movementIds.slice(0, 2).map((id) => ({ id, data_operazione: '2026-03-02' }));
    const [alert] = await raise(env, tenant, [hit('sos_link', 'C-1', '2026-03-01', '2026-03-12', { movimenti: mov })]);
    const page = `/alert/${alert!.id}`;
    assert.ok(!(await analyst.get(page)).text.includes(LINK), 'an open alert offers no report');
    await co.put(`/api/monitoring/alerts/${alert!.id}/assign`, { assegnatario: analystId });
    assert.equal((await analyst.put(`/api/monitoring/alerts/${alert!.id}/close`, { disposizione: 'sospetto', motivazione: 'Frazionamento' })).status, 200);

    const href = `/sos/nuova?origine=alert&amp;origine_ref=${alert!.cod_alert}`;
    const shown = await analyst.get(page);
    assert.ok(shown.text.includes(href), 'the analyst is offered the report, prefilled with the alert');
    const form = await analyst.get(`/sos/nuova?origine=alert&origine_ref=${alert!.cod_alert}`);
    assert.ok(form.text.includes(`value="${alert!.cod_alert}"`), 'the form carries the alert');
    const viewerBefore = await viewer.get(page);
    assert.equal(viewerBefore.status, 200);
    assert.ok(!viewerBefore.text.includes(LINK) && !viewerBefore.text.includes('/sos/'), 'a viewer is offered nothing');

    const made = await analyst.post('/api/sos/reports', { origine: 'alert', origine_ref: alert!.cod_alert, oggetto: 'Dal link', descrizione: '' });
    assert.equal(made.status, 201, made.text);
    // Nothing on the pages changes once a report exists: neither for the viewer nor for the reporter.
    const strip = (t: string) => t.replace(/name="_csrf" value="[^"]*"|<meta name="csrf-token" content="[^"]*"/g, '');
    assert.equal(strip((await viewer.get(page)).text), strip(viewerBefore.text));
    assert.ok((await analyst.get(page)).text.includes(href));

    const kase = await co.post('/api/cases', { titolo: 'Indagine C-1', descrizione: '', tipo: 'indagine', priorita: 'media', cod_anagrafe: 'C-1' });
    assert.equal(kase.status, 201, kase.text);
    const casePage = await delegate.get(`/casi/${kase.body.id}`);
    assert.ok(casePage.text.includes(`/sos/nuova?origine=caso&amp;origine_ref=${kase.body.id}&amp;cod_anagrafe=C-1`), 'the delegate is offered the report from the case');
    const viewerCase = await viewer.get(`/casi/${kase.body.id}`);
    assert.equal(viewerCase.status, 200);
    assert.ok(!viewerCase.text.includes(LINK));

    const task = await analyst.post('/api/cdd/initiate/C-1', {});
    assert.equal(task.status, 201, task.text);
    assert.ok(!(await analyst.get(`/cdd/${task.body.id}`)).text.includes(LINK), 'an open CDD task offers no report');
    assert.equal((await analyst.post('/api/cdd/abstention/C-1', { motivazione: 'Il cliente rifiuta di indicare l\'origine dei fondi' })).status, 200);
    const abstained = await analyst.get(`/cdd/${task.body.id}`);
    assert.ok(abstained.text.includes(`/sos/nuova?origine=cdd&amp;origine_ref=${task.body.id}&amp;cod_anagrafe=C-1`), 'the abstention offers the report');
    assert.ok(!(await viewer.get(`/cdd/${task.body.id}`)).text.includes(LINK));
  });
});
