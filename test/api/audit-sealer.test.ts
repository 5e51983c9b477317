import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { withTenant } from '../../src/db/tenant';
import { appendAudit, verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { testAction, waitForSealed } from '../helpers/audit';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** Events are written without a chain lock and chained by the worker's sealer after commit. */
describe('audit chain: sealing after commit', function () {
  this.timeout(60_000);
  let env: TestEnv;

  const event = (cod: string, entityId: string) => ({ codAzienda: cod, actor: 'mario.rossi', action: testAction('pratica.aggiornata'), entityType: 'pratica', entityId });
  const append = (cod: string, entityId: string) => withTenant(env.deps.db, { codAzienda: cod }, (trx) => appendAudit(trx, event(cod, entityId)));
  const rowOf = (id: number) => env.ownerDb('audit_events').where({ id }).first();
  /** Keeps the worker's sealer off one chain while fn runs (it only ever try-locks). */
  const holdingSealer = <T>(chain: string, fn: () => Promise<T>) => env.ownerDb.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`audit-seal:${chain}`]);
    return fn();
  });

  before(async () => { env = await getTestEnv(); });

  it('chains events in commit order, not in the order they were written', async () => {
    const t = await env.createTenant();
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((r) => { releaseFirst = r; });
    let firstId!: number;
    let firstWritten!: () => void;
    const written = new Promise<void>((r) => { firstWritten = r; });
    const first = withTenant(env.deps.db, { codAzienda: t }, async (trx) => {
      firstId = (await appendAudit(trx, event(t, 'LENTA'))).id;
      firstWritten();
      await firstMayCommit; // a long projection: the event is written, the transaction still open
    });
    await written;
    const second = await append(t, 'VELOCE');
    assert.ok(second.id > firstId, 'the second event was written later');
    assert.equal(second.seq, null, 'an event has no place in the chain before it commits');
    await waitForSealed(env.ownerDb, t);
    assert.equal((await rowOf(firstId)), undefined, 'an uncommitted event is not visible, and not sealed');
    releaseFirst();
    await first;
    await waitForSealed(env.ownerDb, t);
    const [a, b] = [await rowOf(firstId), await rowOf(second.id)];
    assert.ok(a.seq > b.seq, `committed later, chained later (${a.seq} > ${b.seq})`);
    assert.equal(a.prev_hash, (await env.ownerDb('audit_events').where({ cod_azienda: t, seq: a.seq - 1 }).first()).hash);
    assert.equal((await verifyAuditChain(env.ownerDb, t)).ok, true);
  });

  it('an event exists only if its transaction commits', async () => {
    const t = await env.createTenant();
    await assert.rejects(withTenant(env.deps.db, { codAzienda: t }, async (trx) => {
      await appendAudit(trx, event(t, 'ANNULLATA'));
      throw new Error('the change fails after its event');
    }), /the change fails/);
    await append(t, 'CONFERMATA');
    await waitForSealed(env.ownerDb, t);
    assert.equal((await env.ownerDb('audit_events').where({ cod_azienda: t, entity_id: 'ANNULLATA' })).length, 0);
    const v = await verifyAuditChain(env.ownerDb, t);
    assert.equal(v.ok, true);
    assert.equal(v.checked, Number((await env.ownerDb('audit_events').where({ cod_azienda: t }).count({ n: '*' }).first())!.n));
  });

  it('many concurrent writers of one tenant: every event chained once, the chain holds', async () => {
    const t = await env.createTenant();
    await Promise.all(Array.from({ length: 16 }, async (_, w) => {
      for (let i = 0; i < 20; i++) await append(t, `W${w}-${i}`);
    }));
    await waitForSealed(env.ownerDb, t);
    const rows = await env.ownerDb('audit_events').where({ cod_azienda: t }).orderBy('seq').select('seq', 'entity_id');
    assert.deepEqual(rows.map((r: { seq: number }) => r.seq), rows.map((_: unknown, i: number) => i + 1), 'seq 1..n without gaps or repeats');
    assert.equal(rows.filter((r: { entity_id: string }) => r.entity_id.startsWith('W')).length, 320);
    const v = await verifyAuditChain(env.ownerDb, t);
    assert.deepEqual([v.ok, v.checked, v.unsealed], [true, rows.length, 0]);
  });

  it('a seal is written once, continuing the chain, and never by a plain UPDATE', async () => {
    const t = await env.createTenant();
    await append(t, 'P-1');
    await waitForSealed(env.ownerDb, t);
    const sealed = await env.ownerDb('audit_events').where({ cod_azienda: t }).orderBy('seq', 'desc').first();
    const inTenant = (fn: (trx: Knex.Transaction) => Promise<unknown>) => withTenant(env.deps.db, { codAzienda: t }, fn);
    await assert.rejects(inTenant((trx) => trx('audit_events').where({ id: sealed.id }).update({ seq: 99 })), /permission denied/);
    await assert.rejects(
      inTenant((trx) => trx.raw('select audit_seal(?, ?::bigint[], ?::bigint[], ?::text[], ?::text[])', [t, `{${sealed.id}}`, `{${sealed.seq + 1}}`, `{${sealed.hash}}`, '{abc}'])),
      /were not unsealed/, 'a sealed event cannot be sealed again',
    );
    await holdingSealer(t, async () => {
      const fresh = await append(t, 'P-2');
      await assert.rejects(
        inTenant((trx) => trx.raw('select audit_seal(?, ?::bigint[], ?::bigint[], ?::text[], ?::text[])', [t, `{${fresh.id}}`, `{${sealed.seq + 5}}`, `{${sealed.hash}}`, '{abc}'])),
        /does not continue/, 'a seal must continue the chain from its head',
      );
      // Even the owner cannot change a sealed event: only the one-time seal passes the trigger.
      await assert.rejects(env.ownerDb('audit_events').where({ id: sealed.id }).update({ actor: 'altro' }), /append-only/);
    });
    await waitForSealed(env.ownerDb, t);
    assert.equal((await verifyAuditChain(env.ownerDb, t)).ok, true);
  });

  it('lists unsealed events first and verify reports the ones left unsealed too long (API and page)', async () => {
    const t = await env.createTenant();
    const admin = await env.login(await env.createUser({ tenant: t, roles: ['admin'] }));
    await waitForSealed(env.ownerDb, t);
    await holdingSealer(t, async () => {
      const fresh = await append(t, 'APPENA-SCRITTO');
      const list = await admin.get('/api/audit/events');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual([list.body.items[0].id, list.body.items[0].seq, list.body.items[0].hash], [fresh.id, null, null]);
      const page = await admin.get('/audit/eventi', { accept: 'text/html' });
      assert.match(page.text, /in attesa/);
      const recent = await admin.get('/api/audit/verify');
      assert.deepEqual([recent.body.ok, recent.body.unsealed, recent.body.reason], [true, 1, null], 'a recent unsealed event is no problem');

      // An event written two minutes ago and still unsealed means that no sealer is running.
      const [old] = await env.ownerDb('audit_events').insert({
        cod_azienda: t, occurred_at: new Date(Date.now() - 120_000), actor: 'x', action: 'test.pratica.vecchia', entity_type: 'pratica', entity_id: 'VECCHIA', data: {},
      }).returning('id');
      const stale = await admin.get('/api/audit/verify');
      assert.equal(stale.status, 200, stale.text);
      assert.deepEqual([stale.body.ok, stale.body.reason, stale.body.broken_event_id, stale.body.stale_unsealed, stale.body.unsealed], [false, 'unsealed', old.id, 1, 2]);
      assert.equal(stale.body.firstBroken, null);
      const verifica = await admin.get('/audit/verifica', { accept: 'text/html' });
      assert.match(verifica.text, /Eventi non concatenati/);
      assert.match(verifica.text, new RegExp(`data-testid="first-unsealed">${old.id}<`));
    });
    await waitForSealed(env.ownerDb, t);
    const after = await admin.get('/api/audit/verify');
    assert.deepEqual([after.body.ok, after.body.unsealed, after.body.reason], [true, 0, null]);
  });
});
