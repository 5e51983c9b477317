import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { verifyAuditChain } from '../../src/domains/audit';
import { sealChain } from '../../src/domains/audit/audit.sealer';
import { raiseAlerts, type AlertCandidate, type RaisedAlert } from '../../src/domains/monitoring';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { activateDraft, ruleBody, seedCustomers } from '../helpers/monitoring-fixture';
import { raiseAlertsPerHit } from '../helpers/raise-alerts-per-hit';

/**
 * The set-based raiseAlerts (one statement per step for a whole batch) against the reference, the
 * one-hit-after-the-other raise it replaced (test/helpers/raise-alerts-per-hit.ts): two tenants with
 * the same customers and rules are sent the same hits, one through each; their alerts, hits, audit
 * events, movement links and answers must be the same, ids and codes aside.
 */
describe('monitoring alerts: the set-based raise against the per-hit raise', function () {
  this.timeout(180_000);
  let env: TestEnv;
  const tenants: { cod: string; movements: Map<string, string[]>; byId: Map<string, string> }[] = [];
  const raisers = [raiseAlertsPerHit, raiseAlerts];

  before(async () => {
    env = await getTestEnv();
    const co = async (tenant: string) => env.login(await env.createUser({ tenant, roles: ['co'] }));
    for (let t = 0; t < 2; t++) {
      const cod = await env.createTenant();
      const { movements } = await seedCustomers(env.ownerDb, cod, 4, 6);
      const client = await co(cod);
      for (const [rule, over] of [
        ['contanti', {}],
        ['paesi', { tipologia: 'paesi_alto_rischio', livello: 'rapporto', finestra_dedup_giorni: 0 }],
        ['volume', { tipologia: 'picco_volume', finestra_dedup_giorni: 7 }],
      ] as const) {
        const r = await client.post('/api/monitoring/rules', ruleBody(rule, over));
        assert.equal(r.status, 201, r.text);
        await activateDraft(env, cod, r.body.bozza.id);
      }
      const byCustomer = new Map<string, string[]>();
      for (const m of movements) byCustomer.set(m.cod_anagrafe, [...byCustomer.get(m.cod_anagrafe) ?? [], m.id]);
      const byId = new Map(movements.map((m) => [m.id, `${m.cod_anagrafe}#${byCustomer.get(m.cod_anagrafe)!.indexOf(m.id)}`]));
      tenants.push({ cod, movements: byCustomer, byId });
    }
  });

  /** Hits like a replay's batch: overlapping and separate windows, hits already sent, days out of order, a hand-made alert. */
  function hits(seed: number, n: number, pool: string[]): ((t: (typeof tenants)[number]) => AlertCandidate)[] {
    let s = seed;
    const rnd = (k: number) => { s = (s * 1_103_515_245 + 12_345) % 2_147_483_648; return Math.floor((s / 2_147_483_648) * k); };
    const day = (o: number) => new Date(Date.UTC(2026, 0, 1) + o * 86_400_000).toISOString().slice(0, 10);
    const out: ((t: (typeof tenants)[number]) => AlertCandidate)[] = [];
    for (let i = 0; i < n; i++) {
      const cust = `C-${1 + rnd(4)}`;
      const rule = ['contanti', 'paesi', 'volume'][rnd(3)]!;
      const start = rnd(120);
      const da = day(start);
      const a = day(start + rnd(10));
      const again = pool.length && rnd(8) === 0;
      const key = again ? pool[rnd(pool.length)]! : `${rule}:${cust}:${seed}:${i}`;
      if (!again) pool.push(key);
      const rapporto = rule === 'paesi' ? `R-${1 + rnd(2)}` : undefined;
      const when = new Date(`${a}T20:00:00Z`);
      const punteggio = 40 + rnd(56);
      const evidenza = { valore: rnd(100_000), i };
      const picks = Array.from({ length: rnd(4) }, () => rnd(6));
      out.push((t) => ({
        codAnagrafe: cust, codRapporto: rapporto, regola: { codRegola: rule, versione: 1 }, origine: 'replay', punteggio, dataRilevazione: when,
        finestraDa: da, finestraA: a, chiaveRiscontro: key, evidenza,
        movimenti: picks.map((k) => ({ id: t.movements.get(cust)![k]!, data_operazione: `2026-03-${String(10 + k).padStart(2, '0')}` })),
      }));
    }
    out.splice(rnd(n), 0, () => ({
      codAnagrafe: 'C-2', tipologia: 'fan_in', origine: 'manuale', punteggio: 50, dataRilevazione: new Date('2026-02-01T10:00:00Z'),
      finestraDa: '2026-01-20', finestraA: '2026-02-01', chiaveRiscontro: `manuale:${seed}`, evidenza: { nota: 'a mano' },
    }));
    return out;
  }

  /** Everything the raise wrote for a tenant, ids and codes replaced by the alerts' order (their codes'). */
  async function snapshot(t: (typeof tenants)[number], answers: RaisedAlert[][]) {
    const db: Knex = env.ownerDb;
    const alerts = await db('monitoring_alert').where({ cod_azienda: t.cod }).orderBy('numero').select(
      'id', 'cod_alert', 'cod_anagrafe', 'cod_rapporto', 'cod_regola', 'versione', 'tipologia', 'origine', 'stato', 'punteggio', 'data_rilevazione',
      db.raw('finestra_da::text as finestra_da'), db.raw('finestra_a::text as finestra_a'), 'ultimo_riscontro', 'riscontri', 'chiave_dedup', 'cod_decisione', 'evidenza', 'raised_by',
      db.raw('deleted_at is not null as eliminato'),
    ) as Record<string, unknown>[];
    const rank = new Map<unknown, number>(alerts.flatMap((a, i) => [[a.id, i], [a.cod_alert, i]]));
    const hitRows = await db('monitoring_alert_riscontri').where({ cod_azienda: t.cod }).orderBy('chiave').select(
      'chiave', 'alert_id', 'origine', 'versione', 'punteggio', 'data_rilevazione', db.raw('finestra_da::text as da'), db.raw('finestra_a::text as a'), 'cod_decisione', 'evidenza');
    const audit = await db('audit_events').where({ cod_azienda: t.cod, entity_type: 'monitoring_alert' }).orderBy('id').select('actor', 'action', 'entity_id', 'data');
    const links = await db('monitoring_alert_movimenti').where({ cod_azienda: t.cod }).select('alert_id', 'movimento_id', db.raw('data_operazione::text as d'));
    return {
      // A hand-made alert's dedup key is its own id.
      alerts: alerts.map(({ id: _id, cod_alert: _c, ...a }) => ({ ...a, chiave_dedup: String(a.chiave_dedup).startsWith('manuale|') ? 'manuale' : a.chiave_dedup })),
      hits: hitRows.map((h) => ({ ...h, alert_id: rank.get(h.alert_id) })),
      audit: audit.map((e) => ({ ...e, entity_id: rank.get(e.entity_id), data: { ...e.data, ...(e.data.cod_alert ? { cod_alert: rank.get(e.data.cod_alert) } : {}) } })),
      links: links.map((l) => `${rank.get(l.alert_id)}|${t.byId.get(l.movimento_id)}|${l.d}`).sort(),
      answers: answers.map((call) => call.map((r) => ({ ...r, id: rank.get(r.id), cod_alert: rank.get(r.cod_alert) }))),
    };
  }

  it('writes the same alerts, hits, audit events and movement links, and answers the same, as raising one hit after the other', async () => {
    const pool: string[] = [];
    const calls = [hits(7, 60, pool), hits(11, 1, pool), hits(13, 400, pool)];
    const answers: RaisedAlert[][][] = [[], []];
    for (const [k, call] of calls.entries()) {
      for (const [i, t] of tenants.entries()) {
        answers[i]!.push(await withTenant(env.deps.db, { codAzienda: t.cod, actor: 'test' }, (trx) => raisers[i]!(trx, t.cod, call.map((h) => h(t)), { actor: 'sistema:test' })));
        if (k === 0) {
          // Between the calls an analyst takes one alert and deletes another: the next hits see both.
          const ids = await env.ownerDb('monitoring_alert').where({ cod_azienda: t.cod }).orderBy('numero').pluck('id') as string[];
          await env.ownerDb('monitoring_alert').where({ id: ids[1] }).update({ stato: 'assigned' });
          await env.ownerDb('monitoring_alert').where({ id: ids[2] }).update({ deleted_at: new Date(), deleted_by: 'test', motivo_eliminazione: 'prova' });
        }
      }
    }
    const [reference, setBased] = [await snapshot(tenants[0]!, answers[0]!), await snapshot(tenants[1]!, answers[1]!)];
    assert.ok(reference.alerts.length > 20 && reference.hits.length > 300, `a batch worth comparing (${reference.alerts.length} alerts, ${reference.hits.length} hits)`);
    const esiti = new Set(reference.answers.flat().map((r) => r.esito));
    assert.deepEqual([...esiti].sort(), ['aggiornato', 'gia_registrato', 'nuovo']);
    assert.ok(reference.audit.some((e) => e.action === 'monitoring.alert.hit' && e.data.stato === 'assigned'), 'a hit added to the alert taken meanwhile');
    assert.deepEqual(setBased.answers, reference.answers);
    assert.deepEqual(setBased.alerts, reference.alerts);
    assert.deepEqual(setBased.hits, reference.hits);
    assert.deepEqual(setBased.audit, reference.audit);
    assert.deepEqual(setBased.links, reference.links);
  });

  it('leaves an audit chain that seals and verifies', async () => {
    const t = tenants[1]!;
    for (let i = 0; i < 50; i++) {
      await sealChain(env.deps.db, t.cod);
      const v = await verifyAuditChain(env.ownerDb, t.cod);
      if (v.unsealed === 0) { assert.equal(v.ok, true, JSON.stringify(v)); assert.ok(v.checked > 400); return; }
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail('the chain was not sealed');
  });

  it('writes nothing when one candidate of the batch is refused', async () => {
    const t = tenants[1]!;
    const before = await env.ownerDb('monitoring_alert_riscontri').where({ cod_azienda: t.cod }).count('* as n').first();
    const batch = hits(17, 20, []).map((h) => h(t));
    batch.push({ ...batch[0]!, chiaveRiscontro: 'rifiutato', regola: { codRegola: 'contanti', versione: 9 } });
    const err = await withTenant(env.deps.db, { codAzienda: t.cod, actor: 'test' }, async (trx) => {
      const e = await raiseAlerts(trx, t.cod, batch).then(() => undefined, (x: unknown) => x);
      // The caller's transaction goes on: the refused call wrote nothing in it.
      assert.equal(await trx('monitoring_alert_riscontri').count('* as n').first().then((x) => Number(x!.n)), Number(before!.n));
      return e;
    });
    assert.deepEqual((err as { errors: { path: string }[] }).errors.map((e) => e.path), [`candidati.${batch.length - 1}.regola`]);
  });
});
