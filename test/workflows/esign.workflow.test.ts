import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createEsignActivities } from '../../activities/esign/esign.activities';
import { verifyBundle } from '../../src/domains/esign/esign.bundle';
import { startCeremony, transitionCeremony } from '../../src/domains/esign/esign.commands';
import { esignStateQuery } from '../../workflows/esign/esign.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { wrongCode } from '../helpers/mailbox';

const client = { ip: '198.51.100.9', userAgent: 'Mozilla/5.0 (test)' };

describe('e-signature ceremony workflow (dev server)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  const actor = { id: 'u-co', username: 'co', roles: ['co'] };
  const data = {
    signer: { nome: 'Anna Verdi', email: 'anna@example.test' },
    document: { nome: 'contratto.txt', contenuto_base64: Buffer.from('Testo del contratto').toString('base64') },
  };

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
  });

  const temporal = () => ({ client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue });
  const rowOf = (id: string) => env.ownerDb('esign_ceremonies').where({ id }).first();

  it('runs start → terms → present → sign: row, audit chain, search attributes and a verifiable bundle', async () => {
    const s = await startCeremony(temporal(), { codAzienda: tenant, actor, data });
    assert.equal(s.state.status, 'started');
    const desc = await env.temporal.workflow.getHandle(s.workflowId).describe();
    assert.deepEqual(desc.searchAttributes.RecordType, ['esign']);
    assert.deepEqual(desc.searchAttributes.CodAzienda, [tenant]);
    let row = await rowOf(s.ceremonyId);
    assert.equal(Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 3_600_000), 24);

    await transitionCeremony(temporal(), row, { action: 'terms', client });
    row = await rowOf(s.ceremonyId);
    const after = await env.mailbox.cursor();
    await transitionCeremony(temporal(), row, { action: 'present', client });
    row = await rowOf(s.ceremonyId);
    assert.equal(row.stato, 'presented');
    assert.equal(row.document_sha256, createHash('sha256').update('Testo del contratto').digest('hex'), 'the hash is fixed at present');
    assert.match(row.otp_hash, /^[0-9a-f]{64}$/);
    const signed = await transitionCeremony(temporal(), row, { action: 'sign', client, otp: await env.mailbox.otp('anna@example.test', after) });
    assert.equal(signed.status, 'signed');
    assert.equal(signed.lastOtp, 'ok');

    row = await rowOf(s.ceremonyId);
    assert.equal(row.stato, 'signed');
    assert.equal(row.otp_hash, null, 'the code cannot be used again');
    const v = await verifyBundle(row.bundle);
    assert.ok(v.valid, JSON.stringify(v));
    assert.equal(v.evidence.document.sha256, row.document_sha256);
    assert.equal(v.evidence.client.ip, client.ip);
    assert.equal(v.evidence.cod_azienda, tenant);
    assert.equal((await env.temporal.workflow.getHandle(s.workflowId).result()).status, 'signed');
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'esign_ceremony', entity_id: s.ceremonyId }).orderBy('id').pluck('action');
    assert.deepEqual(audit, ['esign.start', 'esign.terms', 'esign.present', 'esign.sign']);
  });

  it('locks after three wrong codes and keeps the right one from working afterwards', async () => {
    const s = await startCeremony(temporal(), { codAzienda: tenant, actor, data });
    let row = await rowOf(s.ceremonyId);
    await transitionCeremony(temporal(), row, { action: 'terms', client });
    const after = await env.mailbox.cursor();
    await transitionCeremony(temporal(), row, { action: 'present', client });
    const right = await env.mailbox.otp('anna@example.test', after);
    const wrong = wrongCode(right);
    for (let i = 0; i < 2; i++) {
      const st = await transitionCeremony(temporal(), row, { action: 'sign', client, otp: wrong });
      assert.equal(st.status, 'presented');
    }
    const locked = await transitionCeremony(temporal(), row, { action: 'sign', client, otp: wrong });
    assert.equal(locked.status, 'locked');
    row = await rowOf(s.ceremonyId);
    assert.equal(row.stato, 'locked');
    assert.equal(row.otp_attempts, 3);
    assert.equal(row.bundle, null);
    await assert.rejects(transitionCeremony(temporal(), row, { action: 'sign', client, otp: right }), (e: { status?: number }) => e.status === 409);
    const handle = env.temporal.workflow.getHandle(s.workflowId);
    assert.equal((await handle.result()).status, 'locked');
    assert.equal((await handle.query(esignStateQuery)).otpFailures, 3);
  });

  it('a new code replaces the old one (which stops working), once per send number, and goes out by e-mail', async () => {
    const s = await startCeremony(temporal(), { codAzienda: tenant, actor, data });
    let row = await rowOf(s.ceremonyId);
    await transitionCeremony(temporal(), row, { action: 'terms', client });
    let after = await env.mailbox.cursor();
    await transitionCeremony(temporal(), row, { action: 'present', client });
    const old = await env.mailbox.otp('anna@example.test', after);
    // The activity the workflow runs for "resend" (its limits are the workflow's, tested on the time-skipping server).
    const acts = createEsignActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch });
    const step = { codAzienda: tenant, ceremonyId: s.ceremonyId, transitionId: 'resend-1', actor: { id: 'signer', username: 'firmatario', roles: ['signer'] }, send: 2 };
    after = await env.mailbox.cursor();
    await acts.resendEsignCode(step);
    await acts.resendEsignCode(step);
    const fresh = await env.mailbox.otp('anna@example.test', after);
    const codes = await env.ownerDb('outbox_messages').where({ entity_type: 'esign_ceremony', entity_id: s.ceremonyId }).orderBy('created_at').pluck('dedup_key');
    assert.deepEqual(codes, [`esign-otp:${s.ceremonyId}:1`, `esign-otp:${s.ceremonyId}:2`], 'a retried resend issues nothing more');
    row = await rowOf(s.ceremonyId);
    assert.equal(row.otp_sends, 2);
    if (old !== fresh) {
      const st = await transitionCeremony(temporal(), row, { action: 'sign', client, otp: old });
      assert.equal(st.lastOtp, 'wrong', 'the old code stopped working');
    }
    assert.equal((await transitionCeremony(temporal(), row, { action: 'sign', client, otp: fresh })).status, 'signed');
    const audit = await env.ownerDb('audit_events').where({ entity_type: 'esign_ceremony', entity_id: s.ceremonyId }).orderBy('id').pluck('action');
    assert.ok(audit.includes('esign.otp-resent'));
  });
});
