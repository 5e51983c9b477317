import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../src/db/tenant';
import { activeRuleSet } from '../../src/domains/risk';
import { queueRunAssessments } from '../../src/domains/risk/runs/runs.assessments';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { waitFor } from '../helpers/onboarding';

/**
 * Portfolio runs through the API (POST /api/risk/runs and its reads): a dry run of a draft over
 * a small seeded portfolio gives the expected class changes and diffs and changes nothing else;
 * a recalculation records every score and starts assessments only for the customers that
 * change; one run of a kind at a time; another tenant's run is a 404; bad input is a 422.
 */
describe('risk portfolio runs (API)', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let co: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;

  /** Customers of a tenant: code, type, PEP, class in force, state. */
  async function seedCustomers(tenant: string, rows: { cod: string; tipo?: string; pep?: boolean; classe: string | null; stato?: string }[]) {
    await env.ownerDb('anagrafe').insert(rows.map((r) => ({
      cod_azienda: tenant, cod_anagrafe: r.cod, tipo_soggetto: r.tipo ?? 'persona_fisica', denominazione: `Cliente ${r.cod}`, pep: r.pep ?? false,
      classe_rischio: r.classe, stato: r.stato ?? 'attivo', paese_residenza: 'IT', nazionalita: 'IT', created_by: 'test',
      ...(r.stato === 'eliminato' ? { eliminato_at: new Date(), eliminato_da: 'test' } : {}),
    })));
  }

  /** The tenant's model (seeded on first use) and a draft whose only change is the company rule at 25 points. */
  async function seedDraft(tenant: string): Promise<{ activeId: string; draftId: string }> {
    const active = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => activeRuleSet(trx, tenant));
    const draftId = randomUUID();
    await env.ownerDb('rischio_versioni').insert({ id: draftId, cod_azienda: tenant, versione: active.versione + 1, stato: 'draft', descrizione: 'Società più pesanti', basata_su: active.id, created_by: 'test' });
    const rules = await env.ownerDb('rischio_regole').where({ versione_id: active.id });
    await env.ownerDb('rischio_regole').insert(rules.map((r) => ({
      ...r, id: randomUUID(), versione_id: draftId, condizione: JSON.stringify(r.condizione), punti: r.codice === 'tipo_societa' ? 25 : r.punti,
    })));
    return { activeId: active.id, draftId };
  }

  async function waitForRun(client: TestClient, id: string) {
    for (let i = 0; i < 600; i++) {
      const r = await client.get(`/api/risk/runs/${id}`);
      assert.equal(r.status, 200, r.text);
      if (r.body.stato !== 'running') return r.body;
      await new Promise((res) => setTimeout(res, 200));
    }
    throw new Error('the run did not finish');
  }

  const counts = async (tenant: string) => ({
    storico: Number((await env.ownerDb('rischio_storico').where({ cod_azienda: tenant }).count('* as n'))[0]!.n),
    correnti: await env.ownerDb('rischio_correnti').where({ cod_azienda: tenant }).orderBy('cod_anagrafe').select('cod_anagrafe', 'punteggio', 'classe_effettiva'),
    valutazioni: Number((await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenant }).count('* as n'))[0]!.n),
    classi: await env.ownerDb('anagrafe').where({ cod_azienda: tenant }).orderBy('cod_anagrafe').select('cod_anagrafe', 'classe_rischio'),
  });

  let tenantA: string;
  let tenantB: string;
  let tenantC: string;
  let dryRunId: string;

  before(async () => {
    env = await getTestEnv();
    tenantA = await env.createTenant();
    tenantB = await env.createTenant();
    tenantC = await env.createTenant();
    [co, viewer, outsider] = await Promise.all([
      env.createUser({ tenant: tenantA, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant: tenantA, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: tenantC, roles: ['co', 'admin'] }).then((u) => env.login(u)),
    ]);
  });

  it('a dry run of a draft gives each customer\'s class beside the class in force, with the rules that differ, and changes nothing else', async () => {
    await seedCustomers(tenantA, [
      { cod: 'A1', classe: 'basso' },
      { cod: 'A2', tipo: 'societa', classe: 'medio' },
      { cod: 'A3', pep: true, classe: 'basso' },
      { cod: 'A4', classe: 'alto', stato: 'cessato' },
      { cod: 'A5', classe: null },
      { cod: 'A6', tipo: 'societa', classe: 'basso' },
    ]);
    const { draftId } = await seedDraft(tenantA);
    // A2 was scored before: 10 points for being a company, then moved to medio by an override.
    await env.ownerDb('rischio_correnti').insert({
      cod_azienda: tenantA, cod_anagrafe: 'A2', versione_id: (await env.ownerDb('rischio_versioni').where({ cod_azienda: tenantA, stato: 'active' }).first()).id,
      punteggio: 10, classe_calcolata: 'basso', classe_effettiva: 'medio', probabilita: 2, impatto: 1, calcolato_at: new Date(),
      contributi: JSON.stringify([{ regola_id: randomUUID(), codice: 'tipo_societa', nome: 'Tipo di cliente: società', famiglia: 'cliente', fattore: 'tipo_soggetto', punti: 10, classe_minima: null, letti: [] }]),
    });
    const before = await counts(tenantA);

    const started = await co.post('/api/risk/runs', { tipo: 'simulazione', versione_id: draftId });
    assert.equal(started.status, 202, started.text);
    assert.equal(started.body.workflow_id, `risk-run:${tenantA}:${started.body.id}`);
    assert.equal(started.headers.get('location'), `/api/risk/runs/${started.body.id}`);
    dryRunId = started.body.id;
    const run = await waitForRun(viewer, dryRunId);
    assert.equal(run.stato, 'completed', run.errore);
    assert.deepEqual([run.totale, run.elaborati, run.cambi], [5, 5, 3]);
    assert.deepEqual(run.riepilogo.matrice, { basso: { basso: 1, medio_alto: 1, medio: 1 }, medio: { medio: 1 }, nessuna: { basso: 1 } });
    assert.deepEqual([run.riepilogo.salite, run.riepilogo.discese], [3, 0]);
    assert.equal(run.riepilogo.posizioni, undefined, 'the lanes\' positions are internal');

    const all = await viewer.get(`/api/risk/runs/${dryRunId}/risultati?limit=50`);
    assert.equal(all.status, 200, all.text);
    const by = Object.fromEntries(all.body.items.map((r: { cod_anagrafe: string }) => [r.cod_anagrafe, r]));
    assert.deepEqual(Object.keys(by).sort(), ['A1', 'A2', 'A3', 'A5', 'A6'], 'the ceased customer is not in the run');
    assert.deepEqual(by.A1, { cod_anagrafe: 'A1', denominazione: 'Cliente A1', punteggio: 0, classe: 'basso', punteggio_attuale: null, classe_attuale: 'basso', cambia: false, differenze: [] });
    // Scored before: the class in force is the override's, the diff the company rule's new weight.
    assert.deepEqual([by.A2.punteggio_attuale, by.A2.classe_attuale, by.A2.punteggio, by.A2.classe, by.A2.cambia], [10, 'medio', 25, 'medio', false]);
    assert.deepEqual(by.A2.differenze.map((d: { codice: string; prima: number; dopo: number }) => [d.codice, d.prima, d.dopo]), [['tipo_societa', 10, 25]]);
    // A PEP is never below medio-alto (the rule's floor).
    assert.deepEqual([by.A3.classe_attuale, by.A3.classe, by.A3.cambia], ['basso', 'medio_alto', true]);
    assert.deepEqual(by.A3.differenze.map((d: { codice: string; prima: number | null }) => [d.codice, d.prima]), [['pep', null]]);
    assert.deepEqual([by.A5.classe_attuale, by.A5.classe, by.A5.cambia], [null, 'basso', true]);
    assert.deepEqual([by.A6.classe_attuale, by.A6.classe, by.A6.punteggio, by.A6.cambia], ['basso', 'medio', 25, true]);

    const changed = await viewer.get(`/api/risk/runs/${dryRunId}/risultati?cambia=true`);
    assert.deepEqual(changed.body.items.map((r: { cod_anagrafe: string }) => r.cod_anagrafe), ['A3', 'A5', 'A6']);
    const noClass = await viewer.get(`/api/risk/runs/${dryRunId}/risultati?classe_attuale=nessuna`);
    assert.deepEqual(noClass.body.items.map((r: { cod_anagrafe: string }) => r.cod_anagrafe), ['A5']);
    const toMedio = await viewer.get(`/api/risk/runs/${dryRunId}/risultati?classe=medio&classe_attuale=basso`);
    assert.deepEqual(toMedio.body.items.map((r: { cod_anagrafe: string }) => r.cod_anagrafe), ['A6']);
    const page1 = await viewer.get(`/api/risk/runs/${dryRunId}/risultati?limit=2`);
    const page2 = await viewer.get(`/api/risk/runs/${dryRunId}/risultati?limit=2&cursor=${page1.body.next_cursor}`);
    assert.deepEqual([...page1.body.items, ...page2.body.items].map((r: { cod_anagrafe: string }) => r.cod_anagrafe), ['A1', 'A2', 'A3', 'A5']);

    assert.deepEqual(await counts(tenantA), before, 'a dry run writes no history, no current score, no assessment, no class');
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenantA, entity_id: dryRunId }).orderBy('id').pluck('action');
    assert.deepEqual(audit, ['risk.run.started', 'risk.run.completed']);
  });

  it('a recalculation records every active customer\'s score and starts an assessment only for those whose class changes', async () => {
    const coB = await env.createUser({ tenant: tenantB, roles: ['co'] }).then((u) => env.login(u));
    await seedCustomers(tenantB, [
      { cod: 'B1', classe: 'basso' },
      { cod: 'B2', pep: true, classe: 'basso' },
      { cod: 'B3', tipo: 'societa', classe: 'basso' },
      { cod: 'B4', pep: true, classe: 'basso', stato: 'eliminato' },
    ]);
    const started = await coB.post('/api/risk/runs', { tipo: 'ricalcolo' });
    assert.equal(started.status, 202, started.text);
    const run = await waitForRun(coB, started.body.id);
    assert.equal(run.stato, 'completed', run.errore);
    assert.deepEqual([run.totale, run.elaborati, run.cambi], [3, 3, 1]);
    assert.equal(run.riepilogo.valutazioni_avviate, 1);
    assert.equal(run.riepilogo.avvii_falliti, 0);

    const storico = await env.ownerDb('rischio_storico').where({ cod_azienda: tenantB, esecuzione_id: run.id }).orderBy('cod_anagrafe');
    assert.deepEqual(storico.map((s) => [s.cod_anagrafe, s.classe, s.origine, s.versione_id]),
      [['B1', 'basso', 'portafoglio', run.versione_id], ['B2', 'medio_alto', 'portafoglio', run.versione_id], ['B3', 'basso', 'portafoglio', run.versione_id]]);
    const correnti = await env.ownerDb('rischio_correnti').where({ cod_azienda: tenantB }).orderBy('cod_anagrafe').pluck('cod_anagrafe');
    assert.deepEqual(correnti, ['B1', 'B2', 'B3']);
    // The run queues the assessment and goes on; the assessment's workflow writes its row.
    const valutazioni = await waitFor('the queued assessment', async () => {
      const rows = await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenantB });
      return rows.length && rows.every((v) => v.stato !== 'draft') ? rows : undefined;
    });
    assert.deepEqual(valutazioni.map((v) => [v.cod_anagrafe, v.motivo, v.riferimento, v.classe_calcolata]), [['B2', 'portafoglio', run.id, 'medio_alto']]);
    // The recalculation keeps a result row for each customer that changes (why it changed), none for the others.
    const results = await coB.get(`/api/risk/runs/${run.id}/risultati`);
    assert.deepEqual(results.body.items.map((r: { cod_anagrafe: string; classe: string; cambia: boolean }) => [r.cod_anagrafe, r.classe, r.cambia]), [['B2', 'medio_alto', true]]);
  });

  it('the queueing step starts one assessment per changed customer of the committed batches, and repeated it starts none twice', async () => {
    // What a cancelled or failed recalculation relies on: the step reads the run's result rows, whatever stopped the lanes.
    const tenantD = await env.createTenant();
    await seedCustomers(tenantD, [{ cod: 'D1', pep: true, classe: 'basso' }, { cod: 'D2', classe: 'basso' }, { cod: 'D3', pep: true, classe: 'basso' }]);
    const active = await withTenant(env.deps.db, { codAzienda: tenantD, actor: 'test' }, (trx) => activeRuleSet(trx, tenantD));
    const runId = randomUUID();
    await env.ownerDb('rischio_esecuzioni').insert({ id: runId, cod_azienda: tenantD, tipo: 'ricalcolo', versione_id: active.id, stato: 'cancelled', workflow_id: `risk-run:${tenantD}:${runId}`, started_by: 'test', finished_at: new Date() });
    // D1 and D3 changed in a batch that committed; D2 did not change.
    await env.ownerDb('rischio_esecuzioni_risultati').insert(['D1', 'D2', 'D3'].map((cod) => ({
      esecuzione_id: runId, cod_azienda: tenantD, cod_anagrafe: cod, punteggio: 30, classe: cod === 'D2' ? 'basso' : 'medio_alto', punteggio_attuale: 0, classe_attuale: 'basso', cambia: cod !== 'D2',
    })));
    const pc = { db: env.deps.db, client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue, logger: env.deps.logger };
    const first = await queueRunAssessments(pc, { codAzienda: tenantD, runId, heartbeat: () => undefined });
    assert.deepEqual(first, { started: 2, failed: 0 });
    const assessed = await waitFor('the two queued assessments, calculated', async () => {
      const rows = await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenantD }).orderBy('cod_anagrafe');
      return rows.length === 2 && rows.every((v) => v.stato !== 'draft') ? rows : undefined;
    });
    assert.deepEqual(assessed.map((v) => [v.cod_anagrafe, v.motivo, v.riferimento, v.classe_calcolata]), [['D1', 'portafoglio', runId, 'medio_alto'], ['D3', 'portafoglio', runId, 'medio_alto']]);
    // Repeated (a retried activity): the same two workflows, no third row, the counts set again rather than added.
    assert.deepEqual(await queueRunAssessments(pc, { codAzienda: tenantD, runId, heartbeat: () => undefined }), { started: 2, failed: 0 });
    assert.equal(Number((await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenantD }).count('* as n'))[0]!.n), 2);
    const run = await env.ownerDb('rischio_esecuzioni').where({ id: runId }).first();
    assert.deepEqual([run.riepilogo.valutazioni_avviate, run.riepilogo.avvii_falliti], [2, 0]);
  });

  it('one run of each kind at a time per tenant (409); a dry run beside a recalculation is allowed', async () => {
    const active = await env.ownerDb('rischio_versioni').where({ cod_azienda: tenantA, stato: 'active' }).first();
    const id = randomUUID();
    await env.ownerDb('rischio_esecuzioni').insert({ id, cod_azienda: tenantA, tipo: 'ricalcolo', versione_id: active.id, stato: 'running', workflow_id: `risk-run:${tenantA}:${id}`, started_by: 'test' });
    try {
      const again = await co.post('/api/risk/runs', { tipo: 'ricalcolo' });
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.code, 'RUN_IN_PROGRESS');
      assert.equal(again.body.running_id, id);
      const page = await co.submitForm('/rischio/scenari', { tipo: 'ricalcolo', versione_id: active.id });
      assert.equal(page.status, 409);
      assert.match(page.text, /già un ricalcolo del portafoglio in corso/);
      const dry = await co.post('/api/risk/runs', { tipo: 'simulazione', versione_id: active.id });
      assert.equal(dry.status, 202, dry.text);
      assert.equal((await waitForRun(co, dry.body.id)).stato, 'completed');
      // Cancelling the stuck run (its workflow does not exist) closes it.
      const cancelled = await co.post(`/api/risk/runs/${id}/cancel`);
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.equal(cancelled.body.stato, 'cancelled');
      assert.equal((await co.post(`/api/risk/runs/${id}/cancel`)).status, 409, 'an ended run cannot be cancelled');
    } finally {
      await env.ownerDb('rischio_esecuzioni').where({ id, stato: 'running' }).update({ stato: 'cancelled', finished_at: new Date() });
    }
  });

  it('another tenant\'s run is a 404; roles; bad input is a 422', async () => {
    for (const path of [`/api/risk/runs/${dryRunId}`, `/api/risk/runs/${dryRunId}/risultati`]) assert.equal((await outsider.get(path)).status, 404, path);
    assert.equal((await outsider.post(`/api/risk/runs/${dryRunId}/cancel`)).status, 404);
    assert.equal((await outsider.get(`/rischio/scenari?esecuzione=${dryRunId}`, { accept: 'text/html' })).status, 404);
    const list = await outsider.get('/api/risk/runs');
    assert.ok(!list.body.items.some((r: { id: string }) => r.id === dryRunId));
    assert.equal((await co.get('/api/risk/runs/not-a-uuid')).status, 404);

    assert.equal((await viewer.post('/api/risk/runs', { tipo: 'ricalcolo' })).status, 403);
    assert.equal((await viewer.post(`/api/risk/runs/${dryRunId}/cancel`)).status, 403);
    assert.equal((await viewer.get('/api/risk/runs?tipo=simulazione')).status, 200);

    const bad = async (body: unknown, path: string) => {
      const r = await co.post('/api/risk/runs', body);
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.errors[0].path, path, r.text);
    };
    await bad({ tipo: 'tutto' }, 'tipo');
    await bad({ tipo: 'simulazione', versione_id: 'abc' }, 'versione_id');
    await bad({ tipo: 'simulazione' }, 'versione_id');
    await bad({ tipo: 'simulazione', versione_id: randomUUID() }, 'versione_id');
    const draft = await env.ownerDb('rischio_versioni').where({ cod_azienda: tenantA, stato: 'draft' }).first();
    await bad({ tipo: 'ricalcolo', versione_id: draft.id }, 'versione_id');
    // Another tenant's version is no version at all.
    const r = await outsider.post('/api/risk/runs', { tipo: 'simulazione', versione_id: draft.id });
    assert.equal(r.status, 422, r.text);
    for (const q of ['classe=nero', 'cambia=forse', 'classe_attuale=x', 'cursor=zzz']) {
      assert.equal((await co.get(`/api/risk/runs/${dryRunId}/risultati?${q}`)).status, 422, q);
    }
    assert.equal((await co.get('/api/risk/runs?stato=finito')).status, 422);
  });

  it('an empty portfolio completes at once with nothing counted', async () => {
    const tenant = tenantC;
    const active = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => activeRuleSet(trx, tenant));
    const started = await outsider.post('/api/risk/runs', { tipo: 'simulazione', versione_id: active.id });
    assert.equal(started.status, 202, started.text);
    const run = await waitForRun(outsider, started.body.id);
    assert.deepEqual([run.stato, run.totale, run.elaborati, run.cambi], ['completed', 0, 0, 0]);
    assert.equal((await outsider.get(`/api/risk/runs/${run.id}/risultati`)).body.total, 0);
  });

  it('the scenarios page shows the matrix and the customers that change with why; a form starts a dry run', async () => {
    const page = await viewer.get(`/rischio/scenari?esecuzione=${dryRunId}`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /data-da="basso" data-a="medio_alto">1</);
    assert.match(page.text, /data-cliente="A6"/);
    assert.match(page.text, /href="\/anagrafe\/A6\/dossier"/);
    assert.match(page.text, /Tipo di cliente: società[^<]*: non applicata → 25 punti/);
    assert.doesNotMatch(page.text, /data-simulazione-form/, 'a viewer reads, does not start');
    const draft = await env.ownerDb('rischio_versioni').where({ cod_azienda: tenantA, stato: 'draft' }).first();
    const bad = await co.submitForm('/rischio/scenari', { tipo: 'simulazione', versione_id: 'x' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-versione_id-err">Versione non valida/);
    const ok = await co.submitForm('/rischio/scenari', { tipo: 'simulazione', versione_id: draft.id });
    assert.equal(ok.status, 302, ok.text);
    const id = /esecuzione=([0-9a-f-]{36})/.exec(ok.headers.get('location') ?? '')?.[1];
    assert.ok(id);
    assert.equal((await waitForRun(co, id)).stato, 'completed');
    const fragment = await co.get(`/rischio/scenari?esecuzione=${id}&frammento=esecuzione`, { accept: 'text/html', 'hx-request': 'true' });
    assert.match(fragment.text, /^\s*(<!--.*-->\s*)?[\s\S]*<section id="scenario-run"/);
    assert.doesNotMatch(fragment.text, /<html/);
  });
});
