import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { Knex } from 'knex';
import { databaseSetup, loadConfig } from '../../src/config';
import { ensureLoginRole, migrationsDir } from '../../src/db/bootstrap';
import { createKnex } from '../../src/db/knex';
import { ensureTenantGuard } from '../../src/db/tenant-guard';
import { startScratchDatabase, type ScratchDatabase } from '../../src/infra/scratch-database';

const MIGRATION = '20261204000100_records_customer_model.ts';

/**
 * The records migration keeps the rows it finds. A database of its own is migrated up to the
 * onboarding-era tables, takes rows written the old way (duplicates, an invalid code, owners in
 * titolari_effettivi), and then runs the records migration (the shared stack's database is left alone).
 */
describe('records migration: existing customers, relationships and owners are kept', function () {
  this.timeout(180_000);
  let scratch: ScratchDatabase;
  let db: Knex;
  const tenant = 'MIGR1';

  before(async () => {
    scratch = await startScratchDatabase({ name: `cp_recmig_${randomBytes(4).toString('hex')}`, durable: false });
    db = createKnex(scratch.ownerUrl, { max: 2 });
    const setup = databaseSetup(loadConfig({ ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false' }));
    await ensureLoginRole(db, setup.roles.app, setup.passwords.app);
    await ensureLoginRole(db, setup.roles.platform, setup.passwords.platform);
    await ensureTenantGuard(db, setup.roles, setup.tenantContextKey);
    const earlier = readdirSync(migrationsDir).filter((f) => f.endsWith('.ts') && f < MIGRATION).sort();
    for (const name of earlier) await db.migrate.up({ directory: migrationsDir, loadExtensions: ['.ts'], name });
    await db('aziende').insert({ cod_azienda: tenant, ragione_sociale: 'Migrazione S.r.l.' });
  });
  after(async () => {
    await db?.destroy();
    await scratch?.stop();
  });

  it('backfills keys, first versions, holder roles and merges the owners into legami', async () => {
    const link = randomUUID();
    const ownerOnly = randomUUID();
    const person = (cod: string, cf: string | null, created: string, pep = false) => ({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Persona ${cod}`, codice_fiscale: cf, pep,
      created_by: 'legacy', created_at: created, updated_at: created,
    });
    await db('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'societa', denominazione: 'Alfa S.r.l.', codice_fiscale: '06363391001', partita_iva: '06363391001', created_by: 'legacy', created_at: '2025-01-01T10:00:00Z', updated_at: '2025-01-01T10:00:00Z' },
      person('ANA-000002', 'RSSMRA85T10A562S', '2025-01-02T10:00:00Z'),
      // The same person recorded again by a later onboarding: the older record keeps the key.
      person('ANA-000003', 'rssmra85t10a562s', '2025-02-01T10:00:00Z'),
      // A code that fails its check letter makes no key.
      person('ANA-000004', 'BNCMRC70A01F205Z', '2025-02-02T10:00:00Z'),
    ]);
    await db('rapporti').insert({ cod_azienda: tenant, cod_rapporto: 'RAP-000001', cod_anagrafe: 'ANA-000001', tipo: 'rapporto_continuativo', data_apertura: '2025-01-01', created_by: 'legacy' });
    await db('legami').insert({ id: link, cod_azienda: tenant, cod_anagrafe_da: 'ANA-000001', cod_anagrafe_a: 'ANA-000002', tipo: 'titolare_effettivo', percentuale: 60, created_by: 'legacy' });
    await db('titolari_effettivi').insert([
      { id: randomUUID(), cod_azienda: tenant, cod_anagrafe: 'ANA-000001', cod_anagrafe_titolare: 'ANA-000002', percentuale: 60, tipo_controllo: 'proprieta_diretta', pep: false, dal: '2025-01-01T10:00:00Z', created_by: 'legacy' },
      // An owner recorded only in the old table, a PEP there.
      { id: ownerOnly, cod_azienda: tenant, cod_anagrafe: 'ANA-000001', cod_anagrafe_titolare: 'ANA-000004', percentuale: 40, tipo_controllo: 'controllo', pep: true, dal: '2025-01-01T10:00:00Z', created_by: 'legacy' },
    ]);
    await db.migrate.up({ directory: migrationsDir, loadExtensions: ['.ts'], name: MIGRATION });

    const anagrafe = await db('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(anagrafe.map((a) => [a.cod_anagrafe, a.chiave_fiscale, a.versione, a.stato]), [
      ['ANA-000001', 'PIVA:06363391001', 1, 'attivo'], ['ANA-000002', 'CF:RSSMRA85T10A562S', 1, 'attivo'],
      ['ANA-000003', null, 1, 'attivo'], ['ANA-000004', null, 1, 'attivo'],
    ]);
    assert.equal(anagrafe[3].pep, true, 'the owner row\'s PEP flag moved to the person');

    const versions = await db('anagrafe_versioni').where({ cod_azienda: tenant }).orderBy('cod_anagrafe');
    assert.deepEqual(versions.map((v) => [v.cod_anagrafe, v.versione, v.operazione, v.changed_by]), anagrafe.map((a) => [a.cod_anagrafe, 1, 'create', 'legacy']));
    assert.equal(new Date(versions[0].changed_at).toISOString(), '2025-01-01T10:00:00.000Z');
    assert.equal(versions[0].snapshot.denominazione, 'Alfa S.r.l.');
    assert.equal(versions[3].snapshot.pep, true);

    const roles = await db('rapporti_soggetti').where({ cod_azienda: tenant });
    assert.deepEqual(roles.map((r) => [r.cod_rapporto, r.cod_anagrafe, r.ruolo, r.fonte]), [['RAP-000001', 'ANA-000001', 'intestatario', 'manuale']]);

    const legami = await db('legami').where({ cod_azienda: tenant }).orderBy('cod_anagrafe_a');
    assert.deepEqual(legami.map((l) => [l.id, l.cod_anagrafe_a, l.tipo, Number(l.percentuale), l.tipo_controllo]), [
      [link, 'ANA-000002', 'titolare_effettivo', 60, 'proprieta_diretta'], [ownerOnly, 'ANA-000004', 'titolare_effettivo', 40, 'controllo'],
    ]);
    assert.equal((await db.raw("select to_regclass('titolari_effettivi') as t")).rows[0].t, null, 'the second owners table is gone');

    // The constraints hold from now on.
    await assert.rejects(db('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000003' }).update({ chiave_fiscale: 'CF:RSSMRA85T10A562S' }), /anagrafe_chiave_fiscale/);
    await assert.rejects(db('legami').insert({ id: randomUUID(), cod_azienda: tenant, cod_anagrafe_da: 'ANA-000002', cod_anagrafe_a: 'ANA-000002', tipo: 'altro', created_by: 't' }), /legami_non_riflessivo/);
    await assert.rejects(db('legami').insert({ id: randomUUID(), cod_azienda: tenant, cod_anagrafe_da: 'ANA-000001', cod_anagrafe_a: 'ANA-000003', tipo: 'socio', percentuale: 120, created_by: 't' }), /legami_percentuale/);
    await assert.rejects(db('rapporti').where({ cod_azienda: tenant }).update({ stato: 'estinto' }), /rapporti_stato/);
    await assert.rejects(db('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'ANA-000003' }).update({ stato: 'eliminato' }), /anagrafe_eliminato/);
  });

  it('goes down to the two owner tables and up again', async () => {
    const opts = { directory: migrationsDir, loadExtensions: ['.ts'], name: MIGRATION };
    await db.migrate.down(opts);
    const owners = await db('titolari_effettivi').where({ cod_azienda: tenant }).orderBy('cod_anagrafe_titolare');
    assert.deepEqual(owners.map((o) => [o.cod_anagrafe_titolare, Number(o.percentuale), o.tipo_controllo, o.pep]), [
      ['ANA-000002', 60, 'proprieta_diretta', false], ['ANA-000004', 40, 'controllo', true],
    ]);
    assert.equal((await db.raw("select to_regclass('documenti') as t")).rows[0].t, null);
    await db.migrate.up(opts);
    assert.equal((await db('legami').where({ cod_azienda: tenant, tipo: 'titolare_effettivo' })).length, 2);
    assert.equal((await db('anagrafe_versioni').where({ cod_azienda: tenant })).length, 4);
  });
});
