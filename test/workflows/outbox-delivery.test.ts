import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { SMTPServer } from 'smtp-server';
import { createOutboxActivities } from '../../activities/outbox/outbox.activities';
import { messaging } from '../../activities/outbox/messaging';
import { projectRoot } from '../../src/config';
import { withTenant } from '../../src/db/tenant';
import { freePort } from '../../src/infra/free-port';
import { startDevMailServer } from '../../src/infra/mail/dev-mail-server';
import { createMailSender } from '../../src/infra/mail/mail-sender';
import {
  MAX_DELIVERY_ATTEMPTS, MESSAGE_DELIVERY_WORKFLOW_TYPE, messageWorkflowId, type DeliveryOutcome,
} from '../../workflows/outbox/outbox.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { startTimeSkippingEnv } from '../helpers/time-skipping';

/**
 * Delivery against a relay that is down, comes back, or refuses: real activities, real
 * PostgreSQL and real SMTP servers, on Temporal's time-skipping server so the production
 * backoff (30 s doubling to 30 min, eight attempts) passes in moments.
 */
describe('outbox delivery (time-skipping server)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let ts: TestWorkflowEnvironment;
  let tenant: string;
  let seq = 0;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    ts = await startTimeSkippingEnv();
  });
  after(async () => { await ts?.teardown(); });

  /** A worker whose relay is at `port` on loopback. */
  async function withRelay<T>(port: number, fn: (taskQueue: string) => Promise<T>): Promise<T> {
    const taskQueue = `outbox-${++seq}`;
    const config = { ...env.deps.config, mail: { ...env.deps.config.mail, smtpUrl: `smtp://127.0.0.1:${port}` } };
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config };
    const worker = await Worker.create({
      connection: ts.nativeConnection, taskQueue, workflowsPath: join(projectRoot, 'workflows', 'outbox', 'outbox.workflow.ts'),
      activities: createOutboxActivities(deps, messaging({ ...deps, mail: createMailSender(config.mail) })),
    });
    try {
      return await worker.runUntil(fn(taskQueue));
    } finally {
      // A failed test leaves no delivery behind: a pending activity would stop time skipping for the next one.
      for (const id of started.splice(0)) await ts.client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
    }
  }
  const started: string[] = [];

  async function queue(to: string) {
    const m = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => env.deps.outbox.enqueue(trx, {
      codAzienda: tenant, kind: 'notification', to, subject: `Prova ${to}`, text: 'Testo della prova', dedupKey: `delivery-test:${to}`,
    }));
    return m!;
  }
  const start = (taskQueue: string, m: { id: string; codAzienda: string }) => {
    started.push(messageWorkflowId(m.codAzienda, m.id));
    return ts.client.workflow.start(MESSAGE_DELIVERY_WORKFLOW_TYPE, {
      taskQueue, workflowId: messageWorkflowId(m.codAzienda, m.id), args: [{ codAzienda: m.codAzienda, messageId: m.id }],
    });
  };
  const rowOf = async (id: string) => env.ownerDb('outbox_messages').where({ id }).first();

  it('retries after the relay was down and delivers once when it is back', async () => {
    const port = await freePort(); // nobody listens yet
    const m = await queue('ritorno@example.test');
    await withRelay(port, async (taskQueue) => {
      const h = await start(taskQueue, m);
      for (let i = 0; !(await rowOf(m.id)).last_error; i++) {
        if (i > 300) throw new Error('the first attempt never failed');
        await new Promise((r) => setTimeout(r, 50));
      }
      const down = await rowOf(m.id);
      assert.equal(down.status, 'pending');
      assert.equal(down.attempts, 1);
      assert.equal(down.claimed_until, null, 'a failed attempt lets the next one in');
      assert.match(down.last_error, /ECONNREFUSED/);
      const relay = await startDevMailServer({ smtpPort: port, webPort: 0 });
      try {
        assert.equal(await h.result() as DeliveryOutcome, 'sent');
        const got = relay.messages().filter((x) => x.to.includes('ritorno@example.test'));
        assert.equal(got.length, 1, 'delivered once');
        assert.equal(got[0]!.messageId, down.message_id);
      } finally {
        await relay.stop();
      }
    });
    const row = await rowOf(m.id);
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 2);
  });

  it('marks the message failed after the last attempt, and keeps the error', async () => {
    const port = await freePort(); // stays closed
    const m = await queue('mai@example.test');
    const outcome = await withRelay(port, async (taskQueue) => (await start(taskQueue, m)).result());
    assert.equal(outcome, 'failed');
    const row = await rowOf(m.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, MAX_DELIVERY_ATTEMPTS);
    assert.match(row.last_error, /ECONNREFUSED/);
    assert.ok(row.failed_at);
    assert.equal(row.sent_at, null);
  });

  it('gives up at once when the relay refuses the recipient for good (5xx)', async () => {
    const refusing = new SMTPServer({
      authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false,
      onRcptTo(_address, _session, cb) { cb(Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 })); },
    });
    const port = await freePort();
    await new Promise<void>((r) => refusing.listen(port, '127.0.0.1', r));
    try {
      const m = await queue('inesistente@example.test');
      const outcome = await withRelay(port, async (taskQueue) => (await start(taskQueue, m)).result());
      assert.equal(outcome, 'failed');
      const row = await rowOf(m.id);
      assert.equal(row.status, 'failed');
      assert.equal(row.attempts, 1, 'no retry of a permanent refusal');
      assert.match(row.last_error, /550/);
    } finally {
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });

  it('lets one attempt at a time send a message: a claimed message is left alone, a sent one is never sent again', async () => {
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config };
    const acts = createOutboxActivities(deps, messaging(deps));
    const m = await queue('una-volta@example.test');
    const input = { codAzienda: tenant, messageId: m.id };
    // As another attempt leaves it while it talks to the relay.
    await env.ownerDb('outbox_messages').where({ id: m.id }).update({ claimed_until: new Date(Date.now() + 60_000) });
    await assert.rejects(acts.deliverOutboxMessage(input), (e: { type?: string }) => e.type === 'DELIVERY_IN_PROGRESS');
    await env.ownerDb('outbox_messages').where({ id: m.id }).update({ claimed_until: null });
    const after = await env.mailbox.cursor();
    assert.equal(await acts.deliverOutboxMessage(input), 'sent');
    assert.equal(await acts.deliverOutboxMessage(input), 'skipped');
    await env.mailbox.waitFor('una-volta@example.test', { after });
    assert.equal((await env.mailbox.list('una-volta@example.test', after)).length, 1);
    const row = await rowOf(m.id);
    assert.equal(row.attempts, 1);
    assert.equal(row.claimed_until, null);
  });
});
