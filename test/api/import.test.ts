import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { projectRoot } from '../../src/config';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const SAMPLES = join(projectRoot, 'data', 'samples', 'import');
const sample = (name: string) => readFileSync(join(SAMPLES, name));
const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function xlsxOf(rows: (string | number | Date | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Movimenti');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('import API and pages (POST /api/import/:tipo)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['analyst', 'co'] }).then((u) => env.login(u)),
    ]);
  });

  /** An API client's upload: multipart with the session's CSRF token in X-CSRF-Token. */
  async function upload(client: TestClient, tipo: string, name: string, bytes: Uint8Array, type = CSV) {
    const fd = new FormData();
    fd.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
    const token = await client.csrfToken('/anagrafe/importa');
    return client.request('POST', `/api/import/${tipo}`, { body: fd, headers: { 'x-csrf-token': token } });
  }

  /** Uploads and waits for the workflow to finish; answers the final job. */
  async function runImport(tipo: string, name: string, bytes: Uint8Array, type = CSV) {
    const r = await upload(analyst, tipo, name, bytes, type);
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.workflow_id, `import:${tenant}:${r.body.id}`);
    for (let i = 0; i < 300; i++) {
      const job = await analyst.get(`/api/import/${r.body.id}`);
      assert.equal(job.status, 200, job.text);
      if (job.body.stato === 'completato' || job.body.stato === 'fallito') return job.body;
      await new Promise((res) => setTimeout(res, 200));
    }
    throw new Error('the import did not finish');
  }

  const report = async (id: string) => {
    const r = await analyst.get(`/api/import/${id}/errori.csv`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/csv/);
    const rows = parse(r.text, { bom: true }) as string[][];
    assert.deepEqual(rows[0], ['Riga', 'Colonna', 'Errore']);
    return rows.slice(1);
  };

  it('imports the sample customers (CSV, ";"), deduplicating on the tax id, and audits the run', async () => {
    const job = await runImport('clienti', 'clienti.csv', sample('clienti.csv'));
    assert.equal(job.stato, 'completato', job.errore);
    assert.deepEqual([job.righe_lette, job.righe_valide, job.righe_importate, job.righe_gia_presenti, job.righe_errate], [4, 4, 4, 0, 0]);
    const rows = await env.ownerDb('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(rows.map((r) => r.chiave_fiscale).sort(), ['CF:BNCLGU75C41F205O', 'CF:RSSMRA80A01H501U', 'EST:FR:FR1234567890', 'PIVA:01234567897']);
    const rossi = rows.find((r) => r.codice_fiscale === 'RSSMRA80A01H501U');
    assert.equal(rossi.denominazione, 'Mario Rossi');
    assert.equal(rossi.classe_rischio, 'basso');
    assert.equal(rows.find((r) => r.cognome === 'Dupont').pep, true);
    const actions = (await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_id: job.id }).orderBy('id')).map((a) => a.action);
    assert.deepEqual(actions, ['import.created', 'import.completed']);
  });

  it('re-running the same file imports nothing twice', async () => {
    const job = await runImport('clienti', 'clienti-di-nuovo.csv', sample('clienti.csv'));
    assert.deepEqual([job.righe_lette, job.righe_importate, job.righe_gia_presenti, job.righe_errate], [4, 0, 4, 0]);
    assert.equal(Number((await env.ownerDb('anagrafe').where({ cod_azienda: tenant }).count({ n: '*' }))[0]!.n), 4);
  });

  it('checks every row: the bad ones go to the error report (row, column, Italian message), the good ones are imported', async () => {
    const csv = [
      'tipo_soggetto,nome,cognome,codice_fiscale,data_nascita,nazionalita,pep',
      'persona_fisica,Giuseppe,Verdi,VRDGPP62E15L219G,15/05/1962,IT,no', // good (row 2)
      'persona_fisica,Paolo,Neri,NREPLA90T10H501X,10/12/1990,IT,no', // wrong check character (row 3)
      'persona_fisica,Francesca,,GLLFNC85M52A662F,31/02/1985,XX,forse', // no surname, impossible date, bad country, bad flag (row 4)
      'alieno,Ufo,Robot,,,,', // unknown type, no tax id (row 5)
    ].join('\n');
    const job = await runImport('clienti', 'errori.csv', Buffer.from(csv));
    assert.equal(job.stato, 'completato');
    assert.deepEqual([job.righe_lette, job.righe_valide, job.righe_importate, job.righe_errate], [4, 1, 1, 3]);
    const errors = await report(job.id);
    const at = (riga: string) => errors.filter((e) => e[0] === riga).map((e) => e[1]).sort();
    assert.deepEqual(at('3'), ['codice_fiscale']);
    assert.deepEqual(at('4'), ['cognome', 'data_nascita', 'nazionalita', 'pep']);
    assert.deepEqual(at('5'), ['tipo_soggetto']);
    assert.ok(errors.find((e) => e[0] === '3')![2]!.includes('carattere di controllo'));
    assert.ok(errors.find((e) => e[0] === '4' && e[1] === 'data_nascita')![2]!.startsWith('Data inesistente'));
    assert.equal(at('2').length, 0);
  });

  it('refuses a file without a required column (the whole file, reported at row 1)', async () => {
    const job = await runImport('clienti', 'senza-tipo.csv', Buffer.from('nome,cognome,codice_fiscale\nMario,Rossi,RSSMRA80A01H501U\n'));
    assert.equal(job.stato, 'fallito');
    assert.match(job.errore, /tipo_soggetto/);
    assert.deepEqual(await report(job.id), [['1', 'tipo_soggetto', 'Manca la colonna obbligatoria "tipo_soggetto"']]);
  });

  it('imports relationships by their external code and movements from XLSX, idempotent on re-run', async () => {
    const rap = await runImport('rapporti', 'rapporti.csv', sample('rapporti.csv'));
    assert.deepEqual([rap.stato, rap.righe_importate, rap.righe_errate], ['completato', 3, 0]);
    const again = await runImport('rapporti', 'rapporti.csv', sample('rapporti.csv'));
    assert.deepEqual([again.righe_importate, again.righe_gia_presenti], [0, 3]);
    const cc = await env.ownerDb('rapporti').where({ cod_azienda: tenant, codice_esterno: 'CC-1001' }).first();
    assert.equal(cc.cod_anagrafe, (await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_fiscale: 'RSSMRA80A01H501U' }).first()).cod_anagrafe);

    const mov = await runImport('movimenti', 'movimenti.csv', sample('movimenti.csv'));
    assert.deepEqual([mov.stato, mov.righe_importate, mov.righe_errate], ['completato', 3, 0]);
    const bytes = await xlsxOf([
      ['Chiave esterna', 'Rapporto', 'Data operazione', 'Importo', 'Segno', 'Contanti'],
      ['MOV-000001', 'CC-1001', new Date(Date.UTC(2026, 0, 2)), 1500, 'entrata', 'no'], // already imported from the CSV (row 2)
      ['X-1', cc.cod_rapporto, new Date(Date.UTC(2026, 1, 3)), 99.9, 'uscita', 'sì'], // new, by the relationship's own code (row 3)
      ['X-2', 'CC-9999', '2026-02-04', 10, 'uscita', 'no'], // unknown relationship (row 4)
      ['X-3', 'CC-1001', '2026-02-05', -5, 'boh', 'no'], // bad amount and sign (row 5)
    ]);
    const x = await runImport('movimenti', 'movimenti.xlsx', bytes, XLSX);
    assert.equal(x.stato, 'completato', x.errore);
    assert.deepEqual([x.righe_lette, x.righe_importate, x.righe_gia_presenti, x.righe_errate], [4, 1, 1, 2]);
    const errors = await report(x.id);
    assert.deepEqual(errors.filter((e) => e[0] === '4').map((e) => e[1]), ['rapporto']);
    assert.deepEqual(errors.filter((e) => e[0] === '5').map((e) => e[1]).sort(), ['importo', 'segno']);
    const moved = await env.ownerDb('movimenti').where({ cod_azienda: tenant, chiave_esterna: 'X-1' }).first();
    assert.equal(Number(moved.importo), 99.9);
    assert.equal(moved.contanti, true);
    assert.equal(moved.import_id, x.id);
    const rerun = await runImport('movimenti', 'movimenti.xlsx', bytes, XLSX);
    assert.deepEqual([rerun.righe_importate, rerun.righe_gia_presenti, rerun.righe_errate], [0, 2, 2]);
    assert.equal(Number((await env.ownerDb('movimenti').where({ cod_azienda: tenant }).count({ n: '*' }))[0]!.n), 4);
  });

  it('reads a file of several batches (5,000 rows each) with the errors at their rows, and counts exactly', async () => {
    const cc = await env.ownerDb('rapporti').where({ cod_azienda: tenant, codice_esterno: 'CC-1002' }).first();
    const lines = ['chiave_esterna,rapporto,data_operazione,importo,segno'];
    for (let i = 1; i <= 11_000; i++) {
      const bad = i === 1 || i === 5_000 || i === 11_000; // rows 2, 5001 and 11001 of the file
      lines.push(`BIG-${i},${cc.cod_rapporto},2026-03-${String(1 + (i % 28)).padStart(2, '0')},${bad ? 'zero' : `${i}.50`},uscita`);
    }
    const job = await runImport('movimenti', 'grande.csv', Buffer.from(lines.join('\n')));
    assert.equal(job.stato, 'completato', job.errore);
    assert.deepEqual([job.righe_lette, job.righe_valide, job.righe_importate, job.righe_errate], [11_000, 10_997, 10_997, 3]);
    assert.deepEqual((await report(job.id)).map((e) => [e[0], e[1]]), [['2', 'importo'], ['5001', 'importo'], ['11001', 'importo']]);
    assert.equal(Number((await env.ownerDb('movimenti').where({ cod_azienda: tenant, import_id: job.id }).count({ n: '*' }))[0]!.n), 10_997);
  });

  it('refuses a file too large (413), of another type (415), an unknown kind (422), a reader\'s upload (403); another tenant\'s job is a 404', async () => {
    const max = env.deps.config.importMaxBytes;
    env.deps.config.importMaxBytes = 1024;
    try {
      const big = await upload(analyst, 'clienti', 'grande.csv', Buffer.alloc(2048, 'a'));
      assert.equal(big.status, 413);
      assert.equal(big.body.errors[0].path, 'file');
    } finally {
      env.deps.config.importMaxBytes = max;
    }
    const pdf = await upload(analyst, 'clienti', 'clienti.csv', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'));
    assert.equal(pdf.status, 415);
    const binary = await upload(analyst, 'clienti', 'clienti.csv', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x41]));
    assert.equal(binary.status, 415);
    const kind = await upload(analyst, 'fatture', 'f.csv', Buffer.from('a,b\n1,2\n'));
    assert.equal(kind.status, 422);
    assert.equal(kind.body.errors[0].path, 'tipo');
    assert.equal((await upload(viewer, 'clienti', 'c.csv', sample('clienti.csv'))).status, 403);
    const mine = (await env.ownerDb('import_jobs').where({ cod_azienda: tenant }).first()).id;
    assert.equal((await outsider.get(`/api/import/${mine}`)).status, 404);
    assert.equal((await outsider.get(`/api/import/${mine}/errori.csv`)).status, 404);
    assert.equal((await analyst.get('/api/import/non-un-id')).status, 404);
  });

  it('shows the imports on /anagrafe/importa and one import\'s progress on /anagrafe/importa/:id; the form uploads', async () => {
    const list = await analyst.get('/anagrafe/importa', { accept: 'text/html' });
    assert.equal(list.status, 200);
    assert.match(list.text, /Importazioni/);
    assert.match(list.text, /clienti\.csv/);
    const job = await env.ownerDb('import_jobs').where({ cod_azienda: tenant, nome_file: 'errori.csv' }).first();
    const detail = await analyst.get(`/anagrafe/importa/${job.id}`, { accept: 'text/html' });
    assert.equal(detail.status, 200);
    assert.match(detail.text, /data-count="errate">3</);
    assert.match(detail.text, new RegExp(`/api/import/${job.id}/errori\\.csv`));
    const token = await analyst.csrfToken('/anagrafe/importa');
    const fd = new FormData();
    fd.append('tipo', 'clienti');
    fd.append('file', new Blob([sample('clienti.csv')], { type: CSV }), 'dal-modulo.csv');
    const posted = await analyst.request('POST', `/anagrafe/importa?_csrf=${encodeURIComponent(token)}`, { body: fd, headers: { accept: 'text/html' } });
    assert.equal(posted.status, 302);
    assert.match(posted.headers.get('location')!, /^\/anagrafe\/importa\/[0-9a-f-]{36}$/);
    const noKind = new FormData();
    noKind.append('file', new Blob([sample('clienti.csv')], { type: CSV }), 'x.csv');
    const refused = await analyst.request('POST', `/anagrafe/importa?_csrf=${encodeURIComponent(token)}`, { body: noKind, headers: { accept: 'text/html' } });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /Scegli cosa importare/);
  });
});
