import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { migrationsDir } from '../../src/db/bootstrap';
import { getTestEnv, type TestEnv } from '../helpers/env';

/**
 * The records migration keeps the rows it finds: it goes down to the onboarding-era tables, takes
 * rows written the old way (duplicates, an invalid code, owners in titolari_effettivi) and comes up.
 */
describe('records migration: existing customers, relationships and owners are kept', function () {
  this.timeout(120_000);
  let env: TestEnv;
  const opts = { directory: migrationsDir, loadExtensions: ['.ts'], name: '20261204000100_records_customer_model.ts' };

  before(async () => { env = await getTestEnv(); });

  it('backfills keys, first versions, holder roles and merges the owners into legami', async () => {
    const tenant = await env.createTenant();
    const db = env.ownerDb;
    const link = randomUUID();
    const ownerOnly = randomUUID();
    await db.migrate.down(opts);
    try {
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
    } finally {
      await db.migrate.up(opts);
    }

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
});
