import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/** Cases of a tenant, straight into the table (the export reads the list, not the workflow). */
async function seedCases(env: TestEnv, tenant: string, n: number, titolo: string) {
  await env.ownerDb.raw(`insert into cases (id, cod_azienda, titolo, descrizione, tipo, priorita, stato, opened_by, sla_days, sla_due_at, overdue, workflow_id, created_at, updated_at)
    select gen_random_uuid(), :tenant, :titolo || ' ' || i, 'Descrizione, con "virgolette"' || chr(10) || 'e a capo', 'indagine',
      (array['bassa','media','alta','critica'])[1 + i % 4], (array['open','closed'])[1 + i % 2], 'seed', 30,
      now() + interval '10 days', false, 'case:' || :tenant || ':' || i, now() - i * interval '1 minute', now()
    from generate_series(1, :n) i`, { tenant, titolo, n });
}

describe('export API (GET /api/export/:entity)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let outsider: TestClient;
  let nobody: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [analyst, outsider, nobody] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['analyst'] }).then((u) => env.login(u)),
      // A superadmin reads no tenant list: not a reader of the cases list.
      env.createUser({ tenant: null, roles: ['superadmin'] }).then((u) => env.login(u)),
    ]);
    // More rows than one export page (2,000), so the keyset walk crosses pages.
    await seedCases(env, tenant, 4_503, 'Caso esportato');
    await seedCases(env, other, 50, 'Caso altrui');
  });

  const auditOf = async () => env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'export.completed' }).orderBy('id', 'desc').first();
  const waitAudit = async (before: number) => {
    for (let i = 0; i < 50; i++) {
      const row = await auditOf();
      if (row && row.id > before) return row;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no export audit event');
  };

  it('streams CSV with Italian headers and labels, every row across pages, and audits it', async () => {
    const before = (await auditOf())?.id ?? 0;
    const r = await analyst.get('/api/export/cases?formato=csv');
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.match(r.headers.get('content-type')!, /^text\/csv/);
    assert.match(r.headers.get('content-disposition')!, /attachment; filename="cases-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = parse(r.text, { bom: true }) as string[][];
    assert.deepEqual(rows[0]!.slice(0, 5), ['Identificativo', 'Titolo', 'Tipo', 'Stato', 'Priorità']);
    assert.equal(rows.length, 4_503 + 1);
    assert.ok(rows.slice(1).every((row) => row[1]!.startsWith('Caso esportato ')), 'only the tenant\'s own rows');
    assert.equal(new Set(rows.slice(1).map((row) => row[0])).size, 4_503, 'no row twice across pages');
    assert.deepEqual([...new Set(rows.slice(1).map((row) => row[3]))].sort(), ['Aperto', 'Chiuso']);
    const audit = await waitAudit(before);
    assert.equal(audit.actor, (await env.ownerDb('utenti').where({ cod_azienda: tenant }).first('username')).username);
    assert.deepEqual({ ...audit.data }, { elenco: 'cases', formato: 'csv', filtri: {}, righe: 4_503, completo: true });
  });

  it('applies the list\'s filters and search, and records them in the audit event', async () => {
    const before = (await auditOf())?.id ?? 0;
    const r = await analyst.get('/api/export/cases?stato=open&priorita=alta&q=esportato%2011');
    assert.equal(r.status, 200);
    const rows = (parse(r.text, { bom: true }) as string[][]).slice(1);
    const expected = await env.ownerDb('cases').where({ cod_azienda: tenant, stato: 'open', priorita: 'alta' }).whereILike('titolo', '%esportato 11%').count({ n: '*' });
    assert.equal(rows.length, Number(expected[0]!.n));
    assert.ok(rows.length > 0);
    assert.ok(rows.every((row) => row[3] === 'Aperto' && row[4] === 'Alta' && row[1]!.includes('esportato 11')));
    const audit = await waitAudit(before);
    assert.deepEqual(audit.data.filtri, { stato: 'open', priorita: 'alta', q: 'esportato 11' });
    assert.equal(audit.data.righe, rows.length);
  });

  it('streams XLSX that exceljs reads back, with dates as dates', async () => {
    const r = await analyst.getBytes('/api/export/cases?formato=xlsx&stato=open&sort=titolo');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(r.bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    assert.equal(sheet.getRow(1).getCell(2).value, 'Titolo');
    const open = await env.ownerDb('cases').where({ cod_azienda: tenant, stato: 'open' }).orderBy([{ column: 'titolo' }, { column: 'id' }]).select('titolo', 'descrizione');
    assert.equal(sheet.rowCount, open.length + 1);
    assert.equal(sheet.getRow(2).getCell(2).value, open[0]!.titolo, 'in the requested sort');
    assert.equal(sheet.getRow(2).getCell(4).value, 'Aperto');
    assert.equal(sheet.getRow(2).getCell(10).value, 'seed');
    assert.ok(sheet.getRow(2).getCell(11).value instanceof Date, 'Aperto il is a date cell');
  });

  it('exports movements (the movimenti list) with its date filter, amounts as numbers, in the list\'s order', async () => {
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-EXP1', tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', created_by: 'test' });
    await env.ownerDb('rapporti').insert({ cod_azienda: tenant, cod_rapporto: 'RAP-EXP1', cod_anagrafe: 'ANA-EXP1', tipo: 'conto corrente', data_apertura: '2020-01-01', created_by: 'test' });
    await env.ownerDb.raw("select movimenti_ensure_partitions(array[date '2025-01-01', date '2025-02-01', date '2025-03-01'])");
    await env.ownerDb.raw(`insert into movimenti (id, cod_azienda, cod_rapporto, cod_anagrafe, data_operazione, ora_operazione, importo, importo_eur, segno,
        chiave_esterna, cod_anagrafe_esecutore, created_by)
      select gen_random_uuid(), ?, 'RAP-EXP1', 'ANA-EXP1', date '2025-01-01' + i, time '09:30' + i * interval '1 minute', 10 + i + 0.5, 10 + i + 0.5,
        (array['entrata','uscita'])[1 + i % 2], 'EXP-' || i, 'ANA-EXP1', 'test'
      from generate_series(0, 80) i`, [tenant]);
    const r = await analyst.getBytes('/api/export/movimenti?formato=xlsx&dal=2025-02-01&al=2025-02-28');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-disposition')!, /filename="movimenti-/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(r.bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1, 9),
      ['Data operazione', 'Ora', 'Data valuta', 'Rapporto', 'Codice anagrafe', 'Esecutore', 'Segno', 'Importo']);
    assert.equal(sheet.rowCount, 28 + 1);
    assert.equal(sheet.getRow(2).getCell(1).value, '2025-02-28', 'newest first, as the list');
    assert.equal(sheet.getRow(2).getCell(2).value, '10:28:00', 'the time of day (09:30 plus 58 minutes)');
    assert.equal(sheet.getRow(2).getCell(6).value, 'ANA-EXP1', 'the executor');
    assert.equal(sheet.getRow(2).getCell(8).value, 68.5);
    assert.ok(['Entrata', 'Uscita'].includes(String(sheet.getRow(2).getCell(7).value)));
    const bad = await analyst.get('/api/export/movimenti?dal=2025-13-01');
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].path, 'dal');
  });

  it('never exports another tenant\'s rows: the caller\'s tenant only', async () => {
    const r = await outsider.get('/api/export/cases');
    const rows = (parse(r.text, { bom: true }) as string[][]).slice(1);
    assert.equal(rows.length, 50);
    assert.ok(rows.every((row) => row[1]!.startsWith('Caso altrui ')));
  });

  it('refuses an unknown list (404 naming the known ones), a bad filter or format (422), a role that cannot read the list (403), and anonymous callers', async () => {
    const unknown = await analyst.get('/api/export/segreti');
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type')!, /problem\+json/);
    assert.ok(unknown.body.known.includes('cases'));
    const badFilter = await analyst.get('/api/export/cases?stato=inventato');
    assert.equal(badFilter.status, 422);
    assert.equal(badFilter.body.errors[0].path, 'stato');
    const badFormat = await analyst.get('/api/export/cases?formato=pdf');
    assert.equal(badFormat.status, 422);
    assert.equal(badFormat.body.errors[0].path, 'formato');
    assert.equal((await nobody.get('/api/export/cases')).status, 403);
    assert.equal((await env.client().get('/api/export/cases')).status, 401);
  });
});
