import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { evaluationContext } from '../../src/domains/monitoring/evaluation/context';
import { movementEvaluator } from '../../src/domains/monitoring/evaluation/movement-evaluator';
import { createMovements } from '../../src/domains/movements/movements.commands';
import { movementInputSchema } from '../../src/domains/movements/movements.schemas';
import { evaluateMovementsInTransaction } from '../../src/kit/evaluators';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';
import { activateDraft, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';

/**
 * Real time (docs/monitoring.md, "Evaluation paths"): a movement posted to POST /api/movimenti is
 * evaluated after its commit and the answer carries its decision; the decision keeps every rule's
 * outcome and what it read (GET /api/engine/evidence/:codDecisione); an evaluation that fails leaves
 * the movement recorded and the decision pending.
 */
describe('monitoring in real time (POST /api/movimenti answers the decision; /api/engine/evidence)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestClient, analyst: TestClient, viewer: TestClient, outsider: TestClient;

  const cash = (key: string, importo: number, day = '2026-03-20') => ({
    cod_rapporto: 'R-1', data_operazione: day, importo, segno: 'entrata', contanti: true, causale: 'Versamento contanti', chiave_esterna: key,
  });

  const real = movementEvaluator.inTransaction!.bind(movementEvaluator);

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    other = await env.createTenant();
    await seedCustomers(env.ownerDb, tenant, 2, 0);
    await seedCustomers(env.ownerDb, other, 1, 0);
    [co, analyst, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['analyst'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    // Cash of 10,000 EUR or more in 30 days, on each cash movement; and a rule that only observes large amounts.
    const rule = await co.post('/api/monitoring/rules', ruleBody('contanti_30g'));
    assert.equal(rule.status, 201, rule.text);
    await activateDraft(env, tenant, rule.body.bozza.id);
    const observe = await co.post('/api/monitoring/rules', ruleBody('importo_alto', {
      tipologia: 'altro', esito: 'osserva', condizione: { campo: 'evento.importo_eur', op: 'gte', valore: 5_000 },
    }));
    await activateDraft(env, tenant, observe.body.bozza.id);
  });

  it('answers each new movement with its decision: no anomaly, then an alert when the window reaches the threshold', async () => {
    const first = await analyst.post('/api/movimenti', cash('rt-1', 6_000));
    assert.equal(first.status, 201, first.text);
    const d1 = first.body.movimenti[0].decisione;
    assert.equal(d1.stato, 'valutata', first.text);
    assert.match(d1.cod_decisione, /^DEC-20260320-[0-9A-Z]{13}$/);
    // The observing rule fired and is recorded, but raises nothing and does not make the decision an alert.
    assert.deepEqual([d1.esito, d1.regole_attivate, d1.alert], ['nessuna_anomalia', ['importo_alto'], []]);

    const second = await analyst.post('/api/movimenti', { movimenti: [cash('rt-2', 2_000, '2026-03-21'), cash('rt-3', 2_500, '2026-03-22')] });
    assert.equal(second.status, 201, second.text);
    const [d2, d3] = second.body.movimenti.map((m: { decisione: Record<string, unknown> }) => m.decisione);
    assert.equal(d2.esito, 'nessuna_anomalia', 'the window holds 8,000 EUR');
    assert.equal(d3.esito, 'alert', 'the window reaches 10,500 EUR');
    assert.deepEqual(d3.regole_attivate, ['contanti_30g']);
    assert.equal(d3.alert.length, 1);
    assert.equal(d3.alert[0].esito, 'nuovo');
    const alert = await env.ownerDb('monitoring_alert').where({ id: d3.alert[0].id }).first();
    assert.deepEqual([alert.origine, alert.cod_anagrafe, alert.cod_regola, alert.cod_decisione], ['tempo_reale', 'C-1', 'contanti_30g', d3.cod_decisione]);
    const behind = await env.ownerDb('monitoring_alert_movimenti').where({ alert_id: alert.id }).pluck('movimento_id');
    assert.equal(behind.length, 3, 'the three cash movements of the window are behind the alert');

    // A re-sent movement is already present: nothing evaluated again.
    const again = await analyst.post('/api/movimenti', cash('rt-3', 2_500, '2026-03-22'));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.movimenti[0].decisione, undefined);
    assert.equal(Number((await env.ownerDb('monitoring_decisioni').where({ cod_azienda: tenant }).count('* as n'))[0]!.n), 3);
  });

  it('keeps every rule\'s outcome and what it read: the evidence names the reads in Italian and the versions of rules and lists', async () => {
    const r = await analyst.post('/api/movimenti', cash('rt-4', 1_000, '2026-03-23'));
    const code = r.body.movimenti[0].decisione.cod_decisione;
    const ev = await viewer.get(`/api/engine/evidence/${code}`);
    assert.equal(ev.status, 200, ev.text);
    assert.equal(ev.body.cliente.cod_anagrafe, 'C-1');
    assert.equal(ev.body.movimento.id, r.body.movimenti[0].id);
    assert.equal(ev.body.esito, 'alert');
    const cashRule = ev.body.regole.find((x: { cod_regola: string }) => x.cod_regola === 'contanti_30g');
    assert.equal(cashRule.vero, true);
    assert.equal(cashRule.versione, 1);
    const sum = cashRule.letti.find((l: { path: string }) => l.path.startsWith('aggregato:'));
    assert.equal(sum.valore, 11_500);
    assert.match(sum.descrizione, /^Il totale dei movimenti in contanti negli ultimi 30 giorni/);
    assert.deepEqual(cashRule.letti.find((l: { path: string }) => l.path === 'evento.contanti'), { path: 'evento.contanti', descrizione: 'Operazione in contanti', valore: true, formato: null });
    assert.equal(sum.formato, 'euro');
    const observe = ev.body.regole.find((x: { cod_regola: string }) => x.cod_regola === 'importo_alto');
    assert.deepEqual([observe.vero, observe.letti[0].valore], [false, 1_000]);
    assert.ok(ev.body.liste.some((l: { codice: string; versione: string }) => l.codice === 'paesi_alto_rischio' && l.versione === 'v1'));
    assert.equal(Object.keys(ev.body.versioni_regole).length, 2);
    assert.equal(typeof ev.body.motore, 'string');
    assert.ok(ev.body.durata_ms >= 0);

    assert.equal((await outsider.get(`/api/engine/evidence/${code}`)).status, 404, 'another tenant\'s decision does not exist');
    assert.equal((await viewer.get('/api/engine/evidence/DEC-20261340-AAAAAAAAAAAAA')).status, 404, 'not a day: not a code');
    assert.equal((await viewer.get('/api/engine/evidence/qualcosa')).status, 404);
  });

  /** Runs `fn` with the movements' in-transaction evaluator replaced by `stub` (which may call the real one). */
  async function withEvaluator<T>(stub: NonNullable<typeof movementEvaluator.inTransaction>, fn: () => Promise<T>): Promise<T> {
    const real = movementEvaluator.inTransaction;
    movementEvaluator.inTransaction = stub;
    try {
      return await fn();
    } finally {
      movementEvaluator.inTransaction = real;
    }
  }
  const count = async (table: string, where: Record<string, unknown>) => Number((await env.ownerDb(table).where(where).count('* as n'))[0]!.n);

  it('leaves the movement recorded and the decision pending when the evaluation fails after writing: its writes roll back to the savepoint; the daily batch decides it', async () => {
    const alertsBefore = await count('monitoring_alert', { cod_azienda: tenant });
    const auditBefore = await count('audit_events', { cod_azienda: tenant, action: 'monitoring.alert.raise' });
    let wrote: string[] = [];
    // The real evaluation runs (it records the decision and raises an alert: 9,000 EUR in cash on top of the window's), then a statement fails in the savepoint.
    const r = await withEvaluator(async (trx, deps, p) => {
      const decided = await real(trx, deps, p);
      wrote = [...decided.values()].flatMap((d) => (d.stato === 'valutata' ? [d.esito] : []));
      await trx.raw('select 1 / 0');
      return decided;
    }, () => analyst.post('/api/movimenti', cash('rt-5', 9_000, '2026-03-24')));
    assert.deepEqual(wrote, ['alert'], 'the evaluation had recorded its decision and raised its alert before failing');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.movimenti[0].decisione.stato, 'in_attesa');
    assert.match(r.body.movimenti[0].decisione.motivo, /elaborazione giornaliera/);
    const id = r.body.movimenti[0].id;
    assert.ok(await env.ownerDb('movimenti').where({ cod_azienda: tenant, id }).first('id'), 'the movement stands');
    assert.equal(await count('audit_events', { cod_azienda: tenant, action: 'movimenti.insert', entity_id: id }), 1, 'with its audit event');
    assert.equal(await env.ownerDb('monitoring_decisioni').where({ cod_azienda: tenant, evento_id: id }).first(), undefined, 'no decision: the daily batch decides it');
    assert.equal(await count('monitoring_alert', { cod_azienda: tenant }), alertsBefore, 'the alert it raised is gone with it');
    assert.equal(await count('audit_events', { cod_azienda: tenant, action: 'monitoring.alert.raise' }), auditBefore);
    assert.equal(await count('monitoring_alert_movimenti', { cod_azienda: tenant, movimento_id: id }), 0);

    // An evaluator that throws before writing anything: the same.
    const r2 = await withEvaluator(() => Promise.reject(new Error('engine unavailable')), () => analyst.post('/api/movimenti', cash('rt-5b', 100, '2026-03-24')));
    assert.equal(r2.status, 201, r2.text);
    assert.equal(r2.body.movimenti[0].decisione.stato, 'in_attesa');
    assert.ok(await env.ownerDb('movimenti').where({ cod_azienda: tenant, id: r2.body.movimenti[0].id }).first('id'));
  });

  it('commits the movement and its evaluation\'s writes together: neither is visible before the commit, both after', async () => {
    let seenInside: unknown;
    const r = await withEvaluator(async (trx, deps, p) => {
      const decided = await real(trx, deps, p);
      // Another connection, while the request's transaction is still open: nothing of it is there yet.
      const id = p.movimenti[0]!.id;
      seenInside = {
        movimento: await count('movimenti', { cod_azienda: tenant, id }),
        decisione: await count('monitoring_decisioni', { cod_azienda: tenant, evento_id: id }),
        alert: await count('monitoring_alert_movimenti', { cod_azienda: tenant, movimento_id: id }),
        // Inside the transaction, all of it.
        dentro: Number((await trx('monitoring_decisioni').where({ cod_azienda: tenant, evento_id: id }).count('* as n'))[0]!.n),
      };
      return decided;
    }, () => analyst.post('/api/movimenti', cash('rt-5c', 9_500, '2026-03-25')));
    assert.equal(r.status, 201, r.text);
    const d = r.body.movimenti[0].decisione;
    assert.deepEqual([d.stato, d.esito, d.alert.length], ['valutata', 'alert', 1], r.text);
    assert.deepEqual(seenInside, { movimento: 0, decisione: 0, alert: 0, dentro: 1 });
    const id = r.body.movimenti[0].id;
    assert.equal(await count('movimenti', { cod_azienda: tenant, id }), 1);
    const decision = await env.ownerDb('monitoring_decisioni').where({ cod_azienda: tenant, evento_id: id }).first('cod_decisione', 'alert');
    assert.equal(decision.cod_decisione, d.cod_decisione);
    assert.equal(decision.alert[0].id, d.alert[0].id, 'the decision names its alert');
    assert.ok(await count('monitoring_alert_movimenti', { cod_azienda: tenant, alert_id: d.alert[0].id, movimento_id: id }), 'the alert holds the movement');
  });

  it('evaluates two movements of one customer recorded at once one after the other: the later reads the earlier once it committed', async () => {
    // C-2 has no cash yet: 6,000 at 10:00 and 6,000 at 11:00 reach the 10,000 threshold only together.
    const evaluators = [{ evaluators: { movements: movementEvaluator } }];
    const post = (key: string, ora: string, hold?: Promise<void>, evaluated?: () => void) => createMovements(env.deps.db, tenant, 'test',
      [movementInputSchema.parse({ ...cash(key, 6_000, '2026-04-10'), cod_rapporto: 'R-2', ora_operazione: ora })],
      async (trx, movimenti) => {
        const d = await evaluateMovementsInTransaction(evaluators, trx, env.deps, { codAzienda: tenant, actor: 'test', movimenti });
        evaluated?.();
        await hold;
        return d;
      });
    let commitFirst!: () => void;
    const firstEvaluated = new Promise<void>((resolve) => {
      void post('rt-c2-a', '10:00:00', new Promise<void>((r) => { commitFirst = r; }), resolve).then((x) => { first = x; });
    });
    let first: Awaited<ReturnType<typeof post>> | undefined;
    await firstEvaluated;
    // The first is evaluated and not committed; the second is recorded and evaluated meanwhile.
    let secondDone = false;
    const second = post('rt-c2-b', '11:00:00').finally(() => { secondDone = true; });
    const waitingOnLock = async () => Number((await env.ownerDb.raw(`select count(*) as n from pg_stat_activity
      where wait_event_type = 'Lock' and wait_event = 'advisory' and datname = current_database()`)).rows[0].n) > 0;
    while (!secondDone && !await waitingOnLock()) await new Promise((r) => setTimeout(r, 10));
    commitFirst();
    const b = await second;
    while (!first) await new Promise((r) => setTimeout(r, 10));
    const esito = (x: Awaited<ReturnType<typeof post>>) => { const d = x.evaluated!.get(x.scritti[0]!.id)!; return d.stato === 'valutata' ? d.esito : d.stato; };
    assert.equal(esito(first), 'nessuna_anomalia');
    assert.equal(esito(b), 'alert', 'the second waited for the first to commit and read it in its window');
  });

  it('writes requests sent at once together (group commit), each answered as if alone: a bad one refused on its own, a key sent twice recorded once', async () => {
    const small = (key: string, rapporto = 'R-2') => ({ ...cash(key, 10, '2026-05-02'), cod_rapporto: rapporto });
    const bodies = [...Array.from({ length: 8 }, (_, i) => small(`gc-${i}`, i % 2 ? 'R-1' : 'R-2')), small('gc-dup'), small('gc-dup')];
    const answers = await Promise.all(bodies.map((b) => analyst.post('/api/movimenti', b)));
    for (const a of answers.slice(0, 8)) {
      assert.equal(a.status, 201, a.text);
      assert.equal(a.body.movimenti[0].decisione.stato, 'valutata', a.text);
    }
    const dup = answers.slice(8).map((a) => ({ status: a.status, esito: a.body.movimenti[0].esito, id: a.body.movimenti[0].id }));
    assert.deepEqual(dup.map((d) => d.status).sort(), [200, 201]);
    assert.deepEqual(dup.map((d) => d.esito).sort(), ['gia_presente', 'inserito']);
    assert.equal(dup[0]!.id, dup[1]!.id);
    // One audit event per request that wrote; requests written in one transaction share its time.
    const ids = answers.filter((a) => a.status === 201).map((a) => a.body.movimenti[0].id);
    const audits = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'movimenti.insert' }).whereIn('entity_id', ids).select('occurred_at');
    assert.equal(audits.length, 9);
    assert.ok(new Set(audits.map((a) => a.occurred_at.getTime())).size < 9, 'some of the requests shared a transaction');

    // A request naming a relationship that is not the tenant's fails its batch: each is then written alone.
    const mixed = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => analyst.post('/api/movimenti', small(`gc-ok-${i}`))),
      analyst.post('/api/movimenti', { movimenti: [small('gc-bad-0'), small('gc-bad-1', 'R-999')] }),
    ]);
    for (const a of mixed.slice(0, 5)) assert.equal(a.status, 201, a.text);
    const bad = mixed[5]!;
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path), ['movimenti.1.cod_rapporto'], 'its own index, as if it had come alone');
    assert.equal(await count('movimenti_chiavi', { cod_azienda: tenant, chiave_esterna: 'gc-bad-0' }), 0, 'nothing of the refused request is written');
  });

  it('keeps rules, lists and peer medians in memory only while the tenant\'s stamp holds: a change committed anywhere is in force at the next evaluation', async () => {
    const context = () => withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, async (trx) => {
      const c = await evaluationContext(trx, tenant);
      return { set: c.set, peers: await c.peers('2026-03-26') };
    });
    const warm = await context();
    assert.equal((await context()).set, warm.set, 'nothing changed: the same prepared set, from memory');
    assert.equal(warm.peers, undefined);

    // A rule activated (in whatever process): the next movement is evaluated with it.
    const big = await co.post('/api/monitoring/rules', ruleBody('importo_enorme', {
      tipologia: 'altro', esito: 'osserva', condizione: { campo: 'evento.importo_eur', op: 'gte', valore: 50_000 },
    }));
    assert.equal(big.status, 201, big.text);
    await activateDraft(env, tenant, big.body.bozza.id);
    const r1 = await analyst.post('/api/movimenti', cash('rt-8', 60_000, '2026-03-26'));
    assert.deepEqual(r1.body.movimenti[0].decisione.regole_attivate.sort(), ['contanti_30g', 'importo_alto', 'importo_enorme'], r1.text);

    // Retired behind the web process's back (another process's transaction, straight SQL): gone at the next evaluation.
    await env.ownerDb('monitoring_regole_versioni').where({ id: big.body.bozza.id })
      .update({ stato: 'ritirata', retired_by: 'altro-processo', retired_at: new Date() });
    const r2 = await analyst.post('/api/movimenti', cash('rt-9', 60_000, '2026-03-26'));
    assert.deepEqual(r2.body.movimenti[0].decisione.regole_attivate.sort(), ['contanti_30g', 'importo_alto'], r2.text);
    const ev = await viewer.get(`/api/engine/evidence/${r2.body.movimenti[0].decisione.cod_decisione}`);
    assert.ok(!JSON.stringify(ev.body).includes('importo_enorme'), 'the retired version is not in the decision');

    // Peer medians stored for the day (the daily batch, elsewhere): read at the next evaluation, not the remembered none.
    await env.ownerDb('monitoring_statistiche_pari').insert({ cod_azienda: tenant, giorno: '2026-03-26', mediane: JSON.stringify({ persona_fisica: { volume_30g: 1_234 } }), clienti: 2 });
    const after = await context();
    assert.deepEqual(after.peers, { giorno: '2026-03-26', mediane: { persona_fisica: { volume_30g: 1_234 } } });
    // The stamp is the tenant's own: another tenant's change does not touch it.
    const stamp = async (cod: string) => (await env.ownerDb('monitoring_contesto_versione').where({ cod_azienda: cod }).first('versione'))?.versione;
    const before = await stamp(tenant);
    await env.ownerDb('monitoring_statistiche_pari').insert({ cod_azienda: other, giorno: '2026-03-26', mediane: '{}', clienti: 1 });
    assert.equal(await stamp(tenant), before);
    assert.equal((await context()).set, after.set);
  });

  it('refuses bad input before anything is written or evaluated', async () => {
    const bad = await analyst.post('/api/movimenti', { ...cash('rt-6', 1_000), cod_rapporto: 'R-1', importo: -3 });
    assert.equal(bad.status, 422);
    const foreign = await outsider.post('/api/movimenti', { ...cash('rt-7', 1_000), cod_rapporto: 'R-2' });
    assert.equal(foreign.status, 422, 'another tenant\'s relationship does not exist');
  });
});
