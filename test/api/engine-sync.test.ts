import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { HttpError } from '../../src/http/errors';
import { TemporalClientProvider } from '../../temporal/client';
import { copyReads, engineCopyStore } from '../../src/domains/monitoring/sync/copy-store';
import { platformStore } from '../../src/domains/monitoring';
import { runSync, syncTenant } from '../../src/domains/monitoring/sync/sync.run';
import { useEngineReplica } from '../../src/domains/monitoring';
import { createAppDb, deriveRoleUrl } from '../../src/db/knex';
import { engineHealth } from '../../src/domains/monitoring/sync/engine.health';
import { runPilot } from '../../src/domains/monitoring/sync/engine.pilot';
import { ENGINE_SYNC_SWEEP_WORKFLOW_TYPE, type EngineSyncSweepResult } from '../../workflows/engine-sync/engine-sync.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * The decision engine's component (docs/monitoring.md, "The engine process and its sync"): the
 * copy's sync with its records and dead letters, their replay, the statistics, the reconciliation,
 * the engine's store over the copy (never stale), the health and the pilot round trip.
 */
describe('the decision engine: sync, dead letters, health, reconcile, pilot (/api/engine/*)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient, admin: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;
  let brokenVersion: string;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 3, 2);
    await seedCustomers(env.ownerDb, other, 1, 0);
    [co, admin, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
    const good = await co.post('/api/monitoring/rules', ruleBody('contanti_sync'));
    assert.equal(good.status, 201, good.text);
    await activateDraft(env, tenant, good.body.bozza.id);
    // A version in force whose condition the engine no longer accepts (written before a change of the language, or by hand): a dead letter.
    const bad = await co.post('/api/monitoring/rules', ruleBody('regola_rotta'));
    await activateDraft(env, tenant, bad.body.bozza.id);
    brokenVersion = bad.body.bozza.id;
    await env.ownerDb('monitoring_regole_versioni').where({ id: brokenVersion }).update({ condizione: JSON.stringify({ campo: 'evento.campo_sconosciuto', op: 'eq', valore: 1 }) });
  });

  it('syncs customers, rules and lists into the copy; a record the engine cannot take is a dead letter with its reason, the others are copied', async () => {
    const runs = await syncTenant(env.deps.db, tenant, 'manuale', 'test');
    const byTipo = Object.fromEntries(runs.map((r) => [r.tipo, r]));
    assert.equal(byTipo.cliente.stato, 'completata');
    assert.deepEqual([byTipo.cliente.esaminati, byTipo.cliente.inseriti], [3, 3]);
    assert.equal(byTipo.lista.stato, 'completata');
    assert.ok(byTipo.lista.inseriti >= 1, 'the reference lists and the tenant\'s own');
    assert.equal(byTipo.regola.stato, 'scarti');
    assert.deepEqual([byTipo.regola.inseriti, byTipo.regola.scarti], [1, 1]);
    // Nothing changed: the next run copies nothing and counts everything unchanged.
    const again = await runSync(env.deps.db, { codAzienda: tenant, tipo: 'cliente', origine: 'manuale', actor: 'test' });
    assert.deepEqual([again.stato, again.invariati, again.inseriti, again.aggiornati], ['completata', 3, 0, 0]);
    // Another tenant's copy is its own.
    assert.equal(Number((await env.ownerDb('engine_copia').where({ cod_azienda: other }).count('* as n'))[0]!.n), 0);

    const dead = await viewer.get('/api/engine/sync/dead-letters');
    assert.equal(dead.status, 200, dead.text);
    assert.equal(dead.body.items.length, 1);
    const [letter] = dead.body.items;
    assert.equal(letter.cod_sync, byTipo.regola.cod_sync);
    assert.equal(letter.stato, 'scarti');
    assert.equal(letter.record[0].chiave, brokenVersion);
    assert.match(letter.record[0].motivo, /^condizione: .*campo_sconosciuto/);
    assert.equal((await viewer.get('/api/engine/sync/dead-letters?tipo=cliente')).body.items.length, 0);
    const badQuery = await viewer.get('/api/engine/sync/dead-letters?tipo=movimenti&limit=0');
    assert.equal(badQuery.status, 422, badQuery.text);
    assert.deepEqual(badQuery.body.errors.map((e: { path: string }) => e.path).sort(), ['limit', 'tipo']);
    assert.equal((await outsider.get('/api/engine/sync/dead-letters')).body.items.length, 0, 'another tenant sees none of them');

    const stats = await viewer.get('/api/engine/sync/stats');
    assert.equal(stats.status, 200, stats.text);
    const s = Object.fromEntries(stats.body.per_tipo.map((k: { tipo: string }) => [k.tipo, k]));
    assert.deepEqual([s.cliente.esecuzioni, s.cliente.completate, s.cliente.record_in_copia, s.cliente.dead_letter], [2, 2, 3, 0]);
    assert.deepEqual([s.regola.dead_letter, s.regola.record_scartati, s.regola.record_in_copia], [1, 1, 1]);
    assert.ok(s.cliente.ritardo_secondi >= 0 && s.cliente.ritardo_secondi < 120);
  });

  it('replays a dead letter: 403 without the role, 404 for another tenant, still dead while the record is wrong, closed once copied, then 409', async () => {
    const code = (await viewer.get('/api/engine/sync/dead-letters')).body.items[0].cod_sync as string;
    assert.equal((await analyst.post(`/api/engine/sync/replay/${code}`, {})).status, 403);
    assert.equal((await outsider.post(`/api/engine/sync/replay/${code}`, {})).status, 404);
    assert.equal((await co.post('/api/engine/sync/replay/SYNC-20260101-000000000000', {})).status, 404);

    const still = await co.post(`/api/engine/sync/replay/${code}`, {});
    assert.equal(still.status, 200, still.text);
    assert.deepEqual([still.body.replay.origine, still.body.replay.replay_di, still.body.replay.stato, still.body.replay.esaminati], ['replay', code, 'ritentata', 1]);
    assert.equal(still.body.originale.stato, 'scarti', 'the dead letter stays until its records are copied');
    assert.deepEqual([still.body.originale.tentativi, still.body.originale.ultimo_tentativo_da], [1, still.body.replay.cod_sync]);
    assert.match(still.body.originale.ultimo_errore, new RegExp(`^1 record non copiati \\(${brokenVersion}: `));
    // Failing again updates the same dead letter (one more attempt, the last error and time): no second dead letter.
    const again = await co.post(`/api/engine/sync/replay/${code}`, {});
    assert.equal(again.body.replay.stato, 'ritentata', again.text);
    assert.equal(again.body.originale.tentativi, 2);
    assert.equal(again.body.originale.ultimo_tentativo_da, again.body.replay.cod_sync);
    assert.ok(new Date(again.body.originale.ultimo_tentativo_at) >= new Date(still.body.originale.ultimo_tentativo_at));
    const letters = (await viewer.get('/api/engine/sync/dead-letters')).body.items as { cod_sync: string; tentativi: number; record: { chiave: string }[] }[];
    assert.deepEqual(letters.map((l) => [l.cod_sync, l.tentativi, l.record.map((r) => r.chiave)]), [[code, 2, [brokenVersion]]], 'one dead letter, holding the record still not copied');
    assert.equal((await co.post(`/api/engine/sync/replay/${again.body.replay.cod_sync}`, {})).status, 409, 'a replay that failed again is not a dead letter');
    const page = await co.get('/monitoraggio/motore');
    assert.match(page.text, /data-dead-attempts="2"/);

    await env.ownerDb('monitoring_regole_versioni').where({ id: brokenVersion }).update({ condizione: JSON.stringify({ campo: 'evento.importo_eur', op: 'gte', valore: 1 }) });
    const fixed = await admin.post(`/api/engine/sync/replay/${code}`, {});
    assert.equal(fixed.status, 200, fixed.text);
    assert.deepEqual([fixed.body.replay.stato, fixed.body.replay.inseriti], ['completata', 1]);
    assert.deepEqual([fixed.body.originale.stato, fixed.body.originale.rieseguita_da], ['rieseguita', fixed.body.replay.cod_sync]);
    assert.equal(await env.ownerDb('engine_copia').where({ cod_azienda: tenant, tipo: 'regola', chiave: brokenVersion }).first().then(Boolean), true);

    const twice = await co.post(`/api/engine/sync/replay/${code}`, {});
    assert.equal(twice.status, 409, twice.text);
    assert.equal(twice.body.code, 'NOT_A_DEAD_LETTER');
    assert.equal((await co.post(`/api/engine/sync/replay/${fixed.body.replay.cod_sync}`, {})).status, 409, 'a completed run is not a dead letter');
    assert.equal((await viewer.get('/api/engine/sync/dead-letters')).body.items.length, 0);
  });

  it('the engine\'s store never reads a stale record: what changed since the sync comes from the platform, and equals it', async () => {
    await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'C-1' }).update({ professione: 'Ristoratore', volume_mensile_atteso_eur: 4_000 });
    await env.ownerDb('rapporti_soggetti').insert({ id: randomUUID(), cod_azienda: tenant, cod_rapporto: 'R-2', cod_anagrafe: 'C-3', ruolo: 'cointestatario', dal: '2025-01-01', created_by: 'test' });
    const before = { ...copyReads };
    const [fromCopy, fromPlatform] = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, async (trx) => [
      await engineCopyStore.profiles(trx, tenant, ['C-1', 'C-2', 'C-3', 'C-9']), await platformStore.profiles(trx, tenant, ['C-1', 'C-2', 'C-3', 'C-9']),
    ]);
    assert.deepEqual(fromCopy, fromPlatform);
    assert.equal(fromCopy.get('C-1')!.professione, 'Ristoratore');
    assert.deepEqual(fromCopy.get('C-3')!.rapporti.map((r) => r.cod_rapporto).sort(), ['R-2', 'R-3'], 'a new role on a relationship reaches the profile at once');
    assert.deepEqual([copyReads.copia - before.copia, copyReads.piattaforma - before.piattaforma], [0, 3], 'C-1 edited; C-2 and C-3 share R-2 now');
    const rules = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, async (trx) => [await engineCopyStore.activeRules(trx, tenant), await platformStore.activeRules(trx, tenant)]);
    assert.deepEqual(rules[0]!.map((r) => r.versione_id).sort(), rules[1]!.map((r) => r.versione_id).sort());

    // The reconciliation names what differs, bounded; reading it is for the compliance officer and the admin.
    assert.equal((await viewer.get('/api/engine/reconcile')).status, 403);
    assert.equal((await co.get('/api/engine/reconcile?limite=9999')).status, 422);
    const diff = await co.get('/api/engine/reconcile?tipo=cliente&limite=1');
    assert.equal(diff.status, 200, diff.text);
    const [k] = diff.body.per_tipo;
    assert.equal(diff.body.allineato, false);
    assert.deepEqual([k.piattaforma.record, k.copia.record, k.diversi.totale, k.diversi.chiavi], [3, 3, 3, ['C-1']]);
    assert.notEqual(k.piattaforma.hash, k.copia.hash);

    const synced = await runSync(env.deps.db, { codAzienda: tenant, tipo: 'cliente', origine: 'manuale', actor: 'test' });
    assert.deepEqual([synced.aggiornati, synced.invariati], [3, 0]);
    const after = await admin.get('/api/engine/reconcile');
    assert.equal(after.body.allineato, true, after.text);
    for (const kind of after.body.per_tipo) assert.equal(kind.piattaforma.hash, kind.copia.hash, kind.tipo);
    const mid = { ...copyReads };
    await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => engineCopyStore.profiles(trx, tenant, ['C-1', 'C-2', 'C-3']));
    assert.deepEqual([copyReads.copia - mid.copia, copyReads.piattaforma - mid.piattaforma], [3, 0], 'once synced, read from the copy');
  });

  it('reads the platform from the replica when one is configured; a run that fails as a whole is a dead letter replayed in full', async () => {
    const c = env.deps.config;
    const replica = createAppDb(deriveRoleUrl(env.ownerUrl, c.appDbRole, c.appDbPassword), c.tenantContextKey, { min: 0, max: 2 });
    const gone = createAppDb(deriveRoleUrl('postgres://x:y@127.0.0.1:1/nessuno', c.appDbRole, c.appDbPassword), c.tenantContextKey, { min: 0, max: 1 });
    try {
      await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'C-3' }).update({ professione: 'Notaio' });
      useEngineReplica(replica);
      const viaReplica = await runSync(env.deps.db, { codAzienda: tenant, tipo: 'cliente', origine: 'manuale', actor: 'test' });
      assert.deepEqual([viaReplica.stato, viaReplica.aggiornati], ['completata', 1]);

      useEngineReplica(gone);
      const failed = await runSync(env.deps.db, { codAzienda: tenant, tipo: 'regola', origine: 'manuale', actor: 'test' });
      assert.equal(failed.stato, 'fallita');
      const letter = (await viewer.get('/api/engine/sync/dead-letters')).body.items.find((i: { cod_sync: string }) => i.cod_sync === failed.cod_sync);
      assert.match(letter.errore, /ECONNREFUSED/);
      // Replayed while the source is still gone: the same dead letter records the attempt and its error.
      const again = await co.post(`/api/engine/sync/replay/${failed.cod_sync}`, {});
      assert.deepEqual([again.body.replay.stato, again.body.originale.stato, again.body.originale.tentativi], ['ritentata', 'fallita', 1], again.text);
      assert.match(again.body.originale.ultimo_errore, /ECONNREFUSED/);
      useEngineReplica(undefined);
      const replayed = await co.post(`/api/engine/sync/replay/${failed.cod_sync}`, {});
      assert.equal(replayed.status, 200, replayed.text);
      assert.deepEqual([replayed.body.replay.stato, replayed.body.replay.esaminati, replayed.body.originale.stato], ['completata', 2, 'rieseguita']);
    } finally {
      useEngineReplica(undefined);
      await replica.destroy();
      await gone.destroy();
    }
  });

  it('the Schedule\'s sweep brings every tenant\'s copy up to date on the engine\'s queue', async () => {
    await env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: 'C-2' }).update({ professione: 'Farmacista' });
    const result = await env.temporal.workflow.execute(ENGINE_SYNC_SWEEP_WORKFLOW_TYPE, {
      taskQueue: env.deps.config.temporal.taskQueue, workflowId: `engine-sync:test:${Date.now()}`,
      args: [{ engineTaskQueue: env.deps.config.temporal.engineTaskQueue }],
    }) as EngineSyncSweepResult;
    assert.ok(result.tenants.includes(tenant) && result.tenants.includes(other));
    const ours = result.sync.filter((r) => r.codAzienda === tenant);
    assert.deepEqual(ours.map((r) => r.tipo).sort(), ['cliente', 'lista', 'regola']);
    const run = await env.ownerDb('engine_sync').where({ cod_azienda: tenant, cod_sync: ours.find((r) => r.tipo === 'cliente')!.cod_sync }).first();
    assert.deepEqual([run.origine, run.stato, run.aggiornati], ['pianificata', 'completata', 1], 'C-2 only');
    assert.equal(Number((await env.ownerDb('engine_copia').where({ cod_azienda: other, tipo: 'cliente' }).count('* as n'))[0]!.n), 1);
  });

  it('reports the engine\'s health: the workers on its queue, the sync, the last daily batch; down (not an error) when Temporal is unreachable', async () => {
    for (const path of ['/api/engine/health', '/api/kyt/engine/health']) {
      const r = await viewer.get(path);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.temporal, 'ok');
      assert.equal(r.body.coda, env.deps.config.temporal.engineTaskQueue);
      assert.ok(r.body.workers.length >= 1, 'the test stack serves the engine\'s queue');
      assert.match(r.body.workers[0].identity, /^motore /);
      assert.ok(['ok', 'degraded'].includes(r.body.status));
      assert.equal(r.body.sync.dead_letter, 0);
      assert.equal(r.body.sync.per_tipo.length, 3);
    }
    assert.equal((await env.client().get('/api/engine/health')).status, 401);
    const unreachable = new TemporalClientProvider({ ...env.deps.config.temporal }, () => '127.0.0.1:1');
    const started = Date.now();
    const down = await engineHealth({ ...env.deps, temporal: unreachable }, tenant, 'test');
    assert.equal(down.status, 'down');
    assert.equal(down.temporal, 'down');
    assert.ok(Date.now() - started < 8_000, 'answers within a bounded time');
    await unreachable.close();
  });

  it('runs the pilot round trip through the real paths, times each step and leaves nothing behind; 503 when no engine worker answers', async () => {
    const count = async (table: string) => Number((await env.ownerDb(table).where({ cod_azienda: tenant }).count('* as n'))[0]!.n);
    const before = await Promise.all(['monitoring_decisioni', 'monitoring_alert', 'audit_events'].map(count));
    assert.equal((await analyst.post('/api/engine/pilot/run-roundtrip', {})).status, 403);
    const bad = await co.post('/api/engine/pilot/run-roundtrip', { importo_eur: -5 });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.body.errors[0].path, 'importo_eur');
    const foreign = await outsider.post('/api/engine/pilot/run-roundtrip', { cod_anagrafe: 'C-2' });
    assert.equal(foreign.status, 422, 'another tenant\'s customer is not found');

    const r = await co.post('/api/engine/pilot/run-roundtrip', { cod_anagrafe: 'C-1', importo_eur: 12_000 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.passi.map((p: { passo: string }) => p.passo), ['lettura_store', 'valutazione', 'scrittura_decisione', 'andata_ritorno_motore']);
    for (const p of r.body.passi) assert.ok(p.ms >= 0);
    assert.equal(r.body.regole_valutate, 2);
    assert.match(r.body.cod_decisione, /^DEC-/);
    assert.equal(r.body.profilo_motore_da, 'copia');
    assert.ok(r.body.motore);
    assert.deepEqual(await Promise.all(['monitoring_decisioni', 'monitoring_alert', 'audit_events'].map(count)), before, 'the pilot is rolled back');

    const started = Date.now();
    await assert.rejects(runPilot({ ...env.deps, config: { ...env.deps.config, temporal: { ...env.deps.config.temporal, engineTaskQueue: 'nessun-motore' } } }, tenant, 'test', {}),
      (err: unknown) => err instanceof HttpError && err.status === 503);
    assert.ok(Date.now() - started < 20_000);
  });
});
