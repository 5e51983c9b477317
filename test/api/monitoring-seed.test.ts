import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path).sort();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * POST /api/engine/seed (docs/monitoring.md, "The generator and the seed"): a small labelled year
 * goes through the records area's imports, the KYT events, the templates in force and the replay,
 * and the tenant then has customers, relationships, movements and alerts, and the cases, CDD tasks and
 * risk assessments a compliance officer would open on them; its progress is a record
 * readable by the tenant (and by a superadmin naming it), another tenant's is a 404.
 */
describe('monitoring seed: /api/engine/seed', function () {
  this.timeout(600_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient, viewer: TestClient, analyst: TestClient, outsider: TestClient, superadmin: TestClient;
  let job: Record<string, unknown> & { id: string };

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    [co, viewer, analyst, outsider, superadmin] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant: null, roles: ['superadmin'] }).then((u) => env.login(u)),
    ]);
  });

  it('refuses bad input with 422 naming the field', async () => {
    for (const [body, field] of [
      [{ clienti: 5 }, 'clienti'], [{ clienti: 20_001 }, 'clienti'], [{ clienti: 'molti' }, 'clienti'], [{ clienti: 30.5 }, 'clienti'],
      [{ clienti: 30, mesi: 0 }, 'mesi'], [{ clienti: 30, mesi: 25 }, 'mesi'], [{ clienti: 30, seed: 'con spazi' }, 'seed'],
    ] as const) {
      const r = await co.post('/api/engine/seed', body);
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.deepEqual(paths(r), [field], r.text);
    }
    assert.equal((await co.post('/api/engine/seed', { clienti: 30, extra: 1 })).status, 422);
  });

  it('is for the tenant admin and compliance officer (a superadmin names the tenant)', async () => {
    assert.equal((await viewer.post('/api/engine/seed', { clienti: 30 })).status, 403);
    assert.equal((await analyst.post('/api/engine/seed', { clienti: 30 })).status, 403);
    // Another tenant named by someone who is not a superadmin: not found.
    assert.equal((await outsider.post('/api/engine/seed', { clienti: 30, cod_azienda: tenant })).status, 404);
    assert.equal((await superadmin.post('/api/engine/seed', { clienti: 30, cod_azienda: 'NESSUNA' })).status, 404);
  });

  it('seeds a small year through the imports and the replay: customers, movements, KYT events and alerts exist', async () => {
    const r = await co.post('/api/engine/seed', { clienti: 30, seed: 'prova-api', mesi: 12 });
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.clienti, 30);
    assert.ok(['in_coda', 'in_corso'].includes(r.body.stato), r.text);
    job = r.body;
    // One at a time per tenant.
    const again = await co.post('/api/engine/seed', { clienti: 10 });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.running_id, job.id);
    const deadline = Date.now() + 540_000;
    let state: Record<string, unknown> & { stato: string } = r.body;
    while (!['completato', 'fallito'].includes(state.stato) && Date.now() < deadline) {
      await sleep(1500);
      const g = await co.get(`/api/engine/seed/${job.id}`);
      assert.equal(g.status, 200, g.text);
      state = g.body;
    }
    assert.equal(state.stato, 'completato', JSON.stringify(state));
    assert.equal(state.fase, 'fine');
    const righe = state.righe as Record<string, number>;
    assert.equal(righe.clienti_importati, 30, JSON.stringify(righe));
    assert.equal(righe.clienti_errati, 0, JSON.stringify(righe));
    assert.equal(righe.movimenti_errati, 0, JSON.stringify(righe));
    assert.equal(righe.movimenti_importati, righe.movimenti);
    const piantati = state.piantati as Record<string, number>;
    assert.equal(Object.keys(piantati).length, 14, JSON.stringify(piantati));
    assert.equal(state.regole_attivate, 14);
    assert.ok((state.importazioni as { stato: string }[]).every((i) => i.stato === 'completato'));
    assert.equal((state.replay as { stato: string }).stato, 'completed');

    const count = async (table: string, where: Record<string, unknown> = {}) =>
      Number((await env.ownerDb(table).where({ cod_azienda: tenant, ...where }).count({ n: '*' }).first())!.n);
    assert.equal(await count('anagrafe'), 30);
    assert.ok(await count('rapporti') >= 30);
    assert.equal(await count('movimenti'), righe.movimenti);
    assert.ok(righe.movimenti > 1000, String(righe.movimenti));
    assert.ok(await count('kyt_eventi') >= 2, 'the crypto transfers are KYT events');
    const alerts = await count('monitoring_alert');
    assert.ok(alerts > 0 && alerts === state.alert, `${alerts} alerts, job says ${String(state.alert)}`);
    // The tenant list's addresses the year planted are alerted by the template that reads it.
    assert.ok(await count('monitoring_alert', { tipologia: 'crypto_liste_interne' }) >= 1);
    // The work a compliance officer would open on the year, each through its area's process: the worst alerts escalated into cases,
    // CDD tasks for the high-risk customers, risk assessments for those and for the cases' customers.
    const work = state.pratiche as { casi: number; pratiche_cdd: number; valutazioni: number };
    const risky = await env.ownerDb('anagrafe').where({ cod_azienda: tenant }).andWhere((q) => q.whereIn('classe_rischio', ['medio_alto', 'alto']).orWhere('pep', true)).pluck('cod_anagrafe');
    assert.ok(work.casi >= 1 && work.casi <= 8 && work.pratiche_cdd === Math.min(10, risky.length) && risky.length >= 1, JSON.stringify({ work, risky }));
    const escalated = await env.ownerDb('monitoring_alert').where({ cod_azienda: tenant, stato: 'escalated' }).select('cod_anagrafe', 'cod_caso');
    assert.equal(escalated.length, work.casi);
    const cases = (await co.get('/api/cases?limit=50')).body.items as { id: string; tipo: string; cod_anagrafe: string }[];
    assert.deepEqual(cases.filter((c) => c.tipo === 'alert_monitoraggio').map((c) => c.id).sort(), escalated.map((e) => e.cod_caso).sort(), 'each case opened by the escalation');
    const tasks = (await co.get('/api/cdd/tasks?limit=50')).body.items as { cod_anagrafe: string; motivo: string }[];
    assert.deepEqual(tasks.map((t) => t.cod_anagrafe).sort(), [...risky].sort().slice(0, 10));
    assert.equal(work.valutazioni, new Set([...risky.slice(0, 10), ...escalated.map((e) => e.cod_anagrafe)]).size);
    const assessDeadline = Date.now() + 60_000;
    let assessed = 0;
    while (Date.now() < assessDeadline && assessed < work.valutazioni) {
      assessed = (await co.get('/api/risk/assessments?limit=50')).body.items.length;
      if (assessed < work.valutazioni) await sleep(1000);
    }
    assert.equal(assessed, work.valutazioni, 'the queued assessments calculate in their own workflows');
    // Idempotent: the phase run again opens nothing more.
    const { openSeedWork } = await import('../../src/domains/monitoring/seed/seed.work');
    const client = await env.deps.temporal.get();
    assert.deepEqual(await openSeedWork({ db: env.deps.db, client, taskQueue: env.deps.temporal.taskQueue }, { codAzienda: tenant, seedId: job.id }), work);
    assert.equal((await co.get('/api/cases?limit=50')).body.items.length, cases.length);
    assert.equal((await co.get('/api/cdd/tasks?limit=50')).body.items.length, tasks.length);
    const customer = await env.ownerDb('anagrafe').where({ cod_azienda: tenant }).whereNotNull('volume_mensile_atteso_eur').first();
    assert.ok(customer?.codice_esterno && customer.uso_contanti_atteso && customer.data_onboarding, 'the declared profile came through the import');
  });

  it('keeps the job to its tenant: another tenant gets a 404, a superadmin naming the tenant reads it', async () => {
    assert.equal((await outsider.get(`/api/engine/seed/${job.id}`)).status, 404);
    assert.equal((await outsider.get(`/api/engine/seed/${job.id}?cod_azienda=${tenant}`)).status, 404);
    assert.equal((await co.get('/api/engine/seed/00000000-0000-0000-0000-000000000000')).status, 404);
    assert.equal((await co.get('/api/engine/seed/non-un-id')).status, 404);
    assert.equal((await viewer.get(`/api/engine/seed/${job.id}`)).status, 403);
    const sa = await superadmin.get(`/api/engine/seed/${job.id}?cod_azienda=${tenant}`);
    assert.equal(sa.status, 200, sa.text);
    assert.equal(sa.body.id, job.id);
    assert.equal((await superadmin.get(`/api/engine/seed/${job.id}?cod_azienda=${other}`)).status, 404);
  });
});
