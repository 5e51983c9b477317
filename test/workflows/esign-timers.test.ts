import assert from 'node:assert/strict';
import { join } from 'node:path';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';
import {
  createCeremonyUpdate, ESIGN_WORKFLOW_TYPE, esignStateQuery, esignTransitionUpdate, esignWorkflowId,
  type EsignCreation, type EsignOtpCheck, type EsignOtpSend, type EsignStep, type EsignWorkflowInput,
} from '../../workflows/esign/esign.contract';

const HOUR = 3_600_000;
const signer = { id: 'signer:x', username: 'firmatario', roles: ['signer'] };
const client = { ip: '203.0.113.1', userAgent: 'test' };
const data = {
  signer: { nome: 'Mario Rossi', email: 'm@example.test' }, document: { nome: 'c.pdf', contenuto_base64: 'QUJD' },
  consent: { testo: 'Accetto', versione: '1' }, tokenHash: 'h',
};

/**
 * The ceremony's 24 h expiry and OTP counter on Temporal's time-skipping server: a day
 * passes in moments with the production duration untouched. Activities are recorders;
 * the code "123456" is the right one.
 *
 * Time moves only where a test sleeps: results are awaited in real time (see
 * TimeSkippingTest.client). A skip the test did not ask for brings the other ceremonies'
 * expiry due while the test is still talking to them, and the test server strands a run
 * whose workflow task cancels a timer or an activity that completed while the task was with
 * the worker (temporalio/sdk-java#2606, #3088): the test would hang, not fail.
 */
describe('e-signature ceremony workflow (time-skipping server)', function () {
  this.timeout(180_000);
  const calls = { ended: [] as { to: string }[], signed: [] as EsignStep[], otp: [] as EsignOtpCheck[], resent: [] as EsignOtpSend[] };
  const activities = {
    async createEsignProjection(_p: EsignCreation) {},
    async acceptEsignTerms(_p: EsignStep) {},
    async presentEsignDocument(_p: EsignStep) { return { documentSha256: 'f'.repeat(64) }; },
    async checkEsignOtp(p: EsignOtpCheck) { calls.otp.push(p); return p.otp === '123456'; },
    async completeEsignSignature(p: EsignStep) { calls.signed.push(p); return { documentSha256: 'f'.repeat(64), signedAt: new Date().toISOString() }; },
    async endEsignCeremony(p: EsignStep & { to: string }) { calls.ended.push({ to: p.to }); },
    async resendEsignCode(p: EsignOtpSend) { calls.resent.push(p); },
  };
  const workflowsPath = join(import.meta.dirname, 'fixtures', 'esign-parent.workflows.ts');
  const suite = useTimeSkippingSuite({ name: 'esign', workflowsPath, activities });

  async function startCeremony(t: TimeSkippingTest, id: string, parentWorkflowId?: string) {
    const now = await t.now();
    const input: EsignWorkflowInput = { codAzienda: 'ES1', ceremonyId: id, expiresAt: new Date(now + 24 * HOUR).toISOString(), parentWorkflowId: parentWorkflowId ?? null };
    const op = new WithStartWorkflowOperation(ESIGN_WORKFLOW_TYPE, { workflowId: esignWorkflowId('ES1', id), taskQueue: t.taskQueue, args: [input], workflowIdConflictPolicy: 'USE_EXISTING' });
    await t.client.workflow.executeUpdateWithStart(createCeremonyUpdate, { args: [{ actor: { id: 'u', username: 'co', roles: ['co'] }, data }], startWorkflowOperation: op });
    const h = await op.workflowHandle();
    const send = (action: 'terms' | 'present' | 'sign' | 'resend', otp?: string) => h.executeUpdate(esignTransitionUpdate, { args: [{ action, actor: signer, client, otp }] });
    return { h, send };
  }

  it('expires 24 h after start, and not before', async () => {
    await suite.run(async (t) => {
      const { h, send } = await startCeremony(t, 'e-1');
      await send('terms');
      await t.sleep(23 * HOUR);
      assert.equal((await h.query(esignStateQuery)).status, 'terms_accepted');
      assert.equal(calls.ended.length, 0);
      await t.sleep(2 * HOUR);
      const result = await h.result();
      assert.equal(result.status, 'expired');
      assert.deepEqual(calls.ended, [{ to: 'expired' }]);
    });
  });

  it('locks after three wrong codes; the lock is final and the timer never fires', async () => {
    const before = calls.ended.length;
    await suite.run(async (t) => {
      const { h, send } = await startCeremony(t, 'e-2');
      await send('terms');
      await send('present');
      assert.equal((await send('sign', '000000')).otpFailures, 1);
      assert.equal((await send('sign', '000001')).status, 'presented');
      const s = await send('sign', '000002');
      assert.equal(s.status, 'locked');
      assert.equal(s.otpFailures, 3);
      // A locked ceremony has finished: no further update reaches it (the API answers 409 from the row).
      await assert.rejects(send('sign', '123456'));
      assert.equal((await h.result()).status, 'locked');
      await t.sleep(48 * HOUR);
    });
    assert.deepEqual(calls.ended.slice(before), [{ to: 'locked' }]);
    assert.equal(calls.signed.filter((s) => s.ceremonyId === 'e-2').length, 0);
  });

  it('signs with the right code after a wrong one and signals the parent workflow', async () => {
    await suite.run(async (t) => {
      const parent = await t.client.workflow.start('esignParentStandIn', { workflowId: 'onboarding:ES1:p1', taskQueue: t.taskQueue });
      const { h, send } = await startCeremony(t, 'e-3', parent.workflowId);
      await send('terms');
      await send('present');
      assert.equal((await send('sign', '999999')).lastOtp, 'wrong');
      const s = await send('sign', '123456');
      assert.equal(s.status, 'signed');
      const got = await parent.result() as { ceremonyId: string; codAzienda: string; documentSha256: string };
      assert.equal(got.ceremonyId, 'e-3');
      assert.equal(got.codAzienda, 'ES1');
      assert.equal(got.documentSha256, 'f'.repeat(64));
      assert.equal((await h.result()).status, 'signed');
    });
  });

  it('tells its parent by signal how it ended unsigned: expired, locked or cancelled', async () => {
    await suite.run(async (t) => {
      const parentOf = (id: string) => t.client.workflow.start('esignParentStandIn', { workflowId: `onboarding:ES1:${id}`, taskQueue: t.taskQueue });
      const [pExpired, pLocked, pCancelled] = await Promise.all([parentOf('p-exp'), parentOf('p-lock'), parentOf('p-cancel')]);
      const expiring = await startCeremony(t, 'e-5', pExpired.workflowId);
      const locking = await startCeremony(t, 'e-6', pLocked.workflowId);
      const cancelling = await startCeremony(t, 'e-7', pCancelled.workflowId);

      await locking.send('terms');
      await locking.send('present');
      for (const otp of ['000000', '000001', '000002']) await locking.send('sign', otp);
      assert.deepEqual(await pLocked.result(), { codAzienda: 'ES1', ceremonyId: 'e-6', status: 'locked' });

      await cancelling.send('terms');
      await cancelling.h.cancel();
      await assert.rejects(cancelling.h.result(), (e: Error) => /cancel/i.test(`${e.message} ${String((e as { cause?: unknown }).cause)}`));
      assert.deepEqual(await pCancelled.result(), { codAzienda: 'ES1', ceremonyId: 'e-7', status: 'cancelled' });
      assert.ok(calls.ended.some((e) => e.to === 'cancelled'), 'the row ends as cancelled');

      assert.equal((await expiring.h.describe()).status.name, 'RUNNING', 'no time has been skipped yet: the expiry is still ahead');
      await t.sleep(25 * HOUR);
      assert.deepEqual(await pExpired.result(), { codAzienda: 'ES1', ceremonyId: 'e-5', status: 'expired' });
      assert.equal((await expiring.h.result()).status, 'expired');
    });
  });

  it('stays signed when the parent workflow does not exist', async () => {
    await suite.run(async (t) => {
      const { h, send } = await startCeremony(t, 'e-4', 'onboarding:ES1:missing');
      await send('terms');
      await send('present');
      assert.equal((await send('sign', '123456')).status, 'signed');
      assert.equal((await h.result()).status, 'signed');
    });
  });

  it('sends a new code at most once a minute and five codes in all; wrong codes keep counting', async () => {
    const refused = (type: string) => (e: unknown) => (e as { cause?: { type?: string } }).cause?.type === type;
    await suite.run(async (t) => {
      const { send } = await startCeremony(t, 'e-8');
      await send('terms');
      await assert.rejects(send('resend'), refused('INVALID_TRANSITION'), 'no code to replace before the document is shown');
      assert.equal((await send('present')).otpSends, 1);
      await assert.rejects(send('resend'), refused('RESEND_TOO_SOON'));
      assert.equal((await send('sign', '000000')).otpFailures, 1);
      await t.sleep(59_000);
      await assert.rejects(send('resend'), refused('RESEND_TOO_SOON'));
      for (let n = 2; n <= 5; n++) {
        await t.sleep(61_000);
        const s = await send('resend');
        assert.equal(s.otpSends, n);
        assert.equal(s.otpFailures, 1, 'a new code does not reset the wrong attempts');
      }
      await t.sleep(61_000);
      await assert.rejects(send('resend'), refused('RESEND_LIMIT'));
      assert.deepEqual(calls.resent.filter((c) => c.ceremonyId === 'e-8').map((c) => c.send), [2, 3, 4, 5]);
      assert.equal((await send('sign', '123456')).status, 'signed');
      await assert.rejects(send('resend'));
    });
  });
});
