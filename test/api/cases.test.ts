import assert from 'node:assert/strict';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const newCase = (over: Record<string, unknown> = {}) => ({
  titolo: 'Operazioni frazionate in contanti', descrizione: 'Versamenti ripetuti sotto soglia', tipo: 'indagine', priorita: 'alta', ...over,
});

describe('cases API and pages', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let co1: TestClient;
  let co2: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let co1User: TestUser;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    co1User = await env.createUser({ tenant, roles: ['co'] });
    [analyst, co1, co2, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.login(co1User),
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  async function create(client: TestClient = analyst, over: Record<string, unknown> = {}) {
    const r = await client.post('/api/cases', newCase(over));
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; stato: string; workflow_id: string };
  }

  it('creates a case (201) with its workflow, and reads it back with the caller\'s allowed actions', async () => {
    // The case names a customer of the tenant (a reference to a subject that does not exist is a 422).
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-1', tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', created_by: 'test' });
    const r = await analyst.post('/api/cases', newCase({ cod_anagrafe: 'ANA-1' }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.get('location'), `/api/cases/${r.body.id}`);
    assert.equal(r.body.stato, 'open');
    assert.equal(r.body.cod_anagrafe, 'ANA-1');
    assert.equal(r.body.workflow_id, `case:${tenant}:${r.body.id}`);
    assert.equal(r.body.sla_days, 10, 'the default SLA of a high-priority case');
    assert.ok(r.body.workflow.url.endsWith(encodeURIComponent(r.body.workflow_id)));
    assert.deepEqual([...r.body.allowed_actions].sort(), ['add-event', 'close', 'escalate']);

    const asViewer = await viewer.get(`/api/cases/${r.body.id}`);
    assert.equal(asViewer.status, 200);
    assert.deepEqual(asViewer.body.allowed_actions, [], 'a viewer may read but not act');
    assert.deepEqual(asViewer.body.audit.map((a: { action: string }) => a.action), ['case.create']);
    assert.equal(asViewer.body.events[0].tipo, 'apertura');
  });

  const dueAfterDays = (c: { sla_due_at: string; created_at: string }) => (new Date(c.sla_due_at).getTime() - new Date(c.created_at).getTime()) / 86_400_000;

  it('gives a case the SLA of its priority: a critical case is due sooner', async () => {
    const critical = (await analyst.get(`/api/cases/${(await create(analyst, { priorita: 'critica' })).id}`)).body;
    const low = (await analyst.get(`/api/cases/${(await create(analyst, { priorita: 'bassa' })).id}`)).body;
    assert.equal(critical.sla_days, 3);
    assert.ok(Math.abs(dueAfterDays(critical) - 3) < 0.01, `critical due after ${dueAfterDays(critical)} days`);
    assert.equal(low.sla_days, 60);
    assert.ok(Math.abs(dueAfterDays(low) - 60) < 0.01, `low due after ${dueAfterDays(low)} days`);
  });

  it('applies a changed SLA setting to new cases only; the old single setting still counts where a priority has none', async () => {
    const admin = await env.login(await env.createUser({ tenant, roles: ['admin'] }));
    const before = (await analyst.get(`/api/cases/${(await create(analyst, { priorita: 'critica' })).id}`)).body;
    try {
      const put = await admin.put('/api/admin/settings', { chiave: 'case.sla_days.critica', valore: 1 });
      assert.equal(put.status, 200, put.text);
      assert.equal((await admin.put('/api/admin/settings', { chiave: 'case.sla_days.critica', valore: 0 })).status, 422);
      const after = (await analyst.get(`/api/cases/${(await create(analyst, { priorita: 'critica' })).id}`)).body;
      assert.equal(after.sla_days, 1);
      assert.ok(Math.abs(dueAfterDays(after) - 1) < 0.01, `due after ${dueAfterDays(after)} days`);
      assert.equal((await analyst.get(`/api/cases/${before.id}`)).body.sla_days, 3, 'a case keeps the SLA it was opened with');

      // A tenant that saved the single SLA of earlier releases keeps it for the priorities it never set.
      await env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'case.sla_days', valore: JSON.stringify(7) }).onConflict(['cod_azienda', 'chiave']).merge();
      assert.equal((await analyst.get(`/api/cases/${(await create(analyst, { priorita: 'alta' })).id}`)).body.sla_days, 7);
      assert.equal((await analyst.get(`/api/cases/${(await create(analyst, { priorita: 'critica' })).id}`)).body.sla_days, 1);
      const listed = (await admin.get('/api/admin/settings')).body.items as { chiave: string; valore: number; personalizzata: boolean }[];
      assert.deepEqual(listed.filter((x) => x.chiave.startsWith('case.sla_days.')).map((x) => [x.chiave, x.valore, x.personalizzata]),
        [['case.sla_days.critica', 1, true], ['case.sla_days.alta', 7, false], ['case.sla_days.media', 7, false], ['case.sla_days.bassa', 7, false]]);

      // The new-case form shows each priority's SLA.
      const form = await analyst.get('/casi/nuovo');
      assert.match(form.text, /data-sla-priorita="critica"[^>]*>Critica 1 giorno/);
      assert.match(form.text, /data-sla-priorita="bassa"[^>]*>Bassa 7 giorni/);
    } finally {
      await env.ownerDb('settings').where({ cod_azienda: tenant }).whereIn('chiave', ['case.sla_days', 'case.sla_days.critica']).delete();
    }
  });

  it('rejects bad input with 422 problem details', async () => {
    const r = await analyst.post('/api/cases', { titolo: '', tipo: 'boh', priorita: 'urgentissima' });
    assert.equal(r.status, 422);
    assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(r.body.code, 'VALIDATION_ERROR');
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), ['priorita', 'tipo', 'titolo']);
    const c = await create();
    const close = await analyst.put(`/api/cases/${c.id}/close`, { esito: 'archiviato' });
    assert.equal(close.status, 422);
    assert.deepEqual(close.body.errors.map((e: { path: string }) => e.path), ['motivazione']);
    const ev = await analyst.post(`/api/cases/${c.id}/events`, { tipo: 'pettegolezzo', testo: 'x' });
    assert.equal(ev.status, 422);
    assert.equal((await analyst.get('/api/cases?limit=0')).status, 422);
  });

  it('enforces roles: viewer reads only, complete-closure is for the compliance officer', async () => {
    assert.equal((await viewer.get('/api/cases')).status, 200);
    const denied = await viewer.post('/api/cases', newCase());
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'FORBIDDEN');
    const c = await create();
    assert.equal((await viewer.put(`/api/cases/${c.id}/escalate`, {})).status, 403);
    assert.equal((await viewer.post(`/api/cases/${c.id}/events`, { tipo: 'nota', testo: 'x' })).status, 403);
    await co1.put(`/api/cases/${c.id}/close`, { esito: 'archiviato', motivazione: 'nulla' });
    const notCo = await analyst.post(`/api/cases/${c.id}/complete-closure`, {});
    assert.equal(notCo.status, 403);
    assert.equal(notCo.body.code, 'FORBIDDEN');
    assert.equal((await env.client().get('/api/cases')).status, 401);
  });

  it('hides another tenant\'s case: 404 on read and on every action, absent from lists', async () => {
    const c = await create();
    for (const r of [
      await outsider.get(`/api/cases/${c.id}`),
      await outsider.put(`/api/cases/${c.id}/escalate`, {}),
      await outsider.put(`/api/cases/${c.id}/close`, { esito: 'archiviato', motivazione: 'x' }),
      await outsider.post(`/api/cases/${c.id}/complete-closure`, {}),
      await outsider.post(`/api/cases/${c.id}/events`, { tipo: 'nota', testo: 'x' }),
      await outsider.post(`/api/cases/${c.id}/reopen`, {}),
    ]) {
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.code, 'NOT_FOUND');
    }
    const list = await outsider.get('/api/cases?limit=200');
    assert.ok(!list.body.items.some((i: { id: string }) => i.id === c.id));
    assert.equal((await analyst.get('/api/cases/not-a-uuid')).status, 404);
    const row = await env.ownerDb('cases').where({ id: c.id }).first();
    assert.equal(row.stato, 'open', 'nothing changed');
  });

  it('walks the lifecycle: events, escalate, invalid transition 409, close, four-eyes 403, reopen, complete-closure', async () => {
    const c = await create();
    const ev = await analyst.post(`/api/cases/${c.id}/events`, { tipo: 'contatto', testo: 'Telefonata con il cliente' });
    assert.equal(ev.status, 201, ev.text);
    // The answer comes from the update itself: the row as written and the event it added.
    assert.equal(ev.body.event.tipo, 'contatto');
    assert.equal(ev.body.event.testo, 'Telefonata con il cliente');
    assert.equal(ev.body.stato, 'open');

    const esc = await analyst.put(`/api/cases/${c.id}/escalate`, { motivazione: 'importi rilevanti' });
    assert.equal(esc.status, 200, esc.text);
    assert.equal(esc.body.stato, 'escalated');

    const again = await analyst.put(`/api/cases/${c.id}/escalate`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'INVALID_TRANSITION');
    assert.deepEqual([...again.body.allowed_actions].sort(), ['add-event', 'close']);

    const early = await co2.post(`/api/cases/${c.id}/complete-closure`, {});
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'INVALID_TRANSITION');

    const close = await co1.put(`/api/cases/${c.id}/close`, { esito: 'sos_inviata', motivazione: 'Segnalazione trasmessa alla UIF' });
    assert.equal(close.status, 200, close.text);
    assert.equal(close.body.stato, 'closing');
    assert.equal(close.body.esito, 'sos_inviata');
    assert.deepEqual(close.body.allowed_actions, ['reopen'], 'who asked to close cannot confirm');

    const self = await co1.post(`/api/cases/${c.id}/complete-closure`, {});
    assert.equal(self.status, 403);
    assert.equal(self.body.code, 'FOUR_EYES_REQUIRED');

    const reopen = await analyst.post(`/api/cases/${c.id}/reopen`, { motivazione: 'manca la documentazione' });
    assert.equal(reopen.status, 200, reopen.text);
    assert.equal(reopen.body.stato, 'open');
    assert.equal(reopen.body.esito, null);

    await analyst.put(`/api/cases/${c.id}/close`, { esito: 'archiviato', motivazione: 'nessun riscontro' });
    const seen = await co1.get(`/api/cases/${c.id}`);
    assert.deepEqual([...seen.body.allowed_actions].sort(), ['complete-closure', 'reopen'], 'now co1 may confirm');
    const done = await co2.post(`/api/cases/${c.id}/complete-closure`, {});
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.stato, 'closed');
    assert.ok(done.body.closed_at);
    assert.deepEqual(done.body.allowed_actions, []);

    const afterClosed = await analyst.put(`/api/cases/${c.id}/close`, { esito: 'archiviato', motivazione: 'x' });
    assert.equal(afterClosed.status, 409);
    assert.deepEqual(afterClosed.body.allowed_actions, []);

    // Every change wrote an audit event, in order, on an intact chain.
    const detail = await co1.get(`/api/cases/${c.id}`);
    assert.deepEqual(detail.body.audit.map((a: { action: string }) => a.action), [
      'case.create', 'case.add-event', 'case.escalate', 'case.close', 'case.reopen', 'case.close', 'case.complete-closure',
    ]);
    assert.equal(detail.body.audit.find((a: { action: string }) => a.action === 'case.escalate').data.reason, 'importi rilevanti');
    const chain = await verifyAuditChain(env.ownerDb, tenant);
    assert.equal(chain.ok, true);
  });

  it('lists with filters, search, sort and paging', async () => {
    const marker = `Marcatore ${Date.now()}`;
    const a = await create(analyst, { titolo: `${marker} A`, priorita: 'bassa' });
    const b = await create(analyst, { titolo: `${marker} B`, priorita: 'critica' });
    await analyst.put(`/api/cases/${b.id}/escalate`, {});
    await env.ownerDb('cases').where({ id: a.id }).update({ overdue: true });

    const q = await analyst.get(`/api/cases?q=${encodeURIComponent(marker)}&sort=-priorita`);
    assert.equal(q.status, 200);
    assert.equal(q.body.total, 2);
    assert.deepEqual(q.body.items.map((i: { id: string }) => i.id), [b.id, a.id]);
    assert.deepEqual(Object.keys(q.body).sort(), ['items', 'limit', 'next_cursor', 'offset', 'prev_cursor', 'total', 'total_exact']);
    assert.equal(q.body.total_exact, true);

    const esc = await analyst.get(`/api/cases?q=${encodeURIComponent(marker)}&stato=escalated`);
    assert.deepEqual(esc.body.items.map((i: { id: string }) => i.id), [b.id]);
    const od = await analyst.get(`/api/cases?q=${encodeURIComponent(marker)}&overdue=true`);
    assert.deepEqual(od.body.items.map((i: { id: string }) => i.id), [a.id]);
    const pr = await analyst.get(`/api/cases?q=${encodeURIComponent(marker)}&priorita=bassa`);
    assert.deepEqual(pr.body.items.map((i: { id: string }) => i.id), [a.id]);
    const page = await analyst.get(`/api/cases?q=${encodeURIComponent(marker)}&sort=titolo&limit=1&offset=1`);
    assert.equal(page.body.total, 2);
    assert.deepEqual(page.body.items.map((i: { id: string }) => i.id), [b.id]);
  });

  it('pages with cursors both ways, in every sort; a tampered cursor or a deep offset is a 422', async () => {
    const marker = `Cursore ${Date.now()}`;
    const ids: string[] = [];
    for (const [i, priorita] of (['alta', 'bassa', 'alta', 'critica', 'media'] as const).entries()) ids.push((await create(analyst, { titolo: `${marker} ${i}`, priorita })).id);
    const search = `q=${encodeURIComponent(marker)}`;
    for (const sort of ['-created_at', 'created_at', 'priorita', '-priorita', 'titolo', '-sla_due_at']) {
      const all = (await analyst.get(`/api/cases?${search}&sort=${sort}&limit=200`)).body.items.map((i: { id: string }) => i.id);
      assert.equal(all.length, 5);
      const walked: string[] = [];
      let r = await analyst.get(`/api/cases?${search}&sort=${sort}&limit=2`);
      assert.equal(r.body.prev_cursor, null);
      const pages = [r.body];
      walked.push(...r.body.items.map((i: { id: string }) => i.id));
      while (r.body.next_cursor) {
        r = await analyst.get(`/api/cases?${search}&sort=${sort}&limit=2&cursor=${r.body.next_cursor}`);
        assert.equal(r.status, 200);
        pages.push(r.body);
        walked.push(...r.body.items.map((i: { id: string }) => i.id));
      }
      assert.deepEqual(walked, all, `sort ${sort}: the cursor pages are the list, in order, once each`);
      // Back from the last page: the previous page is the one before it.
      const back = await analyst.get(`/api/cases?${search}&sort=${sort}&limit=2&cursor=${pages[2]!.prev_cursor}`);
      assert.deepEqual(back.body.items.map((i: { id: string }) => i.id), pages[1]!.items.map((i: { id: string }) => i.id));
    }
    const first = (await analyst.get(`/api/cases?${search}&limit=2`)).body;
    const tampered = [
      'not-base64!', Buffer.from('{"s":"-created_at"}').toString('base64url'),
      Buffer.from(JSON.stringify({ s: '-created_at', d: 'a', k: ['2026-13-45 99:00:00+00', ids[0]] })).toString('base64url'),
      Buffer.from(JSON.stringify({ s: '-created_at', d: 'a', k: ['2026-01-01 00:00:00+00', "x' or 1=1 --"] })).toString('base64url'),
    ];
    for (const cursor of tampered) {
      const bad = await analyst.get(`/api/cases?limit=2&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(bad.status, 422, cursor);
      assert.match(bad.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(bad.body.errors[0].path, 'cursor');
    }
    // A cursor belongs to its sort.
    assert.equal((await analyst.get(`/api/cases?${search}&sort=titolo&limit=2&cursor=${first.next_cursor}`)).status, 422);
    const deep = await analyst.get('/api/cases?offset=1001');
    assert.equal(deep.status, 422);
    assert.match(JSON.stringify(deep.body.errors), /cursore/);
  });

  it('shows on the list page who holds each case, where the reader is, both ways, and which headers sort', async () => {
    const marker = `Paginato ${Date.now()}`;
    for (let i = 0; i < 5; i++) await create(analyst, { titolo: `${marker} ${i}`, ...(i === 4 ? { assegnatario: co1User.cod_utente } : {}) });
    const html = async (path: string) => { const r = await analyst.get(path, { accept: 'text/html' }); assert.equal(r.status, 200, path); return r.text; };
    const link = (page: string, rel: string) => new RegExp(`rel="${rel}" href="([^"]+)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');
    const range = (page: string) => /data-total>(.*?)<\/span>\s*<div/s.exec(page)?.[1]?.replace(/<[^>]+>/g, '').trim();

    const first = await html(`/casi?q=${encodeURIComponent(marker)}&limit=2`);
    assert.equal(range(first), '1–2 di 5 casi · Pagina 1 di 3');
    assert.match(first, /<span class="btn btn-sm disabled" aria-disabled="true">‹ Precedenti<\/span>/, 'no way back from the first page, shown disabled');
    // The newest case is the assigned one: its holder by name; the others "—".
    const rows = [...first.matchAll(/<td data-assignee>(.*?)<\/td>/gs)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, new RegExp(`\\(${co1User.username}\\)$`));
    assert.equal(rows[1], '—');
    // Every sortable header shows it sorts; the current sort is marked for everyone.
    assert.equal((first.match(/class="sort-icon"/g) ?? []).length, 4);
    assert.match(first, /aria-sort="descending" class="sortable">\s*<a class="sort-link active" href="\/casi\?[^"]*sort=created_at/);

    const second = await html(link(first, 'next')!);
    assert.equal(range(second), '3–4 di 5 casi · Pagina 2 di 3');
    const third = await html(link(second, 'next')!);
    assert.equal(range(third), '5 di 5 casi · Pagina 3 di 3');
    assert.match(third, /aria-disabled="true">Successivi ›/);
    const back = await html(link(third, 'prev')!);
    assert.equal(range(back), '3–4 di 5 casi · Pagina 2 di 3');
    assert.match(back, /data-first-page href="\/casi\?q=[^"]*&amp;limit=2"/, 'a way back to the first page');
  });

  it('works as plain HTML forms: create with Italian errors, act, four-eyes message, close', async () => {
    const list = await analyst.get('/casi', { accept: 'text/html' });
    assert.equal(list.status, 200);
    assert.match(list.text, /Nuovo caso/);

    const bad = await analyst.submitForm('/casi/nuovo', { titolo: '', descrizione: 'testo già scritto', tipo: 'indagine', priorita: 'alta' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Indica un titolo/);
    assert.match(bad.text, /testo già scritto/, 'what was typed is kept');

    const ok = await analyst.submitForm('/casi/nuovo', { titolo: 'Caso dal modulo', descrizione: '', tipo: 'segnalazione_interna', priorita: 'media', cod_anagrafe: '', assegnatario: '' });
    assert.equal(ok.status, 302, ok.text);
    const detailPath = ok.headers.get('location')!;
    assert.match(detailPath, /^\/casi\/[0-9a-f-]{36}$/);
    const id = detailPath.split('/').pop()!;

    const detail = await analyst.get(detailPath, { accept: 'text/html' });
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Caso aperto/, 'flash after redirect');
    assert.match(detail.text, /<svg[\s\S]*id="state(-|&#45;)open"[\s\S]*#206bc4/, "diagram with the current state highlighted");
    assert.match(detail.text, /data-workflow-id="case:/);
    assert.match(detail.text, /id="form-chiudi"/);

    const ev = await analyst.submitForm(`${detailPath}/evento`, { tipo: 'nota', testo: 'Nota dal modulo' }, detailPath);
    assert.equal(ev.status, 302);
    const closeBad = await analyst.submitForm(`${detailPath}/chiudi`, { esito: 'archiviato', motivazione: '' }, detailPath);
    assert.equal(closeBad.status, 302);
    assert.match((await analyst.get(detailPath, { accept: 'text/html' })).text, /Indica la motivazione della chiusura/);

    const close = await co1.submitForm(`${detailPath}/chiudi`, { esito: 'nessuna_anomalia', motivazione: 'Verifiche concluse' }, detailPath);
    assert.equal(close.status, 302);
    const self = await co1.submitForm(`${detailPath}/completa-chiusura`, {}, detailPath);
    assert.equal(self.status, 302);
    const selfPage = await co1.get(detailPath, { accept: 'text/html' });
    assert.match(selfPage.text, /quattro occhi/);
    assert.doesNotMatch(selfPage.text, /data-action="complete-closure"/, 'no button for what would be refused');

    const escalateNow = await analyst.submitForm(`${detailPath}/escala`, {}, detailPath);
    assert.equal(escalateNow.status, 302);
    assert.match((await analyst.get(detailPath, { accept: 'text/html' })).text, /non è consentita nello stato attuale/);

    const coPage = await co2.get(detailPath, { accept: 'text/html' });
    assert.match(coPage.text, /data-action="complete-closure"/);
    const done = await co2.submitForm(`${detailPath}/completa-chiusura`, {}, detailPath);
    assert.equal(done.status, 302);
    const closed = await co2.get(detailPath, { accept: 'text/html' });
    assert.match(closed.text, /Caso chiuso/);
    assert.match(closed.text, /data-status="closed"/);
    const row = await env.ownerDb('cases').where({ id }).first();
    assert.equal(row.stato, 'closed');
    assert.equal(row.closing_requested_by, co1User.cod_utente);
    assert.notEqual(row.closed_by, co1User.cod_utente, 'closed by the second compliance officer');

    const filtered = await analyst.get('/casi?stato=closed&q=Caso+dal+modulo', { accept: 'text/html', 'HX-Request': 'true' });
    assert.equal(filtered.status, 200);
    assert.doesNotMatch(filtered.text, /<html/i, 'htmx gets the table fragment only');
    assert.match(filtered.text, new RegExp(id));

    assert.equal((await outsider.get(detailPath, { accept: 'text/html' })).status, 404);
    const forged = await outsider.submitForm(`${detailPath}/escala`, {}, '/casi');
    assert.equal(forged.status, 404);
  });

  it('refuses a form without the CSRF token', async () => {
    const c = await create();
    const r = await analyst.request('POST', `/casi/${c.id}/escala`, { form: { motivazione: 'x' }, headers: { accept: 'text/html' } });
    assert.equal(r.status, 403);
    assert.equal((await env.ownerDb('cases').where({ id: c.id }).first()).stato, 'open');
  });
});
