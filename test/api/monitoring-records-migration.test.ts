import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../../src/config';
import { ensureLoginRole, migrationsDir } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import { ensureTenantGuard } from '../../src/db/tenant-guard';
import { startScratchDatabase, type ScratchDatabase } from '../../src/infra/scratch-database';

const ANAGRAFE = '20261207000100_add_anagrafe_declared_profile.ts';
const MOVIMENTI = '20261207000200_add_movimenti_time_executor.ts';

/**
 * The two migrations of what monitoring reads (docs/monitoring.md, part 0) on a database of their
 * own, migrated up to just before them with rows written the old way: customers onboarded through
 * the wizard take their case's onboarding date, occupation and declared profile as a new version;
 * the new columns' constraints hold; the movements' executor is a key into the registry with its
 * index on every partition; both go down and up again.
 */
describe('migrations: the records monitoring reads (anagrafe declared profile, movements\' time and executor)', function () {
  this.timeout(180_000);
  let scratch: ScratchDatabase;
  let db: Knex;
  const tenant = 'MIGR2';
  const caseId = randomUUID();
  const opts = (name: string) => ({ directory: migrationsDir, loadExtensions: ['.ts'], name });

  before(async () => {
    scratch = await startScratchDatabase({ name: `cp_monmig_${randomBytes(4).toString('hex')}`, durable: false });
    db = createKnex(scratch.ownerUrl, { max: 2 });
    const setup = databaseSetup(loadConfig({ ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false' }));
    await ensureLoginRole(db, setup.roles.app, setup.passwords.app);
    await ensureLoginRole(db, setup.roles.platform, setup.passwords.platform);
    await ensureTenantGuard(db, setup.roles, setup.tenantContextKey);
    const earlier = readdirSync(migrationsDir).filter((f) => f.endsWith('.ts') && f < ANAGRAFE).sort();
    for (const name of earlier) await db.migrate.up(opts(name));
    await db('aziende').insert({ cod_azienda: tenant, ragione_sociale: 'Migrazione Due S.r.l.' });
  });
  after(async () => {
    await db?.destroy();
    await scratch?.stop();
  });

  it('adds the customer fields and fills them for customers onboarded through the wizard, each as a new version', async () => {
    await db('onboarding_cases').insert({
      id: caseId, cod_azienda: tenant, stato: 'approved', tipo_soggetto: 'persona_fisica', email: 'mario@example.test',
      cdd_answers: JSON.stringify({ volume_annuo: '10k_50k', contanti: true }), cdd_schema_version: 'cdd-2026-1',
      approved_at: '2025-03-04T23:30:00Z', workflow_id: `onboarding:${tenant}:${caseId}`,
    });
    const row = (cod: string, over: Record<string, unknown> = {}) => ({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Persona ${cod}`, created_by: 'legacy', ...over,
    });
    await db('anagrafe').insert([
      row('ANA-000001', { onboarding_case_id: caseId, dati: JSON.stringify({ professione: 'Medico' }) }),
      // The legal representative made by the same case: an occupation, no onboarding date nor declared profile.
      row('ANA-000002', { onboarding_case_id: caseId, ruolo: 'legale_rappresentante', dati: JSON.stringify({ professione: 'Avvocato' }) }),
      // Recorded by hand: nothing to fill.
      row('ANA-000003'),
    ]);
    await db('anagrafe_versioni').insert(['ANA-000001', 'ANA-000002', 'ANA-000003'].map((cod) => ({
      cod_azienda: tenant, cod_anagrafe: cod, versione: 1, operazione: 'create', changed_by: 'legacy', campi: '{}',
      snapshot: JSON.stringify({ cod_anagrafe: cod, denominazione: `Persona ${cod}`, versione: 1 }),
    })));
    await db.migrate.up(opts(ANAGRAFE));

    const rows = await db('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    const pick = (r: Record<string, unknown>) => [r.cod_anagrafe, r.data_onboarding ? (r.data_onboarding as Date).toLocaleDateString('sv-SE') : null,
      r.professione, r.volume_mensile_atteso_eur === null ? null : Number(r.volume_mensile_atteso_eur), r.uso_contanti_atteso, r.versione];
    assert.deepEqual(rows.map(pick), [
      // Approved at 00:30 in Rome on 5 March; the band 10k-50k as its ceiling / 12; relevant cash as 'alto'.
      ['ANA-000001', '2025-03-05', 'Medico', 4166.67, 'alto', 2],
      ['ANA-000002', null, 'Avvocato', null, null, 2],
      ['ANA-000003', null, null, null, null, 1],
    ]);
    const v2 = await db('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', versione: 2 }).first();
    assert.equal(v2.changed_by, 'sistema');
    assert.deepEqual(v2.campi, {
      data_onboarding: { old: null, new: '2025-03-05' }, professione: { old: null, new: 'Medico' },
      volume_mensile_atteso_eur: { old: null, new: 4166.67 }, uso_contanti_atteso: { old: null, new: 'alto' },
    });
    assert.deepEqual([v2.snapshot.denominazione, v2.snapshot.versione, v2.snapshot.uso_contanti_atteso], ['Persona ANA-000001', 2, 'alto']);

    const refused = (over: Record<string, unknown>, constraint: RegExp) =>
      assert.rejects(db('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000003' }).update(over), constraint, JSON.stringify(over));
    await refused({ ateco: '4711' }, /anagrafe_ateco/);
    await refused({ ateco: '47.1.1' }, /anagrafe_ateco/);
    await refused({ uso_contanti_atteso: 'molto' }, /anagrafe_uso_contanti/);
    await refused({ volume_mensile_atteso_eur: -1 }, /anagrafe_volume_mensile/);
    await refused({ codice_esterno: 'CLI 1' }, /anagrafe_codice_esterno/);
    await db('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000003' }).update({ codice_esterno: 'CLI-1', ateco: '47.11.10' });
    await assert.rejects(db('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000002' }).update({ codice_esterno: 'CLI-1' }), /anagrafe_codice_esterno/,
      'one holder of a code per tenant');
  });

  it('adds the movements\' time and executor: a key into the registry, indexed on every partition', async () => {
    await db.migrate.up(opts(MOVIMENTI));
    await db('rapporti').insert({ cod_azienda: tenant, cod_rapporto: 'RAP-000001', cod_anagrafe: 'ANA-000001', tipo: 'conto_corrente', data_apertura: '2025-01-01', created_by: 'legacy' });
    await db.raw("select movimenti_ensure_partitions(array[date '2025-06-01', date '2031-01-01'])");
    const movement = (key: string, day: string, over: Record<string, unknown> = {}) => ({
      id: randomUUID(), cod_azienda: tenant, cod_rapporto: 'RAP-000001', cod_anagrafe: 'ANA-000001', data_operazione: day, importo: 10, importo_eur: 10,
      segno: 'entrata', chiave_esterna: key, created_by: 'test', ...over,
    });
    // A month made after the migration (2031) takes the column, the key and the index like the others.
    await db('movimenti').insert([
      movement('K1', '2025-06-10', { ora_operazione: '14:05', cod_anagrafe_esecutore: 'ANA-000003' }),
      movement('K2', '2031-01-10', { cod_anagrafe_esecutore: 'ANA-000002' }),
    ]);
    const read = await db('movimenti').where({ cod_azienda: tenant }).orderBy('chiave_esterna').select('chiave_esterna', db.raw('ora_operazione::text as ora'), 'cod_anagrafe_esecutore');
    assert.deepEqual(read.map((r) => [r.chiave_esterna, r.ora, r.cod_anagrafe_esecutore]), [['K1', '14:05:00', 'ANA-000003'], ['K2', null, 'ANA-000002']]);
    await assert.rejects(db('movimenti').insert(movement('K3', '2031-01-11', { cod_anagrafe_esecutore: 'ANA-404' })), /movimenti_esecutore_fk/);
    const indexed = await db.raw<{ rows: { relname: string }[] }>(`
      select c.relname from pg_index i join pg_class x on x.oid = i.indexrelid join pg_class c on c.oid = i.indrelid
       where x.relname like 'movimenti_%esecutore%' and c.relname in ('movimenti_2025_06', 'movimenti_2031_01') order by 1`);
    assert.deepEqual(indexed.rows.map((r) => r.relname), ['movimenti_2025_06', 'movimenti_2031_01']);
  });

  it('goes down (the backfilled versions removed, the fields gone) and up again', async () => {
    await db.migrate.down(opts(MOVIMENTI));
    const movCols = await db.raw("select column_name from information_schema.columns where table_name = 'movimenti' and column_name in ('ora_operazione', 'cod_anagrafe_esecutore')");
    assert.equal(movCols.rows.length, 0);
    await db.migrate.down(opts(ANAGRAFE));
    const cols = await db.raw("select column_name from information_schema.columns where table_name = 'anagrafe' and column_name in ('codice_esterno', 'ateco', 'volume_mensile_atteso_eur')");
    assert.equal(cols.rows.length, 0);
    const versions = await db('anagrafe_versioni').where({ cod_azienda: tenant }).orderBy(['cod_anagrafe', 'versione']);
    assert.deepEqual(versions.map((v) => [v.cod_anagrafe, v.versione]), [['ANA-000001', 1], ['ANA-000002', 1], ['ANA-000003', 1]]);
    assert.deepEqual((await db('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe')).map((r) => r.versione), [1, 1, 1]);

    await db.migrate.up(opts(ANAGRAFE));
    await db.migrate.up(opts(MOVIMENTI));
    const again = await db('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001' }).first();
    assert.deepEqual([again.uso_contanti_atteso, again.versione], ['alto', 2], 'the backfill runs again');
    assert.equal(Number((await db('movimenti').where({ cod_azienda: tenant }).count({ n: '*' }))[0]!.n), 2, 'the movements are kept');
  });
});
