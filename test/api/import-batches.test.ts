import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { projectRoot } from '../../src/config';
import { importChunk } from '../../src/domains/imports/import-run';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/**
 * Movement batches written at once (IMPORT_MOVEMENT_WRITERS) and the batch ledger
 * (import_jobs.lotti_scritti): keys repeated across batches in flight together, bad rows in a
 * batch reported one by one, and a run resumed after some later batch committed before an earlier one.
 */
describe('import: concurrent movement batches and their ledger', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: TestClient;
  let rapporto: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    analyst = await env.login(await env.createUser({ tenant, roles: ['analyst'] }));
    const rap = await runImport('rapporti', Buffer.from(readFileSync(join(projectRoot, 'data', 'samples', 'import', 'rapporti.csv'))), true);
    assert.equal(rap.stato, 'completato', rap.errore);
    // The relationships' holders come from the customers file: imported first by runImport above.
    rapporto = (await env.ownerDb('rapporti').where({ cod_azienda: tenant, codice_esterno: 'CC-1001' }).first()).cod_rapporto;
  });

  async function runImport(tipo: string, bytes: Buffer, withCustomers = false): Promise<Record<string, any>> {
    if (withCustomers) await runImport('clienti', Buffer.from(readFileSync(join(projectRoot, 'data', 'samples', 'import', 'clienti.csv'))));
    const fd = new FormData();
    fd.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/csv' }), `${tipo}.csv`);
    const r = await analyst.request('POST', `/api/import/${tipo}`, { body: fd, headers: { 'x-csrf-token': await analyst.csrfToken('/anagrafe/importa') } });
    assert.equal(r.status, 202, r.text);
    for (let i = 0; i < 600; i++) {
      const job = await analyst.get(`/api/import/${r.body.id}`);
      if (job.body.stato === 'completato' || job.body.stato === 'fallito') return job.body;
      await new Promise((res) => setTimeout(res, 200));
    }
    throw new Error('the import did not finish');
  }

  const report = async (id: string) => (parse((await analyst.get(`/api/import/${id}/errori.csv`)).text, { bom: true }) as string[][]).slice(1);
  const movements = async (where: Record<string, unknown>) => Number((await env.ownerDb('movimenti').where({ cod_azienda: tenant, ...where }).count({ n: '*' }))[0]!.n);
  const csv = (keys: string[], bad: Map<number, string> = new Map()) => Buffer.from(['chiave_esterna,rapporto,data_operazione,importo,segno',
    ...keys.map((k, i) => `${k},${bad.get(i) ?? rapporto},2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')},${i + 1}.25,entrata`)].join('\n'));

  it('writes each key once when batches in flight together hold the same keys, and reports bad rows at their rows', async () => {
    // 12,000 rows, three batches: keys 1-6000 then 1-6000 again, so the second and third batches
    // claim keys the first (still writing) claims too. Row 4002 names an unknown relationship
    // (checked in the database, in the batch's transaction), row 9003 one too.
    const keys = [...Array.from({ length: 6_000 }, (_, i) => `DUP-${i + 1}`), ...Array.from({ length: 6_000 }, (_, i) => `DUP-${i + 1}`)];
    const job = await runImport('movimenti', csv(keys, new Map([[4_000, 'RAP-999999'], [9_001, 'CC-9999']])));
    assert.equal(job.stato, 'completato', job.errore);
    // Row 4002's key (DUP-4001) is written by its second occurrence (row 10002): new there, not present.
    assert.deepEqual([job.righe_lette, job.righe_importate, job.righe_gia_presenti, job.righe_errate], [12_000, 6_000, 5_998, 2]);
    assert.deepEqual((await report(job.id)).map((e) => [e[0], e[1]]), [['4002', 'rapporto'], ['9003', 'rapporto']]);
    assert.equal(await movements({ import_id: job.id }), 6_000);
    const done = await env.ownerDb('import_jobs').where({ id: job.id }).first();
    assert.deepEqual([done.prossima_riga, done.lotti_scritti], [12_002, {}]);
    assert.equal(job.lotti_scritti, undefined, 'the ledger is not part of the API answer');

    const again = await runImport('movimenti', csv(keys));
    assert.deepEqual([again.righe_importate, again.righe_gia_presenti, again.righe_errate], [0, 12_000, 0]);
    assert.equal(await movements({}), 6_000);
  });

  it('resumes after a later batch committed before an earlier one: skips it, writes the others, counts each row once', async () => {
    const keys = Array.from({ length: 15_000 }, (_, i) => `RES-${i + 1}`);
    const job = await runImport('movimenti', csv(keys));
    assert.deepEqual([job.stato, job.righe_importate], ['completato', 15_000]);
    // The state a crash can leave: only the second batch (rows 5002-10001) committed.
    const lost = [...keys.slice(0, 5_000), ...keys.slice(10_000)];
    await env.ownerDb.transaction(async (trx) => {
      await trx('movimenti').where({ cod_azienda: tenant }).whereIn('chiave_esterna', lost).delete();
      await trx('movimenti_chiavi').where({ cod_azienda: tenant }).whereIn('chiave_esterna', lost).delete();
      await trx('import_jobs').where({ id: job.id }).update({
        stato: 'in_corso', finished_at: null, righe_lette: 5_000, righe_valide: 5_000, righe_importate: 5_000, righe_gia_presenti: 0, righe_errate: 0,
        prossima_riga: 1, lotti_scritti: JSON.stringify({ 5002: 10_002 }),
      });
    });
    const beats: unknown[] = [];
    const r = await importChunk({ db: env.deps.db, documentDir: env.deps.config.documentDir, heartbeat: (d) => beats.push(d) }, { importId: job.id, codAzienda: tenant });
    assert.deepEqual(r, { done: true });
    const after = await env.ownerDb('import_jobs').where({ id: job.id }).first();
    assert.deepEqual([after.righe_lette, after.righe_importate, after.righe_gia_presenti, after.prossima_riga, after.lotti_scritti], [15_000, 15_000, 0, 15_002, {}]);
    assert.equal(beats.length, 2, 'two batches written, the committed one skipped');
    assert.equal(await movements({ import_id: job.id }), 15_000);
  });
});
