import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { migrationsDir, prepareDatabase } from '../../src/db/bootstrap';
import { databaseSetup } from '../../src/config';
import { DocumentStore } from '../../src/domains/onboarding';
import { retentionOf } from '../../src/domains/spine';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { minimalPdf, smallPng } from '../helpers/document-files';

const API = '/api/documents/spine';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

describe('document spine API and pages', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient;
  let co: TestClient;
  let sos: TestClient;
  let viewer: TestClient;
  let auditor: TestClient;
  let admin: TestClient;
  let outsider: TestClient;
  let reporter: TestUser;
  let n = 0;
  let pages = 1;
  const pdf = () => ({ name: 'contratto firmato.pdf', type: 'application/pdf', bytes: minimalPdf(pages++) });

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    reporter = await env.createUser({ tenant, roles: ['analyst'] });
    [analyst, co, sos, viewer, auditor, admin, outsider] = await Promise.all([
      env.login(reporter),
      ...(['co', 'sos', 'viewer', 'auditor', 'admin'] as const).map((r) => env.createUser({ tenant, roles: [r] }).then((u) => env.login(u))),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
  });

  async function person(codAzienda = tenant): Promise<string> {
    const cod = `ANA-S${String(++n).padStart(5, '0')}`;
    await env.ownerDb('anagrafe').insert({ cod_azienda: codAzienda, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, created_by: 'test' });
    return cod;
  }
  async function relationship(cod: string, chiusura: string | null) {
    await env.ownerDb('rapporti').insert({
      cod_azienda: tenant, cod_rapporto: `RAP-S${++n}`, cod_anagrafe: cod, tipo: 'conto_corrente', data_apertura: '2001-01-01',
      stato: chiusura ? 'chiuso' : 'attivo', data_chiusura: chiusura, created_by: 'test',
    });
  }
  const tokens = new Map<TestClient, string>();
  async function send(client: TestClient, path: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }, csrf: 'header' | 'query' | 'none' = 'header') {
    if (!tokens.has(client)) tokens.set(client, await client.csrfToken('/'));
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    if (file) fd.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    const url = csrf === 'query' ? `${path}?_csrf=${encodeURIComponent(tokens.get(client)!)}` : path;
    return client.request('POST', url, { body: fd, headers: csrf === 'header' ? { 'x-csrf-token': tokens.get(client)! } : {} });
  }
  async function upload(cod: string, client = analyst) {
    const file = pdf();
    const r = await send(client, API, { cod_anagrafe: cod, descrizione: 'Contratto di conto' }, file);
    assert.equal(r.status, 201, r.text);
    return { entry: r.body as { cod_spine: string; sha256: string; id?: string }, file };
  }
  const audits = (action: string) => env.ownerDb('audit_events').where({ cod_azienda: tenant, action });

  it('uploads a document: sniffed type, SHA-256, owner, 201 with Location, audited, listed', async () => {
    const cod = await person();
    const file = pdf();
    const r = await send(analyst, API, { cod_anagrafe: cod, descrizione: 'Contratto di conto' }, file);
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.cod_spine, /^SPN-\d{6,}$/);
    assert.equal(r.headers.get('location'), `/documenti/spine/${r.body.cod_spine}`);
    assert.equal(r.body.sha256, sha(file.bytes));
    assert.equal(r.body.mime, 'application/pdf');
    assert.equal(r.body.dimensione, file.bytes.length);
    assert.equal(r.body.cod_anagrafe, cod);
    assert.equal(r.body.tipo, 'caricamento');
    assert.deepEqual(r.body.conservazione, retentionOf({ codAnagrafe: cod, relationships: [], documentDate: today() }));
    assert.equal(r.body.conserva_fino, r.body.conservazione.fino, 'the SQL function and the rule agree');
    const row = await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, cod_spine: r.body.cod_spine }).first();
    assert.equal((await audits('spine.upload').where({ entity_id: row.id })).length, 1);
    const list = await viewer.get(`${API}?cod_anagrafe=${cod}`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.items.map((i: { cod_spine: string }) => i.cod_spine), [r.body.cod_spine]);
    const bySha = await viewer.get(`${API}?q=${r.body.sha256}`);
    assert.ok(bySha.body.items.some((i: { cod_spine: string }) => i.cod_spine === r.body.cod_spine));
  });

  it('refuses bad input with problem+json: fields named, 415 wrong type, 422 mislabelled, 413 oversize, unknown owner, 403 by role', async () => {
    const cod = await person();
    const bad = await send(analyst, API, { descrizione: 'x'.repeat(600) });
    assert.equal(bad.status, 422);
    assert.match(bad.headers.get('content-type') ?? '', /problem\+json/);
    assert.deepEqual((bad.body.errors as { path: string }[]).map((e) => e.path).sort(), ['cod_anagrafe', 'descrizione', 'file']);
    const text = await send(analyst, API, { cod_anagrafe: cod }, { name: 'x.pdf', type: 'application/pdf', bytes: Buffer.from('solo testo, non un PDF') });
    assert.equal(text.status, 415, text.text);
    assert.equal(text.body.errors[0].path, 'file');
    const mislabelled = await send(analyst, API, { cod_anagrafe: cod }, { name: 'foto.pdf', type: 'application/pdf', bytes: smallPng() });
    assert.equal(mislabelled.status, 422, mislabelled.text);
    assert.equal(mislabelled.body.errors[0].path, 'file');
    const huge = await send(analyst, API, { cod_anagrafe: cod }, { name: 'grande.pdf', type: 'application/pdf', bytes: Buffer.concat([minimalPdf(), Buffer.alloc(env.deps.config.uploadMaxBytes)]) });
    assert.equal(huge.status, 413, huge.text);
    assert.equal(huge.body.errors[0].path, 'file');
    const foreign = await send(analyst, API, { cod_anagrafe: await person(other) }, pdf());
    assert.equal(foreign.status, 422, foreign.text);
    assert.equal(foreign.body.errors[0].path, 'cod_anagrafe');
    assert.equal(await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, cod_anagrafe: cod }).count({ n: '*' }).first().then((x) => Number(x!.n)), 0, 'nothing indexed');
    assert.equal((await send(viewer, API, { cod_anagrafe: cod }, pdf())).status, 403);
    assert.equal((await send(analyst, API, { cod_anagrafe: cod }, pdf(), 'none')).status, 403, 'no CSRF token');
    for (const q of ['blocco=forse', 'conservazione=domani', 'tipo=Nope!', 'sort=nome_file', 'cursor=abc']) {
      const r = await viewer.get(`${API}?${q}`);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
    }
  });

  it('answers another tenant\'s entry as not found (detail, download, hold, list)', async () => {
    const { entry } = await upload(await person());
    assert.equal((await outsider.get(`${API}/${entry.cod_spine}`)).status, 404);
    assert.equal((await outsider.get(`/documenti/spine/${entry.cod_spine}`)).status, 404);
    assert.equal((await outsider.get(`/documenti/spine/${entry.cod_spine}/download`)).status, 404);
    assert.equal((await outsider.put(`${API}/${entry.cod_spine}/hold`, { blocco: true, motivo: 'Richiesta della procura' })).status, 404);
    assert.equal((await outsider.get(`${API}?q=${entry.cod_spine}`)).body.items.length, 0);
    assert.equal((await co.get(`${API}/SPN-999999999`)).status, 404);
    assert.equal((await co.get('/documenti/spine/non-un-codice')).status, 404);
  });

  it('downloads the stored bytes, audited; a viewer sees the index but not the content', async () => {
    const { entry, file } = await upload(await person());
    const before = (await audits('spine.download')).length;
    const r = await auditor.getBytes(`/documenti/spine/${entry.cod_spine}/download`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/pdf');
    assert.match(r.headers.get('content-disposition') ?? '', /attachment; filename="contratto_firmato\.pdf"/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(sha(r.bytes), entry.sha256);
    assert.equal(sha(r.bytes), sha(file.bytes));
    const after = await audits('spine.download');
    assert.equal(after.length, before + 1);
    assert.equal(after.at(-1).data.cod_spine, entry.cod_spine);
    assert.equal((await viewer.get(`/documenti/spine/${entry.cod_spine}/download`)).status, 403);
    assert.equal((await viewer.get(`/documenti/spine/${entry.cod_spine}`)).status, 200);
  });

  it('indexes the documents other areas store, in their transaction, and shows the records citing the same bytes', async () => {
    const cod = await person();
    const file = pdf();
    const doc = await send(analyst, '/api/v1/documenti/records', { cod_anagrafe: cod, tipo: 'visura_camerale' }, file);
    assert.equal(doc.status, 201, doc.text);
    const indexed = await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, tipo: 'documento', record_codice: doc.body.cod_documento }).first();
    assert.ok(indexed, 'the document record is in the spine');
    assert.equal(indexed.sha256, sha(file.bytes));
    assert.equal(indexed.cod_anagrafe, cod);
    const mine = await send(analyst, API, { cod_anagrafe: cod }, file);
    assert.equal(mine.status, 201);
    assert.deepEqual(mine.body.citazioni.map((c: { tipo: string }) => c.tipo).sort(), ['caricamento', 'documento']);
    // A CDD evidence with a file: indexed under its task, cited with the same bytes.
    const pratica = randomUUID();
    await env.ownerDb('cdd_pratiche').insert({
      id: pratica, cod_azienda: tenant, cod_pratica: `CDD-9${String(n).padStart(5, '0')}`, cod_anagrafe: cod, livello: 'ordinaria', motivo: 'manuale', stato: 'open',
      due_at: new Date(Date.now() + 86_400_000), created_by: 'test', workflow_id: `cdd-task:${tenant}:${pratica}`,
    });
    await env.ownerDb('cdd_evidenze').insert({
      id: randomUUID(), cod_azienda: tenant, cdd_pratica_id: pratica, tipo: 'documento', descrizione: 'Visura allegata', sha256: sha(file.bytes),
      nome_file: 'visura.pdf', mime: 'application/pdf', dimensione: file.bytes.length, created_by: 'test',
    });
    const cited = (await co.get(`${API}/${mine.body.cod_spine}`)).body;
    assert.deepEqual(cited.citazioni.map((c: { tipo: string }) => c.tipo).sort(), ['caricamento', 'documento', 'evidenza']);
    const page = await co.get(`/documenti/spine/${mine.body.cod_spine}`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`/documenti/${doc.body.cod_documento}`));
    assert.match(page.text, /Record che citano il documento/);
  });

  it('reads a document kept in its record (a filing package) back through its area\'s source; a rebuilt package is gone (410)', async () => {
    const id = randomUUID();
    const xml = '<?xml version="1.0" encoding="UTF-8"?><report><rentity_id>42</rentity_id><reason>Operazioni frazionate</reason></report>';
    await env.ownerDb('filings').insert({
      id, cod_azienda: tenant, titolo: 'Segnalazione goAML', tipo: 'STR', stato: 'ready', package_xml: xml, package_sha256: sha(Buffer.from(xml)),
      created_by: 'test', prepared_by: 'test', workflow_id: `filing:${tenant}:${id}`,
    });
    const row = await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, tipo: 'pacchetto_filing', record_id: id }).first();
    assert.ok(row, 'indexed by the trigger');
    assert.equal(row.archivio, 'record');
    assert.equal(Number(row.dimensione), Buffer.byteLength(xml));
    const r = await co.getBytes(`/documenti/spine/${row.cod_spine}/download`);
    assert.equal(r.status, 200);
    assert.equal(r.bytes.toString('utf8'), xml);
    assert.match(r.headers.get('content-type') ?? '', /application\/xml/);
    assert.equal((await audits('spine.download').where({ entity_id: row.id })).length, 1);
    const detail = await co.get(`/documenti/spine/${row.cod_spine}`);
    assert.match(detail.text, new RegExp(`href="/filing/${id}"`));
    const rebuilt = `${xml}<!-- v2 -->`;
    await env.ownerDb('filings').where({ id }).update({ package_xml: rebuilt, package_sha256: sha(Buffer.from(rebuilt)) });
    assert.equal((await co.get(`/documenti/spine/${row.cod_spine}/download`)).status, 410);
    assert.equal((await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, tipo: 'pacchetto_filing', record_id: id })).length, 2, 'the new package is a new entry');
  });

  it('computes the retention from the relationships: open while one is open, ten years after the last end; SQL and rule agree', async () => {
    const open = await person();
    await relationship(open, null);
    await relationship(open, '2015-06-30');
    const closed = await person();
    await relationship(closed, '2009-03-31');
    await relationship(closed, '2010-02-28');
    const none = await person();
    const entries = await Promise.all([open, closed, none].map(async (c) => (await upload(c)).entry.cod_spine));
    const [o, c, z] = await Promise.all(entries.map(async (e) => (await co.get(`${API}/${e}`)).body));
    assert.deepEqual(o.conservazione, { stato: 'aperta', rapporti_aperti: 1 });
    assert.equal(o.conserva_fino, null);
    assert.deepEqual(c.conservazione, { stato: 'determinata', fino: '2020-02-28', base: 'fine_rapporti', da: '2010-02-28' });
    assert.equal(c.conserva_fino, '2020-02-28');
    assert.equal(z.conservazione.base, 'data_documento');
    assert.equal(z.conserva_fino, z.conservazione.fino);
    const due = await co.get(`${API}?conservazione=scaduta&cod_anagrafe=${closed}`);
    assert.deepEqual(due.body.items.map((i: { cod_spine: string }) => i.cod_spine), [entries[1]]);
    const undetermined = await co.get(`${API}?conservazione=aperta&cod_anagrafe=${open}`);
    assert.equal(undetermined.body.items.length, 1);
    // A relationship ending later moves the date: read, never stored.
    await env.ownerDb('rapporti').where({ cod_azienda: tenant, cod_anagrafe: open, stato: 'attivo' }).update({ stato: 'chiuso', data_chiusura: '2024-02-29' });
    const moved = (await co.get(`${API}/${entries[0]}`)).body;
    assert.deepEqual(moved.conservazione, { stato: 'determinata', fino: '2034-02-28', base: 'fine_rapporti', da: '2024-02-29' });
    assert.equal(moved.conserva_fino, '2034-02-28');
  });

  it('sets and lifts a legal hold with its reason, audited; a held document cannot be deleted; 409 and 422 and 403 as due', async () => {
    const { entry } = await upload(await person());
    assert.equal((await analyst.put(`${API}/${entry.cod_spine}/hold`, { blocco: true, motivo: 'Indagine in corso' })).status, 403);
    const bad = await co.put(`${API}/${entry.cod_spine}/hold`, { blocco: 'si', motivo: '' });
    assert.equal(bad.status, 422);
    assert.deepEqual((bad.body.errors as { path: string }[]).map((e) => e.path).sort(), ['blocco', 'motivo']);
    const held = await co.put(`${API}/${entry.cod_spine}/hold`, { blocco: true, motivo: 'Richiesta dell\'autorità giudiziaria' });
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.blocco_legale, true);
    assert.equal(held.body.blocco_motivo, 'Richiesta dell\'autorità giudiziaria');
    assert.equal((await co.put(`${API}/${entry.cod_spine}/hold`, { blocco: true, motivo: 'Di nuovo' })).status, 409);
    assert.ok((await co.get(`${API}?blocco=si`)).body.items.some((i: { cod_spine: string }) => i.cod_spine === entry.cod_spine));
    await assert.rejects(env.ownerDb('documenti_spine').where({ cod_azienda: tenant, cod_spine: entry.cod_spine }).delete(), /legal hold/);
    const released = await admin.put(`${API}/${entry.cod_spine}/hold`, { blocco: false, motivo: 'Procedimento archiviato' });
    assert.equal(released.status, 200, released.text);
    assert.equal(released.body.blocco_legale, false);
    const row = await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, cod_spine: entry.cod_spine }).first();
    assert.deepEqual((await audits('spine.hold').where({ entity_id: row.id })).map((a) => a.data.motivo), ['Richiesta dell\'autorità giudiziaria']);
    assert.equal((await audits('spine.release').where({ entity_id: row.id })).length, 1);
  });

  it('shows an SOS attachment only to the roles that may see its report; its reads go to the report\'s own audit chain', async () => {
    const cod = await person();
    const sosId = randomUUID();
    await env.ownerDb('sos_reports').insert({
      id: sosId, cod_azienda: tenant, stato: 'draft', origine: 'manuale', cod_anagrafe: cod, oggetto: 'Operazioni frazionate', reporter: randomUUID(),
      reporter_username: 'altro', valutazione_giorni: 30, workflow_id: `sos:${tenant}:${sosId}`,
    });
    const bytes = minimalPdf(pages++);
    await new DocumentStore(env.deps.config.documentDir).put(tenant, bytes);
    await env.ownerDb('sos_allegati').insert({ id: randomUUID(), cod_azienda: tenant, sos_id: sosId, sha256: sha(bytes), nome_file: 'estratto.pdf', mime: 'application/pdf', dimensione: bytes.length, created_by: 'test' });
    const row = await env.ownerDb('documenti_spine').where({ cod_azienda: tenant, sos_id: sosId }).first();
    assert.ok(row, 'indexed by the trigger');
    for (const [who, client] of [['analyst (not the reporter)', analyst], ['viewer', viewer], ['auditor', auditor], ['admin', admin]] as const) {
      const list = await client.get(`${API}?cod_anagrafe=${cod}`);
      assert.equal(list.status, 200);
      assert.equal(list.body.items.length, 0, `${who} lists it`);
      assert.equal((await client.get(`${API}?q=${sha(bytes)}`)).body.items.length, 0, `${who} finds it by hash`);
      assert.equal((await client.get(`${API}/${row.cod_spine}`)).status, 404, `${who} reads it`);
      assert.equal((await client.get(`/documenti/spine/${row.cod_spine}`)).status, 404, `${who} opens it`);
      if (who !== 'viewer') assert.equal((await client.get(`/documenti/spine/${row.cod_spine}/download`)).status, 404, `${who} downloads it`);
      const page = await client.get('/documenti/spine');
      assert.doesNotMatch(page.text, new RegExp(row.cod_spine), `${who} sees it in the page`);
    }
    const exported = await co.get(`/api/export/documenti-spine?formato=csv&cod_anagrafe=${cod}`);
    assert.equal(exported.status, 200);
    assert.doesNotMatch(exported.text, new RegExp(row.cod_spine), 'the export holds no SOS document');
    for (const client of [co, sos]) {
      assert.equal((await client.get(`${API}?cod_anagrafe=${cod}`)).body.items.length, 1);
      assert.equal((await client.get(`${API}/${row.cod_spine}`)).status, 200);
    }
    const tenantAuditBefore = await env.ownerDb('audit_events').where({ cod_azienda: tenant }).whereRaw('data::text like ?', [`%${row.cod_spine}%`]).count({ n: '*' }).first();
    const dl = await sos.getBytes(`/documenti/spine/${row.cod_spine}/download`);
    assert.equal(dl.status, 200);
    assert.equal(sha(dl.bytes), sha(bytes));
    assert.equal((await env.ownerDb('sos_audit').where({ sos_id: sosId, action: 'sos.document.download' })).length, 1);
    const tenantAuditAfter = await env.ownerDb('audit_events').where({ cod_azienda: tenant }).whereRaw('data::text like ?', [`%${row.cod_spine}%`]).count({ n: '*' }).first();
    assert.equal(Number(tenantAuditAfter!.n), Number(tenantAuditBefore!.n), 'nothing of the report in the tenant chain');
  });

  it('serves the pages: list with filters and upload form, upload with field messages, CSRF required', async () => {
    const cod = await person();
    const list = await analyst.get('/documenti/spine');
    assert.equal(list.status, 200);
    assert.match(list.text, /Indice dei documenti/);
    assert.match(list.text, /Carica un documento nell'indice/);
    assert.doesNotMatch((await viewer.get('/documenti/spine')).text, /data-spine-upload/);
    assert.equal((await send(analyst, '/documenti/spine/upload', { cod_anagrafe: cod }, pdf(), 'none')).status, 403);
    const refused = await send(analyst, '/documenti/spine/upload', { cod_anagrafe: 'ANA-NESSUNO' }, { name: 'x.pdf', type: 'application/pdf', bytes: Buffer.from('testo') }, 'query');
    assert.equal(refused.status, 422);
    assert.match(refused.text, /id="f-file-err"[^>]*>Formato non ammesso/);
    const unknown = await send(analyst, '/documenti/spine/upload', { cod_anagrafe: 'ANA-NESSUNO' }, pdf(), 'query');
    assert.equal(unknown.status, 422);
    assert.match(unknown.text, /id="f-cod_anagrafe-err"[^>]*>Nessun soggetto in anagrafe/);
    assert.match(unknown.text, /value="ANA-NESSUNO"/);
    const ok = await send(analyst, '/documenti/spine/upload', { cod_anagrafe: cod }, pdf(), 'query');
    assert.equal(ok.status, 302, ok.text);
    assert.match(ok.headers.get('location') ?? '', /^\/documenti\/spine\/SPN-\d+$/);
    const detail = await co.get(ok.headers.get('location')!);
    assert.equal(detail.status, 200);
    assert.match(detail.text, /Applica il blocco legale/);
  });

  // Last: it drops and re-creates the table (what the spine itself received, uploads and holds, goes with it).
  it('backfills every kept document when the migration runs on existing data', async () => {
    const opts = { directory: migrationsDir, loadExtensions: ['.ts'], name: '20261218000100_create_document_spine.ts' };
    // A rebuilt package's earlier entry has nothing left to be backfilled from (its record holds the new package only).
    const kinds = async () => (await env.ownerDb('documenti_spine').whereNot('tipo', 'caricamento')
      .whereRaw("not (tipo = 'pacchetto_filing' and not exists (select 1 from filings f where f.id::text = documenti_spine.record_id and f.package_sha256 = documenti_spine.sha256))")
      .select('cod_azienda', 'tipo', 'sorgente_id', 'sha256', 'cod_anagrafe', 'record_id', 'sos_id')
      .orderBy(['cod_azienda', 'tipo', 'sorgente_id'])).map((r) => JSON.stringify(r));
    const before = await kinds();
    assert.ok(before.some((r) => r.includes('"sos_allegato"')) && before.some((r) => r.includes('"documento"')));
    try {
      await env.ownerDb.migrate.down(opts);
      await env.ownerDb.migrate.up(opts);
      assert.deepEqual(await kinds(), before);
    } finally {
      // The table is new again: the roles' grants (given at start, not by migrations) and any
      // migration left undone are restored for the files that run after this one.
      await prepareDatabase(env.ownerDb, databaseSetup(env.deps.config));
    }
  });
});
