import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { openEddCase } from '../../src/domains/edd';
import type { Role } from '../../src/kit/roles';
import { eddStateQuery, eddTransitionUpdate, eddWorkflowId, type EddTransitionArgs } from '../../workflows/edd/edd.contract';
import { getTestEnv, type TestEnv } from '../helpers/env';

const actorOf = (u: { cod_utente: string; username: string; ruoli: Role[] }) => ({ id: u.cod_utente, username: u.username, roles: u.ruoli });
type Actor = ReturnType<typeof actorOf>;

async function rejection(p: Promise<unknown>): Promise<ApplicationFailure> {
  try { await p; } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected an update failure, got ${err}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  }
  assert.fail('the update was accepted');
}

describe('EDD workflow (dev server)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let analyst: Actor;
  let co: Actor;
  let co2: Actor;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    [analyst, co, co2] = (await Promise.all([
      env.createUser({ tenant, roles: ['analyst'] }), env.createUser({ tenant, roles: ['co'] }), env.createUser({ tenant, roles: ['co'] }),
    ])).map(actorOf);
    await env.ownerDb('anagrafe').insert([
      { cod_azienda: tenant, cod_anagrafe: 'ANA-PEP', tipo_soggetto: 'persona_fisica', denominazione: 'Giulia Verdi', pep: true, classe_rischio: 'alto', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-DEL', tipo_soggetto: 'persona_fisica', denominazione: 'Cliente eliminato', pep: true, stato: 'eliminato', eliminato_at: new Date(), eliminato_da: 'test', created_by: 'test' },
      { cod_azienda: tenant, cod_anagrafe: 'ANA-LOW', tipo_soggetto: 'persona_fisica', denominazione: 'Luca Neri', pep: false, classe_rischio: 'basso', nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test' },
    ]);
  });

  const send = (eddId: string, a: Actor, args: Omit<EddTransitionArgs, 'actor'>) =>
    env.temporal.workflow.getHandle(eddWorkflowId(tenant, eddId)).executeUpdate(eddTransitionUpdate, { args: [{ ...args, actor: a }] });
  const rowOf = (id: string) => env.ownerDb('edd_casi').where({ id }).first();
  const stepsOf = (id: string) => env.ownerDb('edd_step').where({ edd_id: id }).orderBy('ordine');

  it('opens a case for a PEP with high risk: progressive code, the standard measures for its reasons, one audit event', async () => {
    const { eddId, view } = await openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-PEP' });
    assert.match(view.cod_edd, /^EDD-\d{6}$/);
    assert.deepEqual(view.motivi, ['pep', 'classe_rischio_alta'], 'the reasons come from the customer record');
    assert.equal(view.stato, 'open');
    assert.equal(view.workflow_id, eddWorkflowId(tenant, eddId));
    const steps = await stepsOf(eddId);
    assert.deepEqual(steps.map((s) => s.tipo), [
      'informazioni_cliente', 'informazioni_titolari', 'scopo_natura_rapporto', 'origine_fondi', 'origine_patrimonio', 'approvazione_alta_direzione', 'monitoraggio_rafforzato',
    ], 'PEP and high risk: every measure once, in the catalogue order');
    assert.ok(steps.every((s) => s.stato === 'aperto'));
    const second = await openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-PEP', motivi: ['operativita_anomala'] });
    assert.equal(Number(second.view.cod_edd.slice(4)), Number(view.cod_edd.slice(4)) + 1, 'codes are progressive per tenant');
    assert.deepEqual((await stepsOf(second.eddId)).map((s) => s.tipo), ['scopo_natura_rapporto', 'origine_fondi', 'monitoraggio_rafforzato']);
    const audits = await env.ownerDb('audit_events').where({ entity_type: 'edd', entity_id: eddId });
    assert.deepEqual(audits.map((a) => a.action), ['edd.create']);
    const desc = await env.temporal.workflow.getHandle(view.workflow_id).describe();
    assert.deepEqual(desc.searchAttributes.RecordType, ['edd']);
  });

  it('refuses a customer without reasons unless one is given, an unknown one and a deleted one', async () => {
    await assert.rejects(openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-LOW' }), (err: { status?: number; errors?: { path: string }[] }) =>
      err.status === 422 && err.errors?.[0]?.path === 'motivi');
    await assert.rejects(openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-NONE', motivi: ['altro'] }), (err: { status?: number; errors?: { path: string }[] }) =>
      err.status === 422 && err.errors?.[0]?.path === 'cod_anagrafe');
    await assert.rejects(openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-DEL' }), (err: { status?: number; errors?: { message: string }[] }) =>
      err.status === 422 && /eliminato/.test(err.errors?.[0]?.message ?? ''));
  });

  it('walks steps → approva refused while a step is open → pending → four-eyes → respingi → approved → closed', async () => {
    const { eddId, view } = await openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-PEP', motivi: ['pep'], misure: ['origine_fondi', 'approvazione_alta_direzione'] });
    const [fondi, direzione] = await stepsOf(eddId);

    const extra = randomUUID();
    const added = await send(eddId, analyst, { action: 'aggiungi-step', step: { id: extra, tipo: 'altro', titolo: 'Visura sulla società del coniuge', descrizione: '', assegnatario: co.id, scadenza: '2027-01-31' } });
    assert.equal(added.state.status, 'open');
    assert.equal(added.step?.ordine, 3);
    assert.equal(added.step?.scadenza, '2027-01-31', 'a due date is a date, not a shifted timestamp');

    const missing = await rejection(send(eddId, analyst, { action: 'completa-step', step_id: fondi.id }));
    assert.equal(missing.type, 'MISSING_FIELDS', 'the outcome note is required');
    assert.equal((await rejection(send(eddId, analyst, { action: 'completa-step', step_id: randomUUID(), esito: 'x' }))).type, 'STEP_NOT_FOUND');

    const done = await send(eddId, analyst, { action: 'completa-step', step_id: fondi.id, esito: 'Fondi da stipendio e vendita immobile (rogito 2024)', riferimento_evidenza: 'DOC-123' });
    assert.equal(done.step?.stato, 'completato');
    assert.equal(done.step?.completed_by, analyst.id);
    assert.equal((await rejection(send(eddId, analyst, { action: 'completa-step', step_id: fondi.id, esito: 'di nuovo' }))).type, 'STEP_COMPLETED');

    const open = await rejection(send(eddId, analyst, { action: 'approva' }));
    assert.equal(open.type, 'STEPS_OPEN', 'approva is refused while a step is open');
    assert.deepEqual([...(open.details?.[0] as { open_steps: string[] }).open_steps].sort(), [direzione.id, extra].sort());

    await send(eddId, co, { action: 'completa-step', step_id: direzione.id, esito: 'Autorizzazione del direttore generale del 3 dicembre' });
    await send(eddId, co, { action: 'completa-step', step_id: extra, esito: 'Nessuna criticità' });
    const pending = await send(eddId, co, { action: 'approva' });
    assert.equal(pending.state.status, 'pending_supervisor');
    assert.equal(pending.record?.submitted_by, co.id);
    const toApprove = await env.ownerDb('notifications').where({ entity_type: 'edd', entity_id: eddId, tipo: 'edd_da_approvare' });
    assert.deepEqual(toApprove.map((n) => n.cod_utente), [co2.id], 'every other compliance officer is told, never the submitter');
    assert.equal(toApprove[0].link, `/edd/${eddId}`);
    assert.ok(await env.ownerDb('outbox_messages').where({ dedup_key: `notification:${toApprove[0].id}` }).first(), 'with its e-mail in the outbox');

    assert.equal((await rejection(send(eddId, analyst, { action: 'aggiungi-step', step: { id: randomUUID(), tipo: 'altro', titolo: 'Tardiva', descrizione: '' } }))).type, 'INVALID_TRANSITION', 'steps are frozen while a supervisor looks');
    assert.equal((await rejection(send(eddId, co, { action: 'approva-supervisore' }))).type, 'FOUR_EYES_REQUIRED', 'the submitter cannot approve');
    assert.equal((await rejection(send(eddId, analyst, { action: 'approva-supervisore' }))).type, 'FORBIDDEN', 'only a compliance officer approves');
    assert.equal((await rejection(send(eddId, co2, { action: 'respingi' }))).type, 'MISSING_FIELDS', 'a rejection needs its reason');

    const back = await send(eddId, co2, { action: 'respingi', reason: 'Manca l\'estratto conto del rogito' });
    assert.equal(back.state.status, 'open');
    assert.equal(back.record?.submitted_by, null);
    assert.equal(back.record?.motivo_respingimento, 'Manca l\'estratto conto del rogito');
    const rejected = await env.ownerDb('notifications').where({ entity_type: 'edd', entity_id: eddId, tipo: 'edd_respinta' });
    assert.deepEqual(rejected.map((n) => n.cod_utente), [co.id], 'the submitter hears of the rejection');

    // Submitted again by the analyst: now the first compliance officer may approve.
    await send(eddId, analyst, { action: 'approva' });
    const approved = await send(eddId, co, { action: 'approva-supervisore' });
    assert.equal(approved.state.status, 'approved');
    assert.equal(approved.record?.approved_by, co.id);
    assert.equal((await rejection(send(eddId, analyst, { action: 'respingi', reason: 'tardi' }))).type, 'INVALID_TRANSITION');

    const closed = await send(eddId, analyst, { action: 'chiudi', reason: 'Misure svolte; monitoraggio rafforzato attivo' });
    assert.equal(closed.state.status, 'closed');
    assert.equal((await env.temporal.workflow.getHandle(view.workflow_id).result()).status, 'closed', 'a closed case ends its workflow');

    const row = await rowOf(eddId);
    assert.equal(row.stato, 'closed');
    assert.equal(row.approved_by, co.id);
    assert.equal(row.submitted_by, analyst.id);
    assert.equal(row.nota_chiusura, 'Misure svolte; monitoraggio rafforzato attivo');
    const actions = (await env.ownerDb('audit_events').where({ entity_type: 'edd', entity_id: eddId }).orderBy('id')).map((a) => a.action);
    assert.deepEqual(actions, [
      'edd.create', 'edd.aggiungi-step', 'edd.completa-step', 'edd.completa-step', 'edd.completa-step', 'edd.approva', 'edd.respingi',
      'edd.approva', 'edd.approva-supervisore', 'edd.chiudi',
    ], 'one audit event per accepted step, none for refusals');
  });

  it('the database refuses an approval by the submitter whoever writes it (four-eyes CHECK)', async () => {
    const { eddId } = await openEddCase(env.deps, { codAzienda: tenant, actor: analyst, codAnagrafe: 'ANA-PEP', motivi: ['pep'], misure: ['origine_fondi'] });
    await assert.rejects(env.ownerDb('edd_casi').where({ id: eddId }).update({ stato: 'approved', submitted_by: co.id, submitted_at: new Date(), approved_by: co.id, approved_at: new Date() }), /edd_casi_four_eyes/);
    const s = await env.temporal.workflow.getHandle(eddWorkflowId(tenant, eddId)).query(eddStateQuery);
    assert.equal(s.status, 'open');
    assert.equal(s.steps.length, 1);
  });
});
