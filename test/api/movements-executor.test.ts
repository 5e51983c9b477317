import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/** A movement of relationship RAP-X1 (held by ANA-X1) with a key of its own. */
const mov = (key: string, over: Record<string, unknown> = {}) => ({
  cod_rapporto: 'RAP-X1', data_operazione: '2026-03-10', importo: 900, segno: 'entrata', contanti: true, chiave_esterna: key, ...over,
});

/**
 * The time of day and the executor of a movement (docs/movements.md, docs/monitoring.md part 0):
 * the executor may be any subject of the tenant, not only a holder of the relationship.
 */
describe('movements API: time of day and executor', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let analyst: TestClient, viewer: TestClient;

  const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    const o = env.ownerDb;
    await o('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-X1', tipo_soggetto: 'persona_fisica', denominazione: 'Mario Rossi', created_by: 'test' },
      // A third party at the counter: no role on the relationship.
      { cod_azienda: tenant, cod_anagrafe: 'ANA-X2', tipo_soggetto: 'persona_fisica', denominazione: 'Paolo Neri', created_by: 'test' },
      { cod_azienda: other, cod_anagrafe: 'ANA-X9', tipo_soggetto: 'persona_fisica', denominazione: 'Altro Tenant', created_by: 'test' },
    ]);
    await o('rapporti').insert({ cod_azienda: tenant, cod_rapporto: 'RAP-X1', cod_anagrafe: 'ANA-X1', tipo: 'conto_corrente', data_apertura: '2020-01-01', created_by: 'test' });
    [analyst, viewer] = await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
    ]);
  });

  it('records the time of day (HH:MM or HH:MM:SS) and answers it as HH:MM:SS; refuses a time that is not one', async () => {
    const r = await analyst.post('/api/movimenti', { movimenti: [mov('ora-1', { ora_operazione: '9:05' }), mov('ora-2', { ora_operazione: '14:05' }), mov('ora-3', { ora_operazione: '23:59:30' }), mov('ora-4')] });
    assert.equal(r.status, 422, 'one digit for the hour is not the API\'s format');
    assert.deepEqual(paths(r), ['movimenti.0.ora_operazione']);
    const ok = await analyst.post('/api/movimenti', { movimenti: [mov('ora-2', { ora_operazione: '14:05' }), mov('ora-3', { ora_operazione: '23:59:30' }), mov('ora-4')] });
    assert.equal(ok.status, 201, ok.text);
    const list = await viewer.get('/api/movimenti?cod_rapporto=RAP-X1&limit=200');
    const byKey = new Map(list.body.items.map((m: { chiave_esterna: string; ora_operazione: string | null }) => [m.chiave_esterna, m.ora_operazione]));
    assert.deepEqual([byKey.get('ora-2'), byKey.get('ora-3'), byKey.get('ora-4')], ['14:05:00', '23:59:30', null]);
    for (const bad of ['24:00', '12:60', '12:30:61', 'mezzogiorno', 1230]) {
      const refused = await analyst.post('/api/movimenti', mov('ora-bad', { ora_operazione: bad }));
      assert.deepEqual([refused.status, paths(refused)], [422, ['movimenti.0.ora_operazione']], String(bad));
    }
  });

  it('takes any subject of the tenant as executor (a third party, not a holder); another tenant\'s or an unknown one is a 422', async () => {
    const third = await analyst.post('/api/movimenti', mov('esec-1', { cod_anagrafe_esecutore: 'ANA-X2', ora_operazione: '10:15' }));
    assert.equal(third.status, 201, third.text);
    const holder = await analyst.post('/api/movimenti', mov('esec-2', { cod_anagrafe_esecutore: 'ANA-X1' }));
    assert.equal(holder.status, 201, holder.text);
    // The subject it is read under stays the holder: the executor is a field of its own.
    const row = await env.ownerDb('movimenti').where({ cod_azienda: tenant, chiave_esterna: 'esec-1' }).first();
    assert.deepEqual([row.cod_anagrafe, row.cod_anagrafe_esecutore], ['ANA-X1', 'ANA-X2']);
    // Another tenant's subject does not exist here (row-level security): the same answer as an unknown code.
    for (const [code, key] of [['ANA-X9', 'esec-3'], ['ANA-NONE', 'esec-4']] as const) {
      const r = await analyst.post('/api/movimenti', { movimenti: [mov(`${key}-ok`), mov(key, { cod_anagrafe_esecutore: code })] });
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(paths(r), ['movimenti.1.cod_anagrafe_esecutore']);
      assert.match(r.body.errors[0].message, new RegExp(`Esecutore ${code} non trovato`));
    }
    assert.equal(await env.ownerDb('movimenti').where({ cod_azienda: tenant }).whereIn('chiave_esterna', ['esec-3-ok', 'esec-4-ok']).first(), undefined, 'nothing of a refused batch');
    const bad = await analyst.post('/api/movimenti', mov('esec-5', { cod_anagrafe_esecutore: 'ANA X2' }));
    assert.deepEqual([bad.status, paths(bad)], [422, ['movimenti.0.cod_anagrafe_esecutore']]);
  });

  it('lists by executor (filter cod_anagrafe_esecutore), with the time and the executor in each item', async () => {
    const r = await viewer.get('/api/movimenti?cod_anagrafe_esecutore=ANA-X2');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.items.map((m: { chiave_esterna: string; cod_anagrafe_esecutore: string; ora_operazione: string }) =>
      [m.chiave_esterna, m.cod_anagrafe_esecutore, m.ora_operazione]), [['esec-1', 'ANA-X2', '10:15:00']]);
    assert.equal((await viewer.get('/api/movimenti?cod_anagrafe_esecutore=ANA-X1')).body.items.length, 1);
    const bad = await viewer.get('/api/movimenti?cod_anagrafe_esecutore=ANA%20X1');
    assert.deepEqual([bad.status, paths(bad)], [422, ['cod_anagrafe_esecutore']]);
  });

  it('shows the time and the executor in the customer file\'s latest movements', async () => {
    const page = await viewer.get('/anagrafe/ANA-X1/dossier');
    assert.equal(page.status, 200);
    const row = page.text.split('<tr>').find((tr) => tr.includes('data-esecutore') && tr.includes('Paolo Neri'));
    assert.ok(row, 'the third party named in the row');
    assert.match(row!, /href="\/anagrafe\/ANA-X2"/);
    assert.match(row!, /data-ora>10:15</);
  });
});
