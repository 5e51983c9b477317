import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createCase } from '../../src/domains/cases/cases.commands';
import type { SessionUser } from '../../src/http/context';
import type { Role } from '../../src/kit/roles';
import { caseStateQuery, caseTransitionUpdate, caseWorkflowId } from '../../workflows/case/case.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';

const sessionUser = (u: { cod_utente: string; username: string; ruoli: Role[] }, tenant: string): SessionUser => ({
  cod_utente: u.cod_utente, cod_azienda: tenant, username: u.username, email: `${u.username}@example.test`, nome: 'N', cognome: 'C', ruoli: u.ruoli, totp_enabled: true,
});
const actor = (u: SessionUser) => ({ id: u.cod_utente, username: u.username, roles: u.ruoli });

async function rejection(p: Promise<unknown>): Promise<ApplicationFailure> {
  try { await p; } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected an update failure, got ${err}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  }
  assert.fail('the update was accepted');
}

describe('case workflow (dev server)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: SessionUser;
  let co: SessionUser;
  let co2: SessionUser;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    analyst = sessionUser(await env.createUser({ tenant, roles: ['analyst'] }), tenant);
    co = sessionUser(await env.createUser({ tenant, roles: ['co'] }), tenant);
    co2 = sessionUser(await env.createUser({ tenant, roles: ['co'] }), tenant);
  });

  const temporal = () => ({ client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue });
  const rowOf = (id: string) => env.ownerDb('cases').where({ id }).first();

  it('opens a case: workflow, row, case event and audit event; a repeated create is success', async () => {
    const data = { titolo: 'Bonifici frazionati', descrizione: 'Operazioni sotto soglia', tipo: 'indagine' as const, priorita: 'alta' as const };
    const r = await createCase(temporal(), { codAzienda: tenant, user: analyst, data, slaDays: 30 });
    assert.equal(r.workflowId, caseWorkflowId(tenant, r.caseId));
    assert.equal(r.reply.state.status, 'open');
    assert.equal(r.reply.record?.stato, 'open', 'the create answers the row it wrote');
    const again = await createCase(temporal(), { codAzienda: tenant, user: analyst, data, slaDays: 30, caseId: r.caseId });
    assert.equal(again.reply.state.status, 'open');
    assert.equal(again.reply.record, null, 'a repeated create answers without writing');
    const row = await rowOf(r.caseId);
    assert.equal(row.stato, 'open');
    assert.equal(row.opened_by, analyst.cod_utente);
    assert.equal(row.workflow_id, r.workflowId);
    assert.equal(Math.round((row.sla_due_at.getTime() - row.created_at.getTime()) / 86_400_000), 30);
    const audits = await env.ownerDb('audit_events').where({ entity_type: 'case', entity_id: r.caseId });
    assert.equal(audits.length, 1, 'the second create wrote nothing');
    assert.equal(audits[0].action, 'case.create');
    const desc = await env.temporal.workflow.getHandle(r.workflowId).describe();
    assert.deepEqual(desc.searchAttributes.RecordType, ['case']);
    assert.deepEqual(desc.searchAttributes.CodAzienda, [tenant]);
  });

  it('walks open → escalated → closing → open → closing → closed with four-eyes', async () => {
    const { caseId, workflowId } = await createCase(temporal(), { codAzienda: tenant, user: analyst, data: { titolo: 'Caso', descrizione: '', tipo: 'altro', priorita: 'media' }, slaDays: 10 });
    const h = env.temporal.workflow.getHandle(workflowId);
    const send = (u: SessionUser, args: Record<string, unknown>) => h.executeUpdate(caseTransitionUpdate, { args: [{ ...args, actor: actor(u) } as never] });

    assert.equal((await send(analyst, { action: 'add-event', event: { tipo: 'nota', testo: 'Prima nota' } })).state.status, 'open');
    assert.equal((await send(analyst, { action: 'escalate', reason: 'importi elevati' })).state.status, 'escalated');

    const invalid = await rejection(send(analyst, { action: 'escalate' }));
    assert.equal(invalid.type, 'INVALID_TRANSITION');
    assert.deepEqual((invalid.details?.[0] as { allowed_actions: string[] }).allowed_actions.sort(), ['add-event', 'close']);

    const missing = await rejection(send(analyst, { action: 'close', outcome: 'archiviato' }));
    assert.equal(missing.type, 'MISSING_FIELDS');

    assert.equal((await send(co, { action: 'close', outcome: 'sos_inviata', reason: 'segnalata UIF' })).state.status, 'closing');
    const sameUser = await rejection(send(co, { action: 'complete-closure' }));
    assert.equal(sameUser.type, 'FOUR_EYES_REQUIRED');
    const notCo = await rejection(send(analyst, { action: 'complete-closure' }));
    assert.equal(notCo.type, 'FORBIDDEN');

    assert.equal((await send(analyst, { action: 'reopen', reason: 'manca un documento' })).state.status, 'open');
    const reopened = await rowOf(caseId);
    assert.equal(reopened.stato, 'open');
    assert.equal(reopened.closing_requested_by, null);

    assert.equal((await send(analyst, { action: 'close', outcome: 'archiviato', reason: 'nessun riscontro' })).state.status, 'closing');
    // The analyst asked to close, so the first compliance officer may confirm.
    const done = await send(co, { action: 'complete-closure' });
    assert.equal(done.state.status, 'closed');
    assert.equal(done.record?.stato, 'closed', 'the answer carries the row as the projection wrote it');
    assert.equal(await h.result().then((s) => s.status), 'closed', 'a closed case ends its workflow');

    const row = await rowOf(caseId);
    assert.equal(row.stato, 'closed');
    assert.equal(row.esito, 'archiviato');
    assert.equal(row.closed_by, co.cod_utente);
    const actions = (await env.ownerDb('audit_events').where({ entity_type: 'case', entity_id: caseId }).orderBy('id')).map((a) => a.action);
    assert.deepEqual(actions, ['case.create', 'case.add-event', 'case.escalate', 'case.close', 'case.reopen', 'case.close', 'case.complete-closure']);
    const events = await env.ownerDb('case_events').where({ case_id: caseId });
    assert.equal(events.length, 7, 'one case event per step (opening included), none for rejected updates');
    const desc = await h.describe();
    assert.deepEqual(desc.searchAttributes.RecordStatus, ['closed']);
    void co2;
  });

  it('answers the state query', async () => {
    const { workflowId } = await createCase(temporal(), { codAzienda: tenant, user: co, data: { titolo: 'Q', descrizione: '', tipo: 'screening', priorita: 'bassa' }, slaDays: 5 });
    const s = await env.temporal.workflow.getHandle(workflowId).query(caseStateQuery);
    assert.equal(s.status, 'open');
    assert.equal(s.overdue, false);
    assert.ok(new Date(s.slaDueAt).getTime() > Date.now() + 4 * 86_400_000);
  });
});
