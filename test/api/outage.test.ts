import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { caseStateQuery } from '../../workflows/case/case.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import type { TestClient, TestResponse } from '../helpers/http-client';
import { startOutageStack, type OutageStack } from '../helpers/outage-stack';

/** A write with an Idempotency-Key; a retry sends the very same request. */
const put = (c: TestClient, path: string, json: unknown, key: string) =>
  c.request('PUT', path, { json, headers: { 'idempotency-key': key } });

/** Retries as a client would: while the answer says "not now" (503, or 409 with the key still held), after its Retry-After. */
async function retryUntilAnswered(send: () => Promise<TestResponse>, limitMs = 60_000): Promise<TestResponse> {
  const until = Date.now() + limitMs;
  for (;;) {
    const r = await send();
    const busy = r.status === 503 || (r.status === 409 && r.body?.code === 'IDEMPOTENCY_KEY_IN_USE');
    if (!busy || Date.now() > until) return r;
    await new Promise((res) => setTimeout(res, Math.min(5, Number(r.headers.get('retry-after') ?? 1)) * 1000));
  }
}

function assertUnavailable(r: TestResponse, startedAt: number, what: string) {
  assert.equal(r.status, 503, `${what}: ${r.status} ${r.text}`);
  assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.ok(Number(r.headers.get('retry-after')) > 0, 'Retry-After tells the client when to try again');
  // Bounded, not hung: the deadlines are seconds (database) and 10 s (workflow update).
  assert.ok(Date.now() - startedAt < 20_000, `${what} answered after ${Date.now() - startedAt} ms`);
}

/**
 * A transition with the database stopped, and one with the worker gone: the client gets a
 * clear 503 within seconds, the workflow is left as it was, and a retry with the same
 * Idempotency-Key applies the change exactly once.
 */
describe('outages: database down, worker gone', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let stack: OutageStack;
  let analyst: TestClient;
  let tenant: string;

  before(async () => {
    env = await getTestEnv();
    stack = await startOutageStack(env);
    tenant = await env.createTenant();
    analyst = await stack.login(await env.createUser({ tenant, roles: ['analyst'] }));
  });
  after(async () => { await stack?.stop(); });

  const openCase = async () => {
    const r = await analyst.post('/api/cases', { titolo: `Caso ${randomUUID().slice(0, 8)}`, tipo: 'indagine', priorita: 'media' });
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; workflow_id: string };
  };
  const escalations = async (caseId: string) => {
    const events = await env.ownerDb('case_events').where({ case_id: caseId, tipo: 'transizione' }).count<{ n: number }[]>({ n: '*' });
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'case', entity_id: caseId, action: 'case.escalate' }).count<{ n: number }[]>({ n: '*' });
    return { events: Number(events[0]!.n), audit: Number(audit[0]!.n) };
  };

  it('answers 503 at once while the database is down, and 503 again when it goes down during the transition; the retry applies once', async () => {
    const c = await openCase();

    // Down before the request: the session lookup itself cannot run.
    stack.relay.cut();
    let t0 = Date.now();
    assertUnavailable(await put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'importi anomali' }, 'k-down'), t0, 'database down');
    stack.relay.restore();

    // Down in the middle: the request has read the case and the workflow accepted the update,
    // then the projection finds no database. Its bounded retries give up, the update fails.
    const key = randomUUID();
    stack.beforeActivity('projectCaseTransition', () => stack.relay.cut());
    t0 = Date.now();
    const mid = await put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'importi anomali' }, key);
    assertUnavailable(mid, t0, 'database down during the projection');
    const state = await env.temporal.workflow.getHandle(c.workflow_id).query(caseStateQuery);
    assert.equal(state.status, 'open', 'the workflow did not move without its projection');
    assert.equal(state.transitions, 0);
    stack.relay.restore();
    assert.deepEqual(await escalations(c.id), { events: 0, audit: 0 });

    const again = await retryUntilAnswered(() => put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'importi anomali' }, key));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.stato, 'escalated');
    const replay = await put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'importi anomali' }, key);
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, again.body, 'the retry gets the first answer');
    assert.deepEqual(await escalations(c.id), { events: 1, audit: 1 }, 'applied exactly once');
  });

  it('answers 503 within the update deadline when no worker runs, and the retry with the same key applies once', async () => {
    const c = await openCase();
    const key = randomUUID();
    await stack.stopWorker();
    try {
      const t0 = Date.now();
      assertUnavailable(await put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'worker assente' }, key), t0, 'no worker');
    } finally {
      await stack.startWorker();
    }
    // The first update may now be applied by the new worker; the retry is answered with its outcome.
    const again = await retryUntilAnswered(() => put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'worker assente' }, key));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.stato, 'escalated');
    // Even a different key now finds the transition done: the machine refuses a second escalation.
    const other = await put(analyst, `/api/cases/${c.id}/escalate`, { motivazione: 'worker assente' }, randomUUID());
    assert.equal(other.status, 409);
    assert.deepEqual(await escalations(c.id), { events: 1, audit: 1 }, 'applied exactly once');
  });

  it('refuses a key reused for another request, and keeps answers per caller', async () => {
    const c = await openCase();
    const key = randomUUID();
    const first = await analyst.request('POST', `/api/cases/${c.id}/events`, { json: { tipo: 'nota', testo: 'Prima nota' }, headers: { 'idempotency-key': key } });
    assert.equal(first.status, 201, first.text);
    const same = await analyst.request('POST', `/api/cases/${c.id}/events`, { json: { tipo: 'nota', testo: 'Prima nota' }, headers: { 'idempotency-key': key } });
    assert.equal(same.status, 201);
    assert.equal(same.headers.get('idempotent-replayed'), 'true');
    assert.equal(same.body.event.id, first.body.event.id, 'one note, not two');
    const reused = await analyst.request('POST', `/api/cases/${c.id}/events`, { json: { tipo: 'nota', testo: 'Altra nota' }, headers: { 'idempotency-key': key } });
    assert.equal(reused.status, 422);
    assert.equal(reused.body.code, 'IDEMPOTENCY_KEY_REUSED');
    const notes = await env.ownerDb('case_events').where({ case_id: c.id, tipo: 'nota' });
    assert.equal(notes.length, 1);
    const bad = await analyst.request('POST', `/api/cases/${c.id}/events`, { json: { tipo: 'nota', testo: 'x' }, headers: { 'idempotency-key': 'con spazi' } });
    assert.equal(bad.status, 400);
  });
});
