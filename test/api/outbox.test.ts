import assert from 'node:assert/strict';
import { withTenant } from '../../src/db/tenant';
import { notify } from '../../src/domains/notifications/notifications.commands';
import { startDeliveries } from '../../src/domains/outbox/outbox.dispatch';
import { messageWorkflowId, OUTBOX_SWEEP_WORKFLOW_TYPE } from '../../workflows/outbox/outbox.contract';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

/**
 * The outbox on the real stack: a message commits with its cause or not at all, reaches
 * the local SMTP server once, is found by the sweep when its start was lost, and shows on
 * the operators' page, where a failed one can be retried.
 */
describe('outbox: messages that really leave', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let co: TestUser;
  let admin: TestClient;
  let otherAdmin: TestClient;
  let superadmin: TestClient;
  let viewer: TestClient;

  const outboxOf = (where: Record<string, unknown>) => env.ownerDb('outbox_messages').where(where).orderBy('created_at');
  const until = async <T>(probe: () => Promise<T | undefined | null | false>, what: string, ms = 30_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    env = await getTestEnv();
    [tenant, other] = [await env.createTenant(), await env.createTenant()];
    co = await env.createUser({ tenant, roles: ['co'] });
    [admin, otherAdmin, superadmin, viewer] = await Promise.all([
      env.createUser({ tenant, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['admin'] }).then((u) => env.login(u)),
      env.createUser({ tenant: null, roles: ['superadmin'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
    ]);
  });

  it('writes a message only with its cause: a rolled back notification leaves no e-mail behind', async () => {
    await assert.rejects(withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, async (trx) => {
      const r = await notify(trx, { codAzienda: tenant, recipients: [co.cod_utente], tipo: 'test', titolo: 'Mai avvenuto', dedupKey: 'rollback-1' }, env.deps.outbox);
      assert.equal(r.messages.length, 1, 'queued inside the transaction');
      throw new Error('the cause fails after the message was written');
    }), /the cause fails/);
    assert.equal((await env.ownerDb('notifications').where({ cod_azienda: tenant, titolo: 'Mai avvenuto' })).length, 0);
    assert.equal((await outboxOf({ cod_azienda: tenant, subject: 'Mai avvenuto' })).length, 0);
  });

  it('e-mails a staff notification once, with a stable Message-ID, and never sends a sent message again', async () => {
    const after = await env.mailbox.cursor();
    const input = { codAzienda: tenant, recipients: [co.cod_utente], tipo: 'test', titolo: 'Caso da guardare', messaggio: 'Il caso attende te.', link: '/casi', dedupKey: 'once-1' };
    const first = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => notify(trx, input, env.deps.outbox));
    await env.deps.dispatch(first.messages);
    // The same cause again queues nothing (the notification's dedup key, then the message's).
    const again = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => notify(trx, input, env.deps.outbox));
    assert.deepEqual(again.messages, []);

    const mail = await env.mailbox.waitFor(`${co.username}@example.test`, { subject: /Caso da guardare/, after });
    assert.match(mail.text, /Il caso attende te\./);
    assert.ok(mail.text.includes(`${env.deps.config.publicBaseUrl}/casi`), 'the e-mail leads back to the page');
    const [row] = await outboxOf({ id: first.messages[0]!.id });
    assert.equal(row.kind, 'notification');
    const sent = await until(async () => (await outboxOf({ id: row.id }))[0].status === 'sent' && (await outboxOf({ id: row.id }))[0], 'sent mark');
    assert.equal(sent.attempts, 1);
    assert.ok(sent.sent_at);
    assert.equal(mail.messageId, row.message_id, 'the Message-ID is the outbox row\'s');

    // A second delivery of the same message (a duplicate start after it finished) sends nothing.
    const handle = env.temporal.workflow.getHandle(messageWorkflowId(tenant, row.id));
    assert.equal(await handle.result(), 'sent');
    await startDeliveries(env.temporal, env.deps.config.temporal.taskQueue, [{ id: row.id, codAzienda: tenant }]);
    assert.equal(await handle.result(), 'skipped', 'the new run found the message sent');
    assert.equal((await env.mailbox.list(`${co.username}@example.test`, after)).filter((m) => m.messageId === row.message_id).length, 1);
  });

  it('delivers a message whose start was lost: the sweep finds pending messages older than a minute', async () => {
    const after = await env.mailbox.cursor();
    const queued = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => env.deps.outbox.enqueue(trx, {
      codAzienda: tenant, kind: 'notification', to: 'dimenticato@example.test', subject: 'Rimasto in coda', text: 'Un processo è morto dopo il commit.', dedupKey: 'lost-start-1',
    }));
    assert.ok(queued);
    await env.ownerDb('outbox_messages').where({ id: queued.id }).update({ updated_at: env.ownerDb.raw("now() - interval '2 minutes'") });
    const r = await env.temporal.workflow.execute(OUTBOX_SWEEP_WORKFLOW_TYPE, { taskQueue: env.deps.config.temporal.taskQueue, workflowId: `outbox-sweep:test-${queued.id}`, args: [] });
    assert.ok((r as { started: number }).started >= 1);
    const mail = await env.mailbox.waitFor('dimenticato@example.test', { after });
    assert.equal(mail.subject, 'Rimasto in coda');
  });

  it('shows the operators the outbox of their tenant, with filters; failed messages can be retried once', async () => {
    const failed = await withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, (trx) => env.deps.outbox.enqueue(trx, {
      codAzienda: tenant, kind: 'outcome', to: 'respinto@example.test', subject: 'Esito non consegnato', text: 'Testo', dedupKey: 'failed-1',
    }));
    const foreign = await withTenant(env.deps.db, { codAzienda: other, actor: 'test' }, (trx) => env.deps.outbox.enqueue(trx, {
      codAzienda: other, kind: 'outcome', to: 'altrove@example.test', subject: 'Di un\'altra azienda', text: 'Testo', dedupKey: 'failed-2',
    }));
    // As the delivery leaves them when the retries ran out.
    for (const m of [failed!, foreign!]) {
      await env.ownerDb('outbox_messages').where({ id: m.id }).update({ status: 'failed', attempts: 8, last_error: 'connect ECONNREFUSED 127.0.0.1:2525', failed_at: new Date() });
    }

    let r = await admin.get('/api/v1/admin/outbox?status=failed');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.items.map((m: { id: string }) => m.id), [failed!.id], 'only the tenant\'s own messages');
    assert.equal(r.body.items[0].last_error, 'connect ECONNREFUSED 127.0.0.1:2525');
    assert.equal(r.body.items[0].attempts, 8);
    assert.equal(r.body.items[0].body_sealed, undefined, 'the body never leaves the database');
    assert.equal((await admin.get('/api/v1/admin/outbox?status=perso')).status, 422);
    r = await superadmin.get(`/api/v1/admin/outbox?status=failed&cod_azienda=${other}`);
    assert.deepEqual(r.body.items.map((m: { id: string }) => m.id), [foreign!.id], 'a superadmin sees every tenant, filtered');
    assert.equal((await viewer.get('/api/v1/admin/outbox')).status, 403);

    let page = await admin.get('/organizzazione/messaggi?status=failed', { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /Esito non consegnato/);
    assert.match(page.text, /ECONNREFUSED/);
    assert.match(page.text, /Riprova/);
    assert.doesNotMatch(page.text, /altra azienda/);
    assert.match(page.text, /href="\/organizzazione\/messaggi"/, 'the navigation lists the page under Organizzazione');
    page = await superadmin.get(`/organizzazione/messaggi?kind=outcome&cod_azienda=${other}`, { accept: 'text/html' });
    assert.match(page.text, /altra azienda/);
    assert.doesNotMatch(page.text, /Esito non consegnato/);
    assert.equal((await viewer.get('/organizzazione/messaggi', { accept: 'text/html' })).status, 403);

    // Another tenant's message is a 404 to an admin.
    assert.equal((await otherAdmin.post(`/api/v1/admin/outbox/${failed!.id}/retry`, {})).status, 404);
    const after = await env.mailbox.cursor();
    const form = await admin.submitForm(`/organizzazione/messaggi/${failed!.id}/riprova`, { filtri: '?status=failed' }, '/organizzazione/messaggi');
    assert.equal(form.status, 302);
    assert.equal(form.headers.get('location'), '/organizzazione/messaggi?status=failed');
    const mail = await env.mailbox.waitFor('respinto@example.test', { after });
    assert.equal(mail.subject, 'Esito non consegnato');
    const row = await until(async () => { const [m] = await outboxOf({ id: failed!.id }); return m.status === 'sent' && m; }, 'sent after retry');
    assert.equal(row.attempts, 9, 'attempts keep counting');
    r = await admin.post(`/api/v1/admin/outbox/${failed!.id}/retry`, {});
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'MESSAGE_NOT_FAILED');
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, action: 'outbox.retry', entity_id: failed!.id });
    assert.equal(audit.length, 1, 'the retry is audited');

    // The superadmin retries any tenant's message through the API.
    r = await superadmin.post(`/api/v1/admin/outbox/${foreign!.id}/retry`, {});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'pending');
    await env.mailbox.waitFor('altrove@example.test', { after });
  });
});
