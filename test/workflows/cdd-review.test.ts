import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { verifyAuditChain } from '../../src/domains/audit/audit.chain';
import { cancelCddReview, rescheduleCddReview } from '../../src/domains/cdd/cdd-review.commands';
import { HttpError } from '../../src/http/errors';
import { workflowsEntry } from '../../temporal/bundle';
import {
  CDD_REVIEW_WORKFLOW_TYPE, cddReviewStateQuery, cddReviewWorkflowId, type CddReviewInput,
} from '../../workflows/cdd/cdd-review.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { startTimeSkippingEnv } from '../helpers/time-skipping';

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The periodic review on Temporal's time-skipping server with the real activities against
 * real PostgreSQL: years pass in moments, the production durations are untouched, and what
 * is asserted is what the compliance staff would see (the row, the audit trail, the
 * notification) and when it appeared.
 */
describe('periodic CDD review (time-skipping server)', function () {
  this.timeout(240_000);
  let ts: TestWorkflowEnvironment;
  let env: TestEnv;
  let worker: Worker;
  let running: Promise<void>;
  /** Server time (skipped) at which each review was marked due. */
  const dueMarkedAt = new Map<string, number[]>();
  const taskQueue = 'cdd-review-test';

  before(async () => {
    env = await getTestEnv();
    ts = await startTimeSkippingEnv();
    // The notifications' e-mails go to delivery on the shared stack (this worker runs only the review's activities).
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch };
    const cdd = createCddReviewActivities(deps);
    worker = await Worker.create({
      connection: ts.nativeConnection, taskQueue, workflowsPath: workflowsEntry(),
      activities: {
        ...cdd,
        async markCddReviewDue(p: Parameters<typeof cdd.markCddReviewDue>[0]) {
          dueMarkedAt.set(p.reviewId, [...(dueMarkedAt.get(p.reviewId) ?? []), Context.current().info.scheduledTimestampMs]);
          return cdd.markCddReviewDue(p);
        },
      },
    });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await ts?.teardown();
  });

  interface Review { tenant: string; reviewId: string; h: WorkflowHandle; dueAt: number; co: MachineActor; analyst: MachineActor }

  /** A customer with a review due `days` from the server's now, and its workflow running. */
  async function review(days: number): Promise<Review> {
    const tenant = await env.createTenant();
    const coUser = await env.createUser({ tenant, roles: ['co'] });
    const analystUser = await env.createUser({ tenant, roles: ['analyst'] });
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-000001', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente', created_by: 'test' });
    const reviewId = randomUUID();
    const dueAt = Number(await ts.currentTimeMs()) + days * DAY;
    const workflowId = cddReviewWorkflowId(tenant, reviewId);
    await env.ownerDb('cdd_reviews').insert({
      id: reviewId, cod_azienda: tenant, cod_anagrafe: 'ANA-000001', motivo: 'prima_revisione', classe_rischio: 'medio', due_at: new Date(dueAt), workflow_id: workflowId,
    });
    const input: CddReviewInput = { codAzienda: tenant, codAnagrafe: 'ANA-000001', reviewId, dueAt: new Date(dueAt).toISOString() };
    const h = await ts.client.workflow.start(CDD_REVIEW_WORKFLOW_TYPE, { workflowId, taskQueue, args: [input] });
    await h.query(cddReviewStateQuery); // answered once its first task ran: handlers set, search attributes published
    const actor = (u: { cod_utente: string; username: string; ruoli: string[] }) => ({ id: u.cod_utente, username: u.username, roles: u.ruoli });
    return { tenant, reviewId, h, dueAt, co: actor(coUser), analyst: actor(analystUser) };
  }

  const row = (r: Review) => env.ownerDb('cdd_reviews').where({ id: r.reviewId }).first();
  const audit = async (r: Review) => (await env.ownerDb('audit_events').where({ entity_type: 'cdd_review', entity_id: r.reviewId }).orderBy('id')) as { action: string; actor: string; data: Record<string, unknown> }[];
  const notes = (r: Review) => env.ownerDb('notifications').where({ cod_azienda: r.tenant, entity_id: r.reviewId });
  const now = async () => Number(await ts.currentTimeMs());
  const deps = () => ({ db: env.deps.db, client: ts.client });
  /** Moves the server's clock forward to `at`. */
  const sleepUntil = async (at: number) => { const t = await now(); if (at > t) await ts.sleep(at - t); };
  const searchAttributes = async (r: Review) => (await r.h.describe()).searchAttributes as Record<string, unknown[]>;

  async function assertFiredOnceAt(r: Review, at: number) {
    const marks = dueMarkedAt.get(r.reviewId) ?? [];
    assert.equal(marks.length, 1, 'marked due once');
    assert.ok(marks[0]! >= at && marks[0]! < at + MINUTE, `marked due at ${new Date(marks[0]!).toISOString()}, due ${new Date(at).toISOString()}`);
    assert.equal((await row(r)).stato, 'scaduta');
    const n = await notes(r);
    assert.equal(n.length, 1, 'the compliance officer is told once');
    assert.equal(n[0].tipo, 'cdd_review_due');
    assert.equal(n[0].cod_utente, r.co.id);
    assert.equal(await r.h.result(), 'due');
  }

  it('falls due at its due date and not before: the row, the audit event and the notification', async () => {
    const r = await review(365);
    assert.deepEqual((await searchAttributes(r)).RecordType, ['cdd_review']);
    await sleepUntil(r.dueAt - MINUTE);
    assert.equal((await row(r)).stato, 'programmata');
    assert.equal((await notes(r)).length, 0);
    assert.equal((await r.h.query(cddReviewStateQuery)).status, 'scheduled');
    await ts.sleep(2 * MINUTE);
    await assertFiredOnceAt(r, r.dueAt);
    assert.deepEqual((await audit(r)).map((a) => a.action), ['cdd_review.due']);
    const sa = await searchAttributes(r);
    assert.deepEqual(sa.RecordStatus, ['due']);
    assert.deepEqual(sa.CodAzienda, [r.tenant]);
    assert.equal(new Date(sa.DueAt![0] as string).getTime(), r.dueAt);
  });

  it('rescheduled earlier, it falls due at the new date only', async () => {
    const r = await review(365);
    const earlier = r.dueAt - 265 * DAY;
    const state = await rescheduleCddReview(deps(), {
      codAzienda: r.tenant, reviewId: r.reviewId, actor: r.analyst, now: new Date(await now()),
      input: { due_at: new Date(earlier).toISOString(), motivazione: 'Notizie di stampa negative' },
    });
    assert.deepEqual([state.status, state.dueAt, state.changes], ['scheduled', new Date(earlier).toISOString(), 1]);
    const moved = await row(r);
    assert.equal(new Date(moved.due_at).getTime(), earlier);
    assert.equal(moved.stato, 'programmata');
    assert.equal(new Date((await searchAttributes(r)).DueAt![0] as string).getTime(), earlier);

    await sleepUntil(earlier - MINUTE);
    assert.equal((dueMarkedAt.get(r.reviewId) ?? []).length, 0);
    await ts.sleep(2 * MINUTE);
    await assertFiredOnceAt(r, earlier);
    const events = await audit(r);
    assert.deepEqual(events.map((a) => a.action), ['cdd_review.reschedule', 'cdd_review.due']);
    assert.equal(events[0]!.actor, r.analyst.username);
    assert.equal(events[0]!.data.reason, 'Notizie di stampa negative');
    assert.equal(events[0]!.data.previous_due_at, new Date(r.dueAt).toISOString());
    assert.equal(events[0]!.data.due_at, new Date(earlier).toISOString());
    // The first date passes with nothing more: the workflow ended at the new one.
    await sleepUntil(r.dueAt + DAY);
    assert.equal((dueMarkedAt.get(r.reviewId) ?? []).length, 1);
    assert.equal((await notes(r)).length, 1);
  });

  it('rescheduled later, it does not fall due at the old date, then falls due at the new one', async () => {
    const r = await review(100);
    const later = r.dueAt + 100 * DAY;
    await rescheduleCddReview(deps(), {
      codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, now: new Date(await now()),
      input: { due_at: new Date(later).toISOString(), motivazione: 'Documenti in arrivo' },
    });
    await sleepUntil(r.dueAt + DAY);
    assert.equal((dueMarkedAt.get(r.reviewId) ?? []).length, 0, 'the old date passed silently');
    assert.equal((await row(r)).stato, 'programmata');
    assert.equal((await notes(r)).length, 0);
    assert.equal((await r.h.describe()).status.name, 'RUNNING');
    await sleepUntil(later + MINUTE);
    await assertFiredOnceAt(r, later);
  });

  it('cancelled, it ends at once and never falls due', async () => {
    const r = await review(30);
    await ts.sleep(10 * DAY);
    const state = await cancelCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, input: { motivazione: 'Rapporto cessato' } });
    assert.equal(state.status, 'cancelled');
    assert.equal(await r.h.result(), 'cancelled');
    const ended = await r.h.describe();
    assert.ok(ended.closeTime!.getTime() < r.dueAt, 'the workflow ended at the cancellation, not at the due date');
    assert.deepEqual(ended.searchAttributes.RecordStatus, ['cancelled']);
    assert.equal((await row(r)).stato, 'annullata');
    await sleepUntil(r.dueAt + 30 * DAY);
    assert.equal((dueMarkedAt.get(r.reviewId) ?? []).length, 0);
    assert.equal((await notes(r)).length, 0);
    const events = await audit(r);
    assert.deepEqual(events.map((a) => a.action), ['cdd_review.cancel']);
    assert.deepEqual([events[0]!.data.from, events[0]!.data.to, events[0]!.data.reason], ['programmata', 'annullata', 'Rapporto cessato']);
    assert.equal((await verifyAuditChain(env.ownerDb, r.tenant)).ok, true);
  });

  it('answers a bad change with 409 and the allowed actions, 403, 422 or 404, and changes nothing', async () => {
    const r = await review(200);
    const failure = async (p: Promise<unknown>) => {
      const err = await p.then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof HttpError, `expected an HttpError, got ${String(err)}`);
      return err;
    };
    const base = await now();
    const at = (days: number) => new Date(base + days * DAY).toISOString();

    const analystCancel = await failure(cancelCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.analyst, input: { motivazione: 'x' } }));
    assert.equal(analystCancel.status, 403);
    assert.deepEqual(analystCancel.extra.allowed_actions, ['reschedule']);

    const past = await failure(rescheduleCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, now: new Date(base), input: { due_at: at(-1), motivazione: 'x' } }));
    assert.equal(past.status, 422);
    assert.deepEqual((past.extra.errors as { path: string }[]).map((e) => e.path), ['due_at']);
    const tooFar = await failure(rescheduleCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, now: new Date(base), input: { due_at: at(11 * 366), motivazione: 'x' } }));
    assert.equal(tooFar.status, 422);
    const noReason = await failure(rescheduleCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, now: new Date(base), input: { due_at: at(5), motivazione: '  ' } }));
    assert.deepEqual((noReason.extra.errors as { path: string }[]).map((e) => e.path), ['motivazione']);
    const notADate = await failure(rescheduleCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, input: { due_at: 'domani', motivazione: 'x' } }));
    assert.equal(notADate.status, 422);

    const other = await env.createTenant();
    const elsewhere = await failure(cancelCddReview(deps(), { codAzienda: other, reviewId: r.reviewId, actor: r.co, input: { motivazione: 'x' } }));
    assert.equal(elsewhere.status, 404, 'another tenant\'s review does not exist');
    assert.equal((await failure(cancelCddReview(deps(), { codAzienda: r.tenant, reviewId: 'not-a-uuid', actor: r.co, input: { motivazione: 'x' } }))).status, 404);

    assert.equal((await r.h.query(cddReviewStateQuery)).changes, 0);
    assert.equal((await audit(r)).length, 0);

    await cancelCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, input: { motivazione: 'Cliente deceduto' } });
    const again = await failure(cancelCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, input: { motivazione: 'di nuovo' } }));
    assert.equal(again.status, 409);
    assert.equal(again.code, 'INVALID_TRANSITION');
    assert.deepEqual([again.extra.state, again.extra.allowed_actions], ['cancelled', []]);
    const moveCancelled = await failure(rescheduleCddReview(deps(), { codAzienda: r.tenant, reviewId: r.reviewId, actor: r.co, now: new Date(base), input: { due_at: at(5), motivazione: 'x' } }));
    assert.equal(moveCancelled.status, 409);
    assert.deepEqual((await audit(r)).map((a) => a.action), ['cdd_review.cancel']);
  });
});
