import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/**
 * The tipping-off sweep (art. 39 d.lgs. 231/2007, docs/sos.md): a report, its content and any trace
 * of it are visible to the SOS delegate, the compliance officer and the reporter only. Every other
 * role signs in and looks everywhere a trace could surface: the SOS lists and their search, the
 * report and its exports, the customer's pages and file, the customer list's search and export,
 * notifications, the audit API, the home page. The delegate's view is the control: the same
 * markers are found there, so their absence elsewhere means something.
 */
describe('SOS tipping-off sweep', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let reporter: TestClient;
  let delegate: TestClient;
  let co: TestClient;
  let others: Record<'analyst' | 'auditor' | 'viewer' | 'admin', TestClient>;
  let othersUsers: TestUser[];
  const MARKER = 'Riservatissimo-7Q4Z';
  const SEARCH = 'Riservatissimo';
  let sos: { id: string; cod_segnalazione: string };
  /** A goAML filing made from the report: reserved, linked in sos_filings. */
  const filingId = randomUUID();

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'TIP-1', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente Sotto Esame', created_by: 'test' });
    const reporterUser = await env.createUser({ tenant, roles: ['analyst'] });
    othersUsers = await Promise.all((['analyst', 'auditor', 'viewer', 'admin'] as const).map((r) => env.createUser({ tenant, roles: [r] })));
    [reporter, delegate, co] = await Promise.all([
      env.login(reporterUser),
      env.createUser({ tenant, roles: ['sos'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
    ]);
    const logged = await Promise.all(othersUsers.map((u) => env.login(u)));
    others = { analyst: logged[0]!, auditor: logged[1]!, viewer: logged[2]!, admin: logged[3]! };

    const r = await reporter.post('/api/sos/reports', { cod_anagrafe: 'TIP-1', oggetto: `Segnalazione ${MARKER}`, descrizione: `Descrizione ${MARKER}` });
    assert.equal(r.status, 201, r.text);
    sos = r.body;
    for (const [c, body] of [[reporter, { action: 'submit' }], [delegate, { action: 'evaluate' }]] as const) {
      const t = await c.put(`/api/sos/reports/${sos.id}/transition`, body);
      assert.equal(t.status, 200, t.text);
    }
    const comm = await delegate.post(`/api/sos/reports/${sos.id}/communications`, { direzione: 'ricevuta', data: '2026-11-20', oggetto: `Richiesta ${MARKER}` });
    assert.equal(comm.status, 201, comm.text);
    assert.equal((await delegate.getBytes(`/api/dossier/sos/${sos.cod_segnalazione}?formato=pdf`)).status, 200);
    // The STR filing made from it (as POST /api/sos/reports/:id/filing writes it once transmitted): reserved and linked.
    await env.ownerDb('filings').insert({
      id: filingId, cod_azienda: tenant, titolo: `STR goAML della segnalazione ${sos.cod_segnalazione}`, tipo: 'str', stato: 'draft',
      content: JSON.stringify({ reason: `Descrizione ${MARKER}` }), created_by: 'test', workflow_id: `filing:${tenant}:${filingId}`, cod_anagrafe: 'TIP-1', riservata: true,
    });
    await env.ownerDb('sos_filings').insert({ id: randomUUID(), cod_azienda: tenant, sos_id: sos.id, filing_id: filingId, created_by: 'test' });
  });

  /** Every trace a page or an answer could carry. */
  const traces = () => [MARKER, sos.id, sos.cod_segnalazione, filingId, 'segnalazione di operazione sospetta', 'sos.'];

  const readable = (c: TestClient, path: string) => c.get(path).then((r) => ({ status: r.status, text: r.text }));

  it('the control: the delegate, the compliance officer and the reporter find the report, its markers and its audit trail', async () => {
    for (const c of [delegate, co, reporter]) {
      const list = await readable(c, `/api/sos/reports?q=${SEARCH}`);
      assert.ok(list.text.includes(sos.id), list.text);
      const page = await readable(c, `/sos/${sos.id}`);
      assert.equal(page.status, 200);
      assert.ok(page.text.includes(MARKER));
    }
    const reads = await env.ownerDb('sos_audit').where({ sos_id: sos.id, action: 'sos.read' }).count('* as n').first();
    assert.equal(Number(reads!.n), 3, 'every read of the report is audited');
    // The lists' exports and the reserved filing: found by the delegate and the compliance officer, each export in the report's own trail.
    for (const c of [delegate, co]) {
      const csv = await readable(c, `/api/export/sos?formato=csv&q=${SEARCH}`);
      assert.equal(csv.status, 200, csv.text);
      assert.ok(csv.text.includes(sos.cod_segnalazione) && csv.text.includes(MARKER), csv.text);
      const filing = await c.get(`/api/filing/${filingId}`);
      assert.equal(filing.status, 200, filing.text);
      assert.deepEqual(filing.body.sos, { id: sos.id, cod_segnalazione: sos.cod_segnalazione });
      assert.ok((await readable(c, '/api/export/filing?formato=csv')).text.includes(sos.cod_segnalazione));
      assert.ok((await readable(c, `/filing/${filingId}`)).text.includes(`href="/sos/${sos.id}"`));
    }
    const exported = await env.ownerDb('sos_audit').where({ sos_id: sos.id, action: 'sos.export' }).whereRaw("data->>'elenco' = 'true'").count('* as n').first();
    assert.equal(Number(exported!.n), 2, 'every export of the list is audited in the report\'s trail');
    // The reporter's own list export finds the report; the reserved filing is the delegate's and the compliance officer's only.
    assert.ok((await readable(reporter, '/api/export/sos?formato=csv')).text.includes(sos.cod_segnalazione));
    assert.equal((await reporter.get(`/api/filing/${filingId}`)).status, 404);
  });

  it('no other role finds it anywhere: SOS lists and search, the report, its exports, the customer, notifications, audit, home', async () => {
    const paths = [
      // Searched by part of the marker: a search page shows what was searched, which must not count as finding it.
      '/api/sos/reports', `/api/sos/reports?q=${SEARCH}`, '/sos', `/sos?q=${SEARCH}`, `/sos/${sos.id}`, `/sos/${sos.cod_segnalazione}`,
      `/api/dossier/sos/${sos.cod_segnalazione}?formato=xml`, `/dossier/sos/${sos.cod_segnalazione}?formato=pdf`,
      '/anagrafe/TIP-1', '/api/anagrafe/TIP-1', '/anagrafe/TIP-1/dossier', `/anagrafe?q=TIP-1`, '/api/export/anagrafe?formato=csv',
      // The lists' exports (CSV: a spreadsheet's text), and the reserved filing made from the report.
      '/api/export/sos?formato=csv', `/api/export/sos?formato=csv&q=${SEARCH}`, '/api/export/filing?formato=csv', `/api/export/filing?formato=csv&q=${SEARCH}`,
      '/api/filing', `/api/filing?q=${SEARCH}`, '/api/filing?cod_anagrafe=TIP-1', '/filing', '/filing/workbench', `/api/filing/${filingId}`, `/filing/${filingId}`,
      '/api/notifications', '/notifiche', '/api/audit/events', `/api/audit/events?entity_id=${sos.id}`, `/api/audit/events?entity_type=sos`, '/audit', '/',
    ];
    for (const [role, c] of Object.entries(others)) {
      for (const path of paths) {
        const r = await readable(c, path);
        assert.ok(r.status < 500, `${role} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
        const named = path.includes(sos.id) || path.includes(sos.cod_segnalazione) || path.includes(filingId);
        if (named) {
          // An error page may repeat the address asked for: what matters is that a report that exists
          // answers exactly as one that does not.
          const other = randomUUID();
          const probe = await readable(c, path.replace(sos.id, other).replace(filingId, other).replace(sos.cod_segnalazione, 'SOS-999999'));
          assert.equal(r.status, probe.status, `${role} ${path}: ${r.status}, unknown report ${probe.status}`);
          if (path.includes('/sos')) assert.ok([403, 404].includes(r.status), `${role} ${path}: ${r.status}`);
          if (path.startsWith('/api/')) {
            const same = (text: string, ...ids: string[]) => ids.reduce((t, id) => t.replaceAll(id, 'X'), text).replace(/"instance":"[^"]*"/, '');
            assert.equal(same(r.text, sos.id, filingId, sos.cod_segnalazione), same(probe.text, other, 'SOS-999999'), `${role} ${path}`);
          }
        }
        for (const t of named ? traces().filter((x) => x !== sos.id && x !== sos.cod_segnalazione && x !== filingId) : traces()) {
          assert.ok(!r.text.includes(t), `${role} found "${t}" at ${path} (${r.status})`);
        }
      }
      // The report itself: forbidden to the role, or not found for an analyst who did not write it.
      const own = await c.get(`/api/sos/reports`);
      assert.ok(own.status === 403 || (own.status === 200 && own.body.items.length === 0), `${role}: ${own.status}`);
      const tr = await c.put(`/api/sos/reports/${sos.id}/transition`, { action: 'archive', motivazione: 'x' });
      assert.ok([403, 404].includes(tr.status), `${role} transition: ${tr.status}`);
    }
  });

  it('nothing of the report reaches the tenant\'s audit chain, notifications of others, or Temporal\'s search attributes', async () => {
    const inChain = await env.ownerDb('audit_events').where({ cod_azienda: tenant }).where((w) => w.where('entity_id', sos.id).orWhereLike('action', 'sos.%').orWhereRaw('data::text like ?', [`%${MARKER}%`]));
    assert.deepEqual(inChain, []);
    const notes = await env.ownerDb('notifications').where({ cod_azienda: tenant }).whereIn('cod_utente', othersUsers.map((u) => u.cod_utente));
    for (const n of notes) for (const t of traces()) assert.ok(!JSON.stringify(n).includes(t), JSON.stringify(n));
    const described = await env.temporal.workflow.getHandle(`sos:${tenant}:${sos.id}`).describe();
    assert.ok(!JSON.stringify(described.searchAttributes).includes('TIP-1'), 'the workflow is findable by record id, never by customer');
  });
});
