import assert from 'node:assert/strict';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createSosActivities } from '../../activities/sos/sos.activities';
import { withTenant } from '../../src/db/tenant';
import { startSos } from '../../src/domains/sos/sos.commands';
import { readEvaluationDays } from '../../src/domains/sos/sos.service';
import type { SessionUser } from '../../src/http/context';
import { workflowsEntry } from '../../temporal/bundle';
import { sosStateQuery, sosTransitionUpdate, type SosEscalation } from '../../workflows/sos/sos.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { startTimeSkippingEnv } from '../helpers/time-skipping';

const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The SOS evaluation timer on Temporal's time-skipping server with the real projections against
 * real PostgreSQL: the term (a tenant setting, 30 days by default) runs from the submission;
 * when the delegate has not decided by then, the compliance officers are notified once.
 */
describe('SOS evaluation timer (time-skipping server)', function () {
  this.timeout(240_000);
  let ts: TestWorkflowEnvironment;
  let env: TestEnv;
  let worker: Worker;
  let running: Promise<void>;
  const escalatedAt = new Map<string, number[]>();
  const taskQueue = 'sos-evaluation-test';

  before(async () => {
    env = await getTestEnv();
    ts = await startTimeSkippingEnv();
    const acts = createSosActivities({ db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch });
    worker = await Worker.create({
      connection: ts.nativeConnection, taskQueue, workflowsPath: workflowsEntry(),
      activities: {
        ...acts,
        async escalateSosEvaluation(p: SosEscalation) {
          escalatedAt.set(p.sosId, [...(escalatedAt.get(p.sosId) ?? []), Context.current().info.scheduledTimestampMs]);
          return acts.escalateSosEvaluation(p);
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

  interface Open { tenant: string; sosId: string; h: WorkflowHandle; users: Record<'analyst' | 'delegate' | 'co', SessionUser> }

  async function open(setting?: number): Promise<Open & { days: number }> {
    const tenant = await env.createTenant();
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'T-1', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente segnalato', created_by: 'test' });
    if (setting) await env.ownerDb('settings').insert({ cod_azienda: tenant, chiave: 'sos.evaluation_days', valore: JSON.stringify(setting), updated_by: 'test' });
    const session = async (role: 'analyst' | 'sos' | 'co') => {
      const u = await env.createUser({ tenant, roles: [role] });
      return { cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: '', nome: '', cognome: '', ruoli: [role], totp_enabled: true } as SessionUser;
    };
    const users = { analyst: await session('analyst'), delegate: await session('sos'), co: await session('co') };
    const days = await withTenant(env.deps.db, { codAzienda: tenant }, (trx) => readEvaluationDays(trx, tenant));
    const made = await startSos({ client: ts.client, taskQueue }, {
      codAzienda: tenant, user: users.analyst, evaluationDays: days,
      data: { tipo: 'originale', origine: 'manuale', cod_anagrafe: 'T-1', oggetto: 'Timer', descrizione: '', content: { operazioni: [], soggetti: [], rapporti: [], legami: [], fenomeni: [], indicatori: [] } },
    });
    return { tenant, sosId: made.sosId, h: ts.client.workflow.getHandle(made.workflowId), users, days };
  }

  const send = (o: Open, who: SessionUser, args: Record<string, unknown>) =>
    o.h.executeUpdate(sosTransitionUpdate, { args: [{ ...args, actor: { id: who.cod_utente, username: who.username, roles: who.ruoli } } as never] });
  const row = (o: Open) => env.ownerDb('sos_reports').where({ id: o.sosId }).first();
  const notes = (o: Open) => env.ownerDb('notifications').where({ cod_azienda: o.tenant, tipo: 'sos_evaluation_overdue' });

  it('escalates to the compliance officer exactly when the 30-day term from the submission passes, once', async () => {
    const o = await open();
    assert.equal(o.days, 30, 'the default term');
    await ts.sleep(5 * DAY); // a draft has no term
    assert.equal((await row(o)).valutazione_scadenza, null);
    await send(o, o.users.analyst, { action: 'submit' });
    const due = new Date((await row(o)).valutazione_scadenza).getTime();
    assert.ok(Math.abs(due - (Number(await ts.currentTimeMs()) + 30 * DAY)) < MINUTE);

    await ts.sleep(due - Number(await ts.currentTimeMs()) - MINUTE);
    assert.equal((await row(o)).escalated, false);
    assert.equal((await notes(o)).length, 0);
    await send(o, o.users.delegate, { action: 'evaluate' });
    await ts.sleep(2 * MINUTE);
    const marks = escalatedAt.get(o.sosId) ?? [];
    assert.equal(marks.length, 1);
    assert.ok(marks[0]! >= due && marks[0]! < due + MINUTE);
    assert.equal((await row(o)).escalated, true);
    const n = await notes(o);
    assert.deepEqual(n.map((x) => x.cod_utente), [o.users.co.cod_utente], 'the compliance officer only');
    assert.doesNotMatch(`${n[0].titolo} ${n[0].messaggio}`, /Cliente segnalato|T-1/, 'the notification names no customer');
    // The e-mail copy sits in the outbox, whose list administrators read: it names neither the report nor its page.
    const mails = await env.ownerDb('outbox_messages').where({ cod_azienda: o.tenant, kind: 'notification' });
    assert.equal(mails.length, 1);
    assert.equal(mails[0].subject, 'Notifica riservata');
    assert.equal(mails[0].entity_type, null);
    const sos = await row(o);
    assert.doesNotMatch(mails[0].subject, new RegExp(sos.cod_segnalazione));
    assert.equal((await o.h.query(sosStateQuery)).escalated, true);
    assert.deepEqual((await env.ownerDb('sos_audit').where({ sos_id: o.sosId }).orderBy('seq')).map((a) => a.action),
      ['sos.create', 'sos.submit', 'sos.evaluate', 'sos.escalate']);

    // Still in evaluation: the decision works and the mark is not repeated.
    assert.equal((await send(o, o.users.delegate, { action: 'to_transmit' })).state.status, 'to_transmit');
    await ts.sleep(40 * DAY);
    assert.equal((escalatedAt.get(o.sosId) ?? []).length, 1);
    assert.equal((await o.h.describe()).status.name, 'RUNNING');
  });

  it('takes the tenant\'s term and never escalates a report decided in time', async () => {
    const o = await open(10);
    assert.equal(o.days, 10);
    await send(o, o.users.analyst, { action: 'submit' });
    await send(o, o.users.delegate, { action: 'evaluate' });
    await ts.sleep(9 * DAY);
    const archived = await send(o, o.users.delegate, { action: 'archive', reason: 'Operatività giustificata dalla documentazione' });
    assert.equal(archived.state.status, 'archived');
    assert.equal((await o.h.describe()).status.name, 'COMPLETED');
    await ts.sleep(5 * DAY);
    assert.equal((escalatedAt.get(o.sosId) ?? []).length, 0);
    assert.equal((await row(o)).escalated, false);
    assert.equal((await notes(o)).length, 0);
  });
});
