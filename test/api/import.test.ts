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
    // What monitoring reads: the source system's code, sector, occupation, onboarding date and declared profile.
    assert.deepEqual(
      [rossi.codice_esterno, rossi.professione, rossi.data_onboarding, Number(rossi.volume_mensile_atteso_eur), rossi.uso_contanti_atteso],
      ['CLI-0001', 'Impiegato amministrativo', new Date(2015, 2, 15), 2500, 'basso'],
    );
    const alfa = rows.find((r) => r.partita_iva === '01234567897');
    assert.deepEqual([alfa.codice_esterno, alfa.ateco, Number(alfa.volume_mensile_atteso_eur), alfa.uso_contanti_atteso], ['CLI-0003', '62.02.00', 45000, 'nessuno']);
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

    // CC-1002 names its holder by the customer's external code (CLI-0002).
    const luigia = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_esterno: 'CLI-0002' }).first();
    assert.equal((await env.ownerDb('rapporti').where({ cod_azienda: tenant, codice_esterno: 'CC-1002' }).first()).cod_anagrafe, luigia.cod_anagrafe);

    const mov = await runImport('movimenti', 'movimenti.csv', sample('movimenti.csv'));
    assert.deepEqual([mov.stato, mov.righe_importate, mov.righe_errate], ['completato', 4, 0]);
    // MOV-000004: cash paid in at the counter by a third party (Jean Dupont, named by his external code), at 11:30.
    const dupont = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_esterno: 'CLI-0004' }).first();
    const counter = await env.ownerDb('movimenti').where({ cod_azienda: tenant, chiave_esterna: 'MOV-000004' }).first();
    assert.deepEqual([counter.cod_anagrafe, counter.cod_anagrafe_esecutore, counter.ora_operazione], [cc.cod_anagrafe, dupont.cod_anagrafe, '11:30:00']);
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
    assert.equal(Number((await env.ownerDb('movimenti').where({ cod_azienda: tenant }).count({ n: '*' }))[0]!.n), 5);
  });

  it('customers: an external code another subject holds, or a second code for a known customer, and bad values are the rows\' errors', async () => {
    const csv = [
      'tipo_soggetto;nome;cognome;codice_fiscale;codice_esterno;ateco;volume_mensile_atteso_eur;uso_contanti_atteso;data_onboarding;professione',
      'persona_fisica;Giuseppe;Verdi;VRDGPP62E15L219G;CLI-0001;;;;;', // a known person, Mario Rossi's code (row 2)
      'persona_fisica;Mario;Rossi;RSSMRA80A01H501U;CLI-9999;;;;;', // known with CLI-0001 (row 3)
      'persona_fisica;Marco;Russo;RSSMRA85T10A562S;CLI 0005;04.11;-3;molto;2999-01-01;', // every new value wrong (row 4)
      'persona_fisica;Anna;Gialli;GLLFNC85M52A662F;;;2.000.000.000.000;;;', // a volume beyond what is taken (row 5)
      'persona_fisica;Giulia;Verdi;VRDGLI80A41H501S;CLI-0006;47.11.10;1.200,00;Medio;01/02/2023;Negoziante', // good (row 6)
      'persona_fisica;Francesca;Galli;GLLFNC85M52A662F;CLI-0006;;;;;', // the code row 6 just took (row 7)
    ].join('\n');
    const job = await runImport('clienti', 'codici.csv', Buffer.from(csv));
    assert.equal(job.stato, 'completato', job.errore);
    assert.deepEqual([job.righe_lette, job.righe_importate, job.righe_errate], [6, 1, 5]);
    const errors = await report(job.id);
    const at = (riga: string) => errors.filter((e) => e[0] === riga).map((e) => e[1]).sort();
    assert.deepEqual([at('2'), at('3'), at('5'), at('7')], [['codice_esterno'], ['codice_esterno'], ['volume_mensile_atteso_eur'], ['codice_esterno']]);
    assert.deepEqual(at('4'), ['ateco', 'codice_esterno', 'data_onboarding', 'uso_contanti_atteso', 'volume_mensile_atteso_eur']);
    assert.match(errors.find((e) => e[0] === '2')![2]!, /già del soggetto ANA-\d+/);
    assert.match(errors.find((e) => e[0] === '3')![2]!, /ha già il codice esterno CLI-0001/);
    const giulia = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_esterno: 'CLI-0006' }).first();
    assert.deepEqual([giulia.codice_fiscale, giulia.ateco, Number(giulia.volume_mensile_atteso_eur), giulia.uso_contanti_atteso, giulia.professione],
      ['VRDGLI80A41H501S', '47.11.10', 1200, 'medio', 'Negoziante']);
    const verdi = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_fiscale: 'VRDGPP62E15L219G' }).first();
    assert.equal(verdi.codice_esterno, null, 'a refused row changes nothing');
  });

  it('relationships and movements name the customer by its external code; the executor by code or external code; the time of day', async () => {
    const rap = await runImport('rapporti', 'rapporti-codici.csv', Buffer.from([
      'codice_esterno;cliente;codice_esterno_cliente;tipo;data_apertura',
      'CC-3001;;CLI-0004;conto corrente;2021-01-01', // by the external code alone (row 2)
      'CC-3002;;CLI-NOPE;conto corrente;2021-01-01', // no such customer (row 3)
      'CC-3003;RSSMRA80A01H501U;CLI-0002;conto corrente;2021-01-01', // two different customers (row 4)
      'CC-3004;;;conto corrente;2021-01-01', // no holder at all (row 5)
      'CC-3005;;CLI 0004;conto corrente;2021-01-01', // not a code (row 6)
    ].join('\n')));
    assert.deepEqual([rap.stato, rap.righe_importate, rap.righe_errate], ['completato', 1, 4]);
    const rapErrors = (await report(rap.id)).map((e) => [e[0], e[1]]);
    assert.deepEqual(rapErrors, [['3', 'codice_esterno_cliente'], ['4', 'codice_esterno_cliente'], ['5', 'cliente'], ['6', 'codice_esterno_cliente']]);
    const dupont = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_esterno: 'CLI-0004' }).first();
    const rossi = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_esterno: 'CLI-0001' }).first();
    const luigia = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, codice_esterno: 'CLI-0002' }).first();
    assert.equal((await env.ownerDb('rapporti').where({ cod_azienda: tenant, codice_esterno: 'CC-3001' }).first()).cod_anagrafe, dupont.cod_anagrafe);

    const time = (h: number, m: number) => new Date(Date.UTC(1899, 11, 30, h, m, 0)); // an XLSX time-of-day cell
    const bytes = await xlsxOf([
      ['Chiave esterna', 'Rapporto', 'Codice esterno cliente', 'Cod anagrafe', 'Cod anagrafe esecutore', 'Codice esterno esecutore', 'Data operazione', 'Ora operazione', 'Importo', 'Segno', 'Contanti'],
      ['T-1', 'CC-3001', 'CLI-0004', null, null, 'CLI-0001', '2026-02-01', '9:05', 9000, 'entrata', 'sì'], // a third party's cash, by external codes (row 2)
      ['T-2', 'CC-3001', null, null, luigia.cod_anagrafe, null, '2026-02-02', time(14, 5), 100, 'uscita', 'no'], // executor by code, time cell (row 3)
      ['T-3', 'CC-3001', 'CLI-0001', null, null, null, '2026-02-03', null, 100, 'uscita', 'no'], // Rossi holds no role on CC-3001 (row 4)
      ['T-4', 'CC-3001', null, null, null, 'CLI-NOPE', '2026-02-04', null, 100, 'uscita', 'no'], // unknown executor (row 5)
      ['T-5', 'CC-3001', null, null, null, null, '2026-02-05', '25:00', 100, 'uscita', 'no'], // not a time (row 6)
      ['T-6', 'CC-3001', null, null, 'ANA-999999', null, '2026-02-06', null, 100, 'uscita', 'no'], // no such subject (row 7)
      ['T-7', 'CC-3001', 'CLI-0004', rossi.cod_anagrafe, null, null, '2026-02-07', null, 100, 'uscita', 'no'], // two different customers (row 8)
    ]);
    const x = await runImport('movimenti', 'movimenti-codici.xlsx', bytes, XLSX);
    assert.equal(x.stato, 'completato', x.errore);
    assert.deepEqual([x.righe_lette, x.righe_importate, x.righe_errate], [7, 2, 5]);
    assert.deepEqual((await report(x.id)).map((e) => [e[0], e[1]]), [
      ['4', 'codice_esterno_cliente'], ['5', 'codice_esterno_esecutore'], ['6', 'ora_operazione'], ['7', 'cod_anagrafe_esecutore'], ['8', 'codice_esterno_cliente'],
    ]);
    const rows = await env.ownerDb('movimenti').where({ cod_azienda: tenant }).whereIn('chiave_esterna', ['T-1', 'T-2']).orderBy('chiave_esterna');
    assert.deepEqual(rows.map((r) => [r.chiave_esterna, r.cod_anagrafe, r.cod_anagrafe_esecutore, r.ora_operazione]), [
      ['T-1', dupont.cod_anagrafe, rossi.cod_anagrafe, '09:05:00'], ['T-2', dupont.cod_anagrafe, luigia.cod_anagrafe, '14:05:00'],
    ]);
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
