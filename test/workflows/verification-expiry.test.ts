import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createVerificationActivities } from '../../activities/verification/verification.activities';
import { withTenant } from '../../src/db/tenant';
import { createDocumento } from '../../src/domains/records';
import { documentsChanged, insertVerification, type OpenVerificationRequest } from '../../src/domains/verifications';
import { workflowsEntry } from '../../temporal/bundle';
import type { MachineActor } from '../../workflows/lib/machine';
import {
  VERIFICATION_WORKFLOW_TYPE, verificationStateQuery, verificationTransitionUpdate, type VerificationReply, type VerificationTransitionArgs,
} from '../../workflows/verification/verification.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';

const DAY = 86_400_000;
const analyst: MachineActor = { id: randomUUID(), username: 'analista', roles: ['analyst'] };
const co: MachineActor = { id: randomUUID(), username: 'responsabile', roles: ['co'] };
const admin: MachineActor = { id: randomUUID(), username: 'amministratore', roles: ['admin'] };

/** A yyyy-mm-dd day `days` from an instant (UTC calendar). */
const dayFrom = (ms: number, days: number) => new Date(ms + days * DAY).toISOString().slice(0, 10);

/**
 * The verification workflow on the time-skipping server: the validity timer from the tenant's
 * setting (real days, skipped), brought forward by a relied-on document's expiry, recomputed when
 * the document changes (signal), the machine's refusals in the update validator, and a KYB whose
 * approval waits for its checks.
 */
describe('verification workflow: expiry and decisions (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let n = 0;
  const activities: Record<string, unknown> = {};

  before(async () => {
    env = await getTestEnv();
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch };
    Object.assign(activities, createVerificationActivities(deps));
    tenant = await env.createTenant();
    await env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'verifiche.validita_giorni', valore: JSON.stringify(30), updated_by: 'test' });
  });
  // One server per test (each describe below): a server's clock starts at the wall clock, which the
  // rows' deadlines are computed from, and an earlier test's skipped days would be ahead of it.
  const suites = () => useTimeSkippingSuite({ name: 'verification', workflowsPath: workflowsEntry(), activities });

  async function customer(tipo: 'persona_fisica' | 'societa' = 'persona_fisica'): Promise<string> {
    const cod = `VWF-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: tipo, denominazione: `Cliente ${n}`, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' });
    return cod;
  }
  const tx = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(env.deps.db, { codAzienda: tenant, actor: 'test' }, fn);

  /** Opens the verification as the API does: the row in a transaction, then its workflow on this test's queue. */
  async function open(t: TimeSkippingTest, r: Omit<OpenVerificationRequest, 'codAzienda' | 'actor' | 'origine'>) {
    const { row, input } = await tx((trx) => insertVerification(trx, { codAzienda: tenant, actor: analyst, origine: 'manuale', ...r }));
    const h = await t.client.workflow.start(VERIFICATION_WORKFLOW_TYPE, { workflowId: row.workflow_id, taskQueue: t.taskQueue, args: [input] });
    return { h, row };
  }
  const send = (h: Awaited<ReturnType<typeof open>>['h'], args: VerificationTransitionArgs): Promise<VerificationReply> => h.executeUpdate(verificationTransitionUpdate, { args: [args] });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected a refused update, got ${String(err)}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  };
  const row = (id: string) => env.ownerDb('verifiche').where({ id }).first();
  const audit = (id: string) => env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'verifica', entity_id: id }).orderBy('id').pluck('action');

  describe('validity', () => { const suite = suites(); it('expires when the tenant\'s validity (verifiche.validita_giorni) runs out, not a day before', () => suite.run(async (t) => {
    const { h, row: opened } = await open(t, { tipo: 'kyc', codAnagrafe: await customer() });
    const days = (Date.parse(opened.scade_il as string) - Date.parse(opened.created_at as string)) / DAY;
    assert.equal(Math.round(days), 30, 'the tenant\'s setting, not the default 365');
    const started = await send(h, { action: 'start', actor: admin });
    assert.equal(started.record.stato, 'in_progress', 'an administrator may take it in hand');
    assert.equal(started.record.started_by, admin.id);

    await t.sleep(29 * DAY);
    assert.equal((await row(opened.id)).stato, 'in_progress', 'not before its deadline');
    await t.sleep(2 * DAY);
    const expired = await row(opened.id);
    assert.equal(expired.stato, 'expired');
    assert.ok(expired.expired_at instanceof Date);
    assert.equal((await h.result()).status, 'expired', 'the workflow ends with the verification');
    assert.deepEqual(await audit(opened.id), ['verifica.create', 'verifica.start', 'verifica.expire']);
    const ev = await env.ownerDb('audit_events').where({ entity_id: opened.id, action: 'verifica.expire' }).first();
    assert.equal(ev.actor, 'system');
  })); });

  describe('documents', () => { const suite = suites(); it('a relied-on document expiring first brings the expiry forward; a changed document moves it again (signal)', () => suite.run(async (t) => {
    const cod = await customer();
    const now = Date.now();
    const doc = await tx((trx) => createDocumento(trx, tenant, 'test', {
      cod_anagrafe: cod, tipo: 'carta_identita', numero: `CA${n}000AA`, data_rilascio: dayFrom(now, -400), data_scadenza: dayFrom(now, 10),
    }));
    const { h, row: opened } = await open(t, { tipo: 'kyc', codAnagrafe: cod, documentiIds: [doc.id] });
    const first = Date.parse(opened.scade_il as string);
    assert.ok(first > now + 10 * DAY && first < now + 12 * DAY, `the document's expiry (day 10) decides, not the 30 days: ${new Date(first).toISOString()}`);

    // The document records change its expiry (a corrected date): the verification follows it.
    await env.ownerDb('documenti').where({ id: doc.id }).update({ data_scadenza: dayFrom(now, 3) });
    await documentsChanged({ db: env.deps.db, client: t.client, taskQueue: t.taskQueue }, tenant, [doc.id]);
    // The signal is handled and the deadline read again once the workflow runs its next task.
    for (let i = 0; i < 40 && Date.parse((await row(opened.id)).scade_il) === first; i++) await new Promise((r) => setTimeout(r, 100));
    const moved = Date.parse((await row(opened.id)).scade_il);
    assert.ok(moved < now + 5 * DAY && moved > now + 3 * DAY, `brought forward to the day after day 3: ${new Date(moved).toISOString()}`);
    assert.equal((await h.query(verificationStateQuery)).scadeIl, new Date(moved).toISOString());

    await t.sleep(2 * DAY);
    assert.equal((await row(opened.id)).stato, 'pending');
    await t.sleep(3 * DAY);
    assert.equal((await row(opened.id)).stato, 'expired', 'expired with the document, weeks before the 30 days');
    assert.deepEqual(await audit(opened.id), ['verifica.create', 'verifica.scadenza', 'verifica.expire']);
    const change = await env.ownerDb('audit_events').where({ entity_id: opened.id, action: 'verifica.scadenza' }).first();
    assert.equal(change.data.scadenza.tipo, 'documento');
    assert.equal(change.data.scadenza.documento_id, doc.id);
  })); });

  describe('decisions', () => { const suite = suites(); it('the machine decides in the validator; a KYB is approved only once every check passed or was waived, and then never expires', () => suite.run(async (t) => {
    const { h, row: opened } = await open(t, { tipo: 'kyb', codAnagrafe: await customer('societa') });
    const checks = await env.ownerDb('verifiche_checks').where({ verifica_id: opened.id }).orderBy('cod_check');
    assert.equal(checks.length, 7, 'the standard KYB checks');

    assert.equal((await refusal(send(h, { action: 'approve', actor: co }))).type, 'INVALID_TRANSITION', 'pending: start first');
    await send(h, { action: 'start', actor: analyst });
    assert.equal((await refusal(send(h, { action: 'approve', actor: admin }))).type, 'FORBIDDEN', 'an administrator does not decide');
    assert.equal((await refusal(send(h, { action: 'reject', actor: co }))).type, 'MISSING_FIELDS', 'a rejection needs its reason');
    assert.equal((await refusal(send(h, { action: 'expire', actor: co }))).type, 'FORBIDDEN', 'nobody expires one by hand');

    const refused = await refusal(send(h, { action: 'approve', actor: co }));
    assert.equal(refused.type, 'CHECKS_OPEN');
    const details = refused.details?.[0] as { checks: { cod_check: string }[]; allowed_actions: string[] };
    assert.equal(details.checks.length, 7);
    assert.deepEqual(details.allowed_actions, ['reject']);
    assert.equal((await row(opened.id)).stato, 'in_progress', 'nothing written');

    await env.ownerDb('verifiche_checks').where({ verifica_id: opened.id }).whereNot('tipo', 'pep').update({ stato: 'passed' });
    await env.ownerDb('verifiche_checks').where({ verifica_id: opened.id, tipo: 'pep' }).update({ stato: 'waived', motivo_deroga: 'Nessuna persona esposta', waived_by: co.id });
    const approved = await send(h, { action: 'approve', actor: co });
    assert.equal(approved.record.stato, 'approved');
    assert.equal(approved.record.decided_by, co.id);
    assert.equal((await h.result()).status, 'approved');
    await t.sleep(60 * DAY);
    assert.equal((await row(opened.id)).stato, 'approved', 'a decided verification does not expire');
  })); });
});
