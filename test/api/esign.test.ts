import assert from 'node:assert/strict';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { wrongCode } from '../helpers/mailbox';
import type { TestClient } from '../helpers/http-client';

const DOC = Buffer.from('Contratto di conto corrente: testo integrale.').toString('base64');
const startBody = (over: Record<string, unknown> = {}) => ({
  signer: { nome: 'Mario Rossi', email: 'mario.rossi@example.test' }, document: { nome: 'contratto.pdf', contenuto_base64: DOC }, ...over,
});

describe('e-signature ceremony API', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let co: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let anon: TestClient;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const other = await env.createTenant();
    [co, viewer, outsider] = await Promise.all([
      env.createUser({ tenant, roles: ['co'] }).then((u) => env.login(u)),
      env.createUser({ tenant, roles: ['viewer'] }).then((u) => env.login(u)),
      env.createUser({ tenant: other, roles: ['co', 'analyst'] }).then((u) => env.login(u)),
    ]);
    anon = env.client();
  });

  async function start() {
    const r = await co.post('/api/v1/esign/ceremony/start', startBody());
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; token: string; signing_url: string; stato: string };
  }
  /** Presents the document and reads the code from the signer's mailbox, as the signer would. */
  async function presentAndReadCode(c: { id: string; token: string }, path = `/api/v1/esign/ceremony/${c.id}/present`) {
    const after = await env.mailbox.cursor();
    const r = await anon.post(path, path.includes('?') ? {} : { token: c.token });
    assert.equal(r.status, 200, r.text);
    return { r, code: await env.mailbox.otp('mario.rossi@example.test', after) };
  }

  it('runs the whole ceremony: start, terms, present, sign, receipt PDF and JSON bundle, verify', async () => {
    const c = await start();
    assert.equal(c.stato, 'started');
    assert.ok(c.signing_url.endsWith(`/esign/ceremony/${c.id}?token=${c.token}`));
    const row = await env.ownerDb('esign_ceremonies').where({ id: c.id }).first();
    assert.notEqual(row.token_hash, c.token, 'only the token hash is stored');
    assert.equal(row.workflow_id, `esign:${tenant}:${c.id}`);

    let r = await anon.post(`/api/v1/esign/ceremony/${c.id}/terms`, { token: c.token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'terms_accepted');
    assert.deepEqual(r.body.allowed_actions, ['present']);
    const presentation = await presentAndReadCode(c, `/api/v1/esign/ceremony/${c.id}/present?token=${c.token}`);
    r = presentation.r;
    const code = presentation.code;
    assert.equal(r.body.stato, 'presented');
    assert.match(r.body.document.sha256, /^[0-9a-f]{64}$/);
    const presented = await env.ownerDb('esign_ceremonies').where({ id: c.id }).first();
    assert.match(presented.otp_hash, /^[0-9a-f]{64}$/);
    // The code travels in the outbox sealed: neither the ceremony nor the message row shows it.
    const [message] = await env.ownerDb('outbox_messages').where({ entity_type: 'esign_ceremony', entity_id: c.id });
    assert.equal(message.kind, 'otp');
    assert.equal(message.recipient, 'mario.rossi@example.test');
    assert.ok(!message.body_sealed.includes(code) && !JSON.stringify(presented).includes(code));

    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/sign`, { token: c.token, otp: wrongCode(code) });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.attempts_left, 2);
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/sign`, { token: c.token, otp: code });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.stato, 'signed');
    assert.ok(r.body.signed_at);

    const pdf = await anon.get(`/api/v1/esign/ceremony/${c.id}/receipt?token=${c.token}`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.ok(pdf.text.startsWith('%PDF'));
    const bundle = await co.get(`/api/v1/esign/ceremony/${c.id}/receipt?format=json`);
    assert.equal(bundle.status, 200);
    assert.equal(bundle.body.evidence.ceremony_id, c.id);
    assert.equal(bundle.body.evidence.document.sha256, r.body.document.sha256);

    let v = await anon.post(`/api/v1/esign/ceremony/${c.id}/verify`, { bundle: bundle.body });
    assert.equal(v.status, 200, v.text);
    assert.equal(v.body.valid, true, v.text);
    const jws: string = bundle.body.jws;
    const i = jws.length - 5;
    const tampered = jws.slice(0, i) + (jws[i] === 'A' ? 'B' : 'A') + jws.slice(i + 1);
    v = await anon.post(`/api/v1/esign/ceremony/${c.id}/verify`, { bundle: { jws: tampered } });
    assert.equal(v.body.valid, false);

    const audit = await env.ownerDb('audit_events').where({ entity_type: 'esign_ceremony', entity_id: c.id }).orderBy('id').pluck('action');
    assert.deepEqual(audit, ['esign.start', 'esign.terms', 'esign.present', 'esign.otp-failed', 'esign.sign']);
  });

  it('answers 404 for a wrong or missing token and for another tenant; staff of the tenant may read', async () => {
    const c = await start();
    assert.equal((await anon.get(`/api/v1/esign/ceremony/${c.id}?token=${'x'.repeat(40)}`)).status, 404);
    assert.equal((await anon.get(`/api/v1/esign/ceremony/${c.id}`)).status, 404);
    assert.equal((await anon.post(`/api/v1/esign/ceremony/${c.id}/terms`, { token: 'y'.repeat(40) })).status, 404);
    assert.equal((await anon.post(`/api/v1/esign/ceremony/${c.id}/terms`, {})).status, 404);
    assert.equal((await anon.get('/api/v1/esign/ceremony/not-a-uuid?token=abcdefghijkl')).status, 404);
    assert.equal((await outsider.get(`/api/v1/esign/ceremony/${c.id}`)).status, 404);
    assert.equal((await outsider.get(`/api/v1/esign/ceremony/${c.id}/receipt`)).status, 404);
    const mine = await viewer.get(`/api/v1/esign/ceremony/${c.id}`);
    assert.equal(mine.status, 200);
    assert.equal(mine.body.stato, 'started');
    assert.equal((await anon.get(`/api/v1/esign/ceremony/${c.id}?token=${c.token}`)).status, 200);
  });

  it('rejects bad input (422), starts only for staff writers, and answers 409 with allowed_actions out of order', async () => {
    let r = await co.post('/api/v1/esign/ceremony/start', startBody({ signer: { nome: '', email: 'non-una-mail' } }));
    assert.equal(r.status, 422);
    assert.ok(r.body.errors.some((e: { path: string }) => e.path === 'signer.email'));
    r = await co.post('/api/v1/esign/ceremony/start', startBody({ document: { nome: 'x', contenuto_base64: '***' } }));
    assert.equal(r.status, 422);
    assert.equal((await viewer.post('/api/v1/esign/ceremony/start', startBody())).status, 403);
    assert.equal((await anon.post('/api/v1/esign/ceremony/start', startBody())).status, 401);

    const c = await start();
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/sign`, { token: c.token, otp: '12' });
    assert.equal(r.status, 422);
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/present`, { token: c.token });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.code, 'INVALID_TRANSITION');
    // Every action of the state, whoever may take it (the system's expire and cancel included).
    assert.deepEqual(r.body.allowed_actions, ['terms', 'expire', 'cancel']);
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/sign`, { token: c.token, otp: '123456' });
    assert.equal(r.status, 409);
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/verify`, {});
    assert.equal(r.status, 422);
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/verify`, { bundle: 'a.b.c' });
    assert.equal(r.status, 200);
    assert.equal(r.body.valid, false);
  });

  it('locks the ceremony after three wrong codes; then signing is a 409', async () => {
    const c = await start();
    await anon.post(`/api/v1/esign/ceremony/${c.id}/terms`, { token: c.token });
    const { code } = await presentAndReadCode(c);
    const lefts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await anon.post(`/api/v1/esign/ceremony/${c.id}/sign`, { token: c.token, otp: wrongCode(code) });
      assert.equal(r.status, 422);
      lefts.push(r.body.attempts_left);
    }
    assert.deepEqual(lefts, [2, 1, 0]);
    const s = await anon.get(`/api/v1/esign/ceremony/${c.id}?token=${c.token}`);
    assert.equal(s.body.stato, 'locked');
    const r = await anon.post(`/api/v1/esign/ceremony/${c.id}/sign`, { token: c.token, otp: code });
    assert.equal(r.status, 409);
    assert.deepEqual(r.body.allowed_actions, []);
    assert.equal((await anon.post(`/api/v1/esign/ceremony/${c.id}/resend`, { token: c.token })).status, 409, 'no new code for a locked ceremony');
  });

  it('lets the signer ask for a new code only after a minute (429 with Retry-After), never before the document is shown', async () => {
    const c = await start();
    let r = await anon.post(`/api/v1/esign/ceremony/${c.id}/resend`, { token: c.token });
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body.allowed_actions, ['terms', 'expire', 'cancel']);
    await anon.post(`/api/v1/esign/ceremony/${c.id}/terms`, { token: c.token });
    const { r: presented } = await presentAndReadCode(c);
    assert.ok(presented.body.allowed_actions.includes('resend'));
    assert.equal(presented.body.otp.resends_left, 4);
    assert.ok(Date.parse(presented.body.otp.resend_from) > Date.now());
    r = await anon.post(`/api/v1/esign/ceremony/${c.id}/resend`, { token: c.token });
    assert.equal(r.status, 429, r.text);
    assert.equal(r.body.code, 'TOO_MANY_ATTEMPTS');
    const retryAfter = Number(r.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal((await anon.post(`/api/v1/esign/ceremony/${c.id}/resend`, { token: 'z'.repeat(40) })).status, 404);
    const sends = await env.ownerDb('outbox_messages').where({ entity_type: 'esign_ceremony', entity_id: c.id }).count({ n: '*' });
    assert.equal(Number(sends[0]!.n), 1, 'a refused resend queues nothing');
  });
});
