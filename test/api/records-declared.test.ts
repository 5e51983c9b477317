import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { createOrMatchCustomer } from '../../src/domains/records';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

// Real-shaped identifiers: check characters computed by the rule (test/unit/records-tax-id.test.ts).
const CF_MARIO = 'RSSMRA85T10A562S';
const CF_GIULIA = 'VRDGLI80A41H501S';
const PIVA_ALFA = '06363391001';
const PIVA_BETA = '00743110157';

/**
 * What monitoring reads of a customer (docs/monitoring.md, part 0): the external code, the ATECO
 * code, the occupation, the onboarding date and the declared profile, through the records API.
 */
describe('records API: external code, sector, occupation, onboarding date and declared profile', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient, viewer: TestClient, outsider: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['analyst'] }).then((u) => env.login(u)),
    ]);
  });

  const person = (over: Record<string, unknown> = {}) => ({
    tipo_soggetto: 'persona_fisica', nome: 'Mario', cognome: 'Rossi', codice_fiscale: CF_MARIO, ...over,
  });
  const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path);
  let mario: string;

  it('creates a customer with the new fields and reads them back (record, file, list filter by external code)', async () => {
    const r = await analyst.post('/api/anagrafe', person({
      codice_esterno: ' CLI-0001 ', ateco: '47.11.10', professione: 'Commerciante', data_onboarding: '2024-05-02',
      volume_mensile_atteso_eur: '2.500,50', uso_contanti_atteso: 'medio',
    }));
    assert.equal(r.status, 201, r.text);
    mario = r.body.cod_anagrafe;
    assert.deepEqual(
      [r.body.codice_esterno, r.body.ateco, r.body.professione, r.body.data_onboarding, r.body.volume_mensile_atteso_eur, r.body.uso_contanti_atteso],
      ['CLI-0001', '47.11.10', 'Commerciante', '2024-05-02', 2500.5, 'medio'],
    );
    const file = await viewer.get(`/api/anagrafe/${mario}`);
    assert.equal(file.status, 200, file.text);
    assert.deepEqual([file.body.codice_esterno, file.body.volume_mensile_atteso_eur, file.body.data_onboarding], ['CLI-0001', 2500.5, '2024-05-02']);
    // The first version names every field it set, the new ones included.
    assert.deepEqual(file.body.versioni[0].campi.uso_contanti_atteso, { old: null, new: 'medio' });
    assert.deepEqual(file.body.versioni[0].campi.volume_mensile_atteso_eur, { old: null, new: 2500.5 });

    const byCode = await viewer.get('/api/anagrafe?codice_esterno=CLI-0001');
    assert.equal(byCode.status, 200, byCode.text);
    assert.deepEqual(byCode.body.items.map((i: { cod_anagrafe: string; codice_esterno: string }) => [i.cod_anagrafe, i.codice_esterno]), [[mario, 'CLI-0001']]);
    assert.deepEqual((await outsider.get('/api/anagrafe?codice_esterno=CLI-0001')).body.items, [], 'another tenant does not see it');
    // The text search finds it too, by the code as typed.
    assert.deepEqual((await viewer.get('/api/anagrafe?q=CLI-0001')).body.items.map((i: { cod_anagrafe: string }) => i.cod_anagrafe), [mario]);
    // Another tenant's source system may use the same code: codes are unique per tenant.
    assert.equal((await outsider.post('/api/anagrafe', person({ codice_esterno: 'CLI-0001' }))).status, 201);
  });

  it('refuses bad values with a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ateco: '4711' }, 'ateco', /formato NN/],
      [{ ateco: '47.1.1' }, 'ateco', /formato NN/],
      [{ ateco: '04.11' }, 'ateco', /divisione/],
      [{ uso_contanti_atteso: 'molto' }, 'uso_contanti_atteso', /nessuno, basso, medio o alto/],
      [{ volume_mensile_atteso_eur: -10 }, 'volume_mensile_atteso_eur', /negativo/],
      [{ volume_mensile_atteso_eur: 'mille' }, 'volume_mensile_atteso_eur', /importo in euro/],
      [{ volume_mensile_atteso_eur: 10.555 }, 'volume_mensile_atteso_eur', /due decimali/],
      [{ volume_mensile_atteso_eur: 1_000_000_000_000.01 }, 'volume_mensile_atteso_eur', /troppo grande/],
      [{ codice_esterno: 'CLI 0002' }, 'codice_esterno', /senza spazi/],
      [{ codice_esterno: 'x'.repeat(65) }, 'codice_esterno', /64 caratteri/],
      [{ data_onboarding: '2999-01-01' }, 'data_onboarding', /futuro/],
      [{ data_onboarding: '2024-02-30' }, 'data_onboarding', /Data non valida/],
      [{ professione: 'x'.repeat(201) }, 'professione', /./],
    ];
    for (const [over, field, message] of cases) {
      const r = await analyst.post('/api/anagrafe', person({ codice_fiscale: undefined, ...over }));
      assert.equal(r.status, 422, `${JSON.stringify(over)}: ${r.text}`);
      assert.deepEqual(paths(r), [field], JSON.stringify(over));
      assert.match(r.body.errors[0].message, message, JSON.stringify(over));
    }
    const update = await analyst.put(`/api/anagrafe/${mario}`, { ateco: '99.999' });
    assert.deepEqual([update.status, paths(update)], [422, ['ateco']]);
  });

  it('refuses an external code another subject holds (409 naming it), on create and on update', async () => {
    const dup = await analyst.post('/api/anagrafe', person({ nome: 'Giulia', cognome: 'Verdi', codice_fiscale: CF_GIULIA, codice_esterno: 'CLI-0001' }));
    assert.equal(dup.status, 409, dup.text);
    assert.deepEqual([dup.body.code, dup.body.cod_anagrafe], ['DUPLICATE_EXTERNAL_CODE', mario]);
    assert.equal((await env.ownerDb('anagrafe').where({ cod_azienda: tenant, chiave_fiscale: `CF:${CF_GIULIA}` })).length, 0, 'nothing written');

    const giulia = await analyst.post('/api/anagrafe', person({ nome: 'Giulia', cognome: 'Verdi', codice_fiscale: CF_GIULIA, codice_esterno: 'CLI-0002' }));
    assert.equal(giulia.status, 201, giulia.text);
    const taken = await analyst.put(`/api/anagrafe/${giulia.body.cod_anagrafe}`, { codice_esterno: 'CLI-0001' });
    assert.deepEqual([taken.status, taken.body.code, taken.body.cod_anagrafe], [409, 'DUPLICATE_EXTERNAL_CODE', mario]);
    // Its own code again is no change.
    const same = await analyst.put(`/api/anagrafe/${giulia.body.cod_anagrafe}`, { codice_esterno: 'CLI-0002' });
    assert.deepEqual([same.status, same.body.campi_modificati], [200, []]);
    // The largest volume taken is stored as given.
    const most = await analyst.put(`/api/anagrafe/${giulia.body.cod_anagrafe}`, { volume_mensile_atteso_eur: '1.000.000.000.000' });
    assert.deepEqual([most.status, most.body.volume_mensile_atteso_eur], [200, 1_000_000_000_000], most.text);
  });

  it('updates the fields as a new version and shows the record as it was', async () => {
    const r = await analyst.put(`/api/anagrafe/${mario}`, { volume_mensile_atteso_eur: 4000, uso_contanti_atteso: 'nessuno', ateco: '47.11', versione: 1 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.campi_modificati.sort(), ['ateco', 'uso_contanti_atteso', 'volume_mensile_atteso_eur']);
    assert.equal(r.body.rescreen, null, 'the declared profile is not what the lists match on');
    const file = await viewer.get(`/api/anagrafe/${mario}`);
    assert.deepEqual(file.body.versioni[0].campi, {
      ateco: { old: '47.11.10', new: '47.11' }, uso_contanti_atteso: { old: 'medio', new: 'nessuno' },
      volume_mensile_atteso_eur: { old: 2500.5, new: 4000 },
    });
    await env.ownerDb('anagrafe_versioni').where({ cod_azienda: tenant, cod_anagrafe: mario, versione: 1 }).update({ changed_at: '2025-01-10T09:00:00Z' });
    const asOf = await viewer.get(`/api/anagrafe/${mario}?al=2025-06-01`);
    assert.equal(asOf.status, 200, asOf.text);
    assert.deepEqual([asOf.body.record.volume_mensile_atteso_eur, asOf.body.record.uso_contanti_atteso], [2500.5, 'medio']);
  });

  it('createOrMatchCustomer: a match without a code takes the caller\'s; another code, or a code held by someone else, is a 409', async () => {
    const run = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, fn);
    const alfa = await analyst.post('/api/anagrafe', { tipo_soggetto: 'societa', denominazione: 'Alfa S.r.l.', partita_iva: PIVA_ALFA });
    assert.equal(alfa.status, 201, alfa.text);
    const fields = { tipo_soggetto: 'societa' as const, denominazione: 'Alfa S.r.l.', partita_iva: PIVA_ALFA, codice_esterno: 'CLI-ALFA' };
    assert.deepEqual(await run((trx) => createOrMatchCustomer(trx, tenant, 'test', fields)), { codAnagrafe: alfa.body.cod_anagrafe, created: false });
    const row = await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: alfa.body.cod_anagrafe }).first();
    assert.deepEqual([row.codice_esterno, row.versione], ['CLI-ALFA', 2], 'the code filled, as a new version');
    // The same again changes nothing.
    assert.deepEqual(await run((trx) => createOrMatchCustomer(trx, tenant, 'test', fields)), { codAnagrafe: alfa.body.cod_anagrafe, created: false });

    await assert.rejects(run((trx) => createOrMatchCustomer(trx, tenant, 'test', { ...fields, codice_esterno: 'CLI-ALTRO' })),
      (err: { code?: string }) => err.code === 'DUPLICATE_EXTERNAL_CODE');
    const beta = { tipo_soggetto: 'societa' as const, denominazione: 'Beta S.p.A.', partita_iva: PIVA_BETA, codice_esterno: 'CLI-ALFA' };
    await assert.rejects(run((trx) => createOrMatchCustomer(trx, tenant, 'test', beta)), (err: { code?: string }) => err.code === 'DUPLICATE_EXTERNAL_CODE');
    assert.equal((await env.ownerDb('anagrafe').where({ cod_azienda: tenant, partita_iva: PIVA_BETA })).length, 0);
  });
});
