import assert from 'node:assert/strict';
import { createNotificationActivities } from '../../activities/notifications/notification.activities';
import { withTenant } from '../../src/db/tenant';
import { notify, type NotifyInput } from '../../src/domains/notifications/notifications.commands';
import { getTestEnv, type TestEnv, type TestUser } from '../helpers/env';
import type { TestClient } from '../helpers/http-client';

describe('notifications', () => {
  let env: TestEnv;
  let tenant: string;
  let other: string;
  let anna: TestUser;
  let bruno: TestUser;
  let straniero: TestUser;
  let annaClient: TestClient;
  let brunoClient: TestClient;

  const send = (input: Omit<NotifyInput, 'codAzienda'> & { codAzienda?: string }) =>
    withTenant(env.deps.db, { codAzienda: input.codAzienda ?? tenant, actor: 'test' }, (trx) => notify(trx, { codAzienda: tenant, ...input }, env.deps.outbox));

  before(async () => {
    env = await getTestEnv();
    [tenant, other] = [await env.createTenant(), await env.createTenant()];
    anna = await env.createUser({ tenant, roles: ['co'] });
    bruno = await env.createUser({ tenant, roles: ['analyst'] });
    straniero = await env.createUser({ tenant: other, roles: ['co'] });
    [annaClient, brunoClient] = await Promise.all([env.login(anna), env.login(bruno)]);
  });

  it('notify() addresses users by id or role inside the tenant, once per dedup key', async () => {
    const byRole = await send({ role: 'co', tipo: 'test', titolo: 'Ai responsabili', link: '/casi', dedupKey: 'k-role' });
    assert.deepEqual(byRole.recipients, [anna.cod_utente]);
    assert.equal(byRole.created, 1);
    assert.equal((await send({ role: 'co', tipo: 'test', titolo: 'Ai responsabili', dedupKey: 'k-role' })).created, 0);
    // A user of another tenant cannot be addressed from this one.
    const foreign = await send({ recipients: [straniero.cod_utente, bruno.cod_utente], tipo: 'test', titolo: 'Solo a Bruno', messaggio: 'Dettaglio', entity: { type: 'case', id: 'C-1' } });
    assert.deepEqual(foreign.recipients, [bruno.cod_utente]);
    const mixed = await send({ recipients: [bruno.cod_utente], role: ['co'], tipo: 'test', titolo: 'A entrambi', link: 'javascript:alert(1)' });
    assert.equal(mixed.created, 2);
    const stored = await env.ownerDb('notifications').where({ cod_azienda: tenant, titolo: 'A entrambi' }).select('link');
    assert.deepEqual(stored.map((r) => r.link), [null, null], 'unsafe links are dropped');
    assert.equal((await send({ recipients: [], tipo: 'test', titolo: 'Nessuno' })).created, 0);
  });

  it('the notifyUsers activity is idempotent', async () => {
    const { notifyUsers } = createNotificationActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config });
    const input = { codAzienda: tenant, recipients: [bruno.cod_utente], tipo: 'sla', titolo: 'Attività ripetuta', dedupKey: 'activity-retry-1' };
    assert.equal((await notifyUsers(input)).created, 1);
    assert.equal((await notifyUsers(input)).created, 0);
    const rows = await env.ownerDb('notifications').where({ cod_utente: bruno.cod_utente, titolo: 'Attività ripetuta' });
    assert.equal(rows.length, 1);
  });

  it('lists the signed-in user\'s notifications, counts and marks them read (idempotent)', async () => {
    const list = await annaClient.get('/api/notifications');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.items.map((n: { titolo: string }) => n.titolo), ['A entrambi', 'Ai responsabili']);
    assert.equal(list.body.total, 2);
    assert.equal(list.body.items[1].link, '/casi');
    assert.equal((await annaClient.get('/api/notifications/unread-count')).body.count, 2);

    const id = list.body.items[1].id as string;
    const first = await annaClient.put(`/api/notifications/${id}/read`);
    assert.equal(first.status, 200, first.text);
    assert.ok(first.body.read_at);
    const again = await annaClient.put(`/api/notifications/${id}/read`);
    assert.equal(again.status, 200);
    assert.equal(again.body.read_at, first.body.read_at, 'a second read keeps the first time');
    assert.equal((await annaClient.get('/api/notifications/unread-count')).body.count, 1);

    const unread = await annaClient.get('/api/notifications?unread=true');
    assert.deepEqual(unread.body.items.map((n: { titolo: string }) => n.titolo), ['A entrambi']);
    const paged = await annaClient.get('/api/notifications?limit=1&offset=1');
    assert.equal(paged.body.total, 2);
    assert.equal(paged.body.items.length, 1);
    assert.equal((await annaClient.get('/api/notifications?limit=1000')).status, 422);
  });

  it('another user\'s or another tenant\'s notification is a 404', async () => {
    const annas = (await annaClient.get('/api/notifications')).body.items as { id: string }[];
    const r = await brunoClient.put(`/api/notifications/${annas[0]!.id}/read`);
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'NOT_FOUND');
    assert.equal((await brunoClient.put('/api/notifications/not-a-uuid/read')).status, 404);
    const foreign = await withTenant(env.deps.db, { codAzienda: other }, (trx) =>
      notify(trx, { codAzienda: other, recipients: [straniero.cod_utente], tipo: 'test', titolo: 'Altra azienda' }, env.deps.outbox));
    assert.equal(foreign.created, 1);
    const [row] = await env.ownerDb('notifications').where({ cod_utente: straniero.cod_utente }).select('id');
    assert.equal((await annaClient.put(`/api/notifications/${row.id}/read`)).status, 404);
    const still = await env.ownerDb('notifications').where({ id: row.id }).first('read_at');
    assert.equal(still.read_at, null);
    assert.ok(!(await brunoClient.get('/api/notifications')).body.items.some((n: { titolo: string }) => n.titolo === 'Altra azienda'));
    assert.equal((await env.client().get('/api/notifications')).status, 401);
  });

  it('the header dropdown fragment shows the unread badge and the latest five', async () => {
    for (let i = 1; i <= 6; i++) await send({ recipients: [bruno.cod_utente], tipo: 'test', titolo: `Avviso numero ${i}` });
    const frag = await brunoClient.get('/partials/notification-dropdown', { accept: 'text/html', 'HX-Request': 'true' });
    assert.equal(frag.status, 200);
    assert.doesNotMatch(frag.text, /<html/);
    const count = (await brunoClient.get('/api/notifications/unread-count')).body.count;
    assert.match(frag.text, new RegExp(`data-testid="unread-count">${count}<`));
    assert.equal((frag.text.match(/data-notification=/g) ?? []).length, 5);
    assert.match(frag.text, /Avviso numero 6/);
    assert.doesNotMatch(frag.text, /Avviso numero 1</);
    assert.match(frag.text, /hx-post="\/notifiche\/[0-9a-f-]{36}\/letta"/);
    // Without htmx the header link leads to the full list.
    const plain = await brunoClient.get('/partials/notification-dropdown', { accept: 'text/html' });
    assert.equal(plain.status, 302);
    assert.equal(plain.headers.get('location'), '/notifiche');
    // Marking read through htmx answers the refreshed fragment.
    const id = (frag.text.match(/data-notification="([0-9a-f-]{36})"/) ?? [])[1]!;
    const token = await brunoClient.csrfToken('/notifiche');
    const marked = await brunoClient.request('POST', `/notifiche/${id}/letta`, { form: { _csrf: token }, headers: { accept: 'text/html', 'HX-Request': 'true' } });
    assert.equal(marked.status, 200);
    assert.match(marked.text, new RegExp(`data-testid="unread-count">${count - 1}<`));
  });

  it('works without JavaScript: the list page and the mark-read form (post/redirect/get)', async () => {
    const page = await brunoClient.get('/notifiche?stato=non-lette', { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.match(page.text, /Avviso numero 1/);
    const id = (page.text.match(/data-notification="([0-9a-f-]{36})"/) ?? [])[1]!;
    const posted = await brunoClient.submitForm(`/notifiche/${id}/letta`, { next: '/notifiche?stato=non-lette' }, '/notifiche');
    assert.equal(posted.status, 302);
    assert.equal(posted.headers.get('location'), '/notifiche?stato=non-lette');
    const after = await brunoClient.get('/notifiche?stato=non-lette', { accept: 'text/html' });
    assert.match(after.text, /Notifica segnata come letta/);
    assert.ok(!after.text.includes(`data-notification="${id}"`));
    // An off-site `next` is ignored.
    const id2 = (after.text.match(/data-notification="([0-9a-f-]{36})"/) ?? [])[1]!;
    const offsite = await brunoClient.submitForm(`/notifiche/${id2}/letta`, { next: '//evil.example/x' }, '/notifiche');
    assert.equal(offsite.headers.get('location'), '/notifiche');
    // Someone else's notification: 404 page; a form without the token: 403.
    const annas = (await annaClient.get('/api/notifications')).body.items as { id: string }[];
    const notMine = await brunoClient.submitForm(`/notifiche/${annas[0]!.id}/letta`, {}, '/notifiche');
    assert.equal(notMine.status, 404);
    assert.match(notMine.text, /Pagina non trovata|non trovata/);
    const noToken = await brunoClient.request('POST', `/notifiche/${id2}/letta`, { form: {}, headers: { accept: 'text/html' } });
    assert.equal(noToken.status, 403);
    const all = await brunoClient.submitForm('/notifiche/lette', {}, '/notifiche');
    assert.equal(all.status, 302);
    assert.equal((await brunoClient.get('/api/notifications/unread-count')).body.count, 0);
  });
});
