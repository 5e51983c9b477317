import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { esignCompletedSignal, esignEndedSignal, esignWorkflowId } from '../../workflows/esign/esign.contract';
import {
  createDossierUpdate, DOSSIER_SUBJECT_UNKNOWN, DOSSIER_WORKFLOW_TYPE, dossierStateQuery, dossierTransitionUpdate, dossierWorkflowId, SIGNATURE_PENDING,
  type DossierTransitionArgs,
} from '../../workflows/dossier/dossier.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, type TestEnv } from '../helpers/env';

/** The type of the application failure an update was refused with. */
async function refusal(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) return err.cause.type ?? undefined;
    throw err;
  }
  return undefined;
}

describe('dossier workflow (dev server): generation, signing child, archive', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let tenant: string;
  let co: MachineActor;

  before(async () => {
    env = await getTestEnv();
    tenant = await env.createTenant();
    const u = await env.createUser({ tenant, roles: ['co'] });
    co = { id: u.cod_utente, username: u.username, roles: ['co'] };
    await env.ownerDb('anagrafe').insert({ cod_azienda: tenant, cod_anagrafe: 'ANA-WF0001', tipo_soggetto: 'societa', denominazione: 'Officine Reggiane S.p.A.', created_by: 'seed' });
  });

  const start = async (dossierId: string) => env.temporal.workflow.start(DOSSIER_WORKFLOW_TYPE, {
    workflowId: dossierWorkflowId(tenant, dossierId), taskQueue: env.deps.config.temporal.taskQueue, args: [{ codAzienda: tenant, dossierId }],
  });

  it('generates the PDF once, refuses an unknown customer, signs through a child ceremony (restarted after one ended unsigned) and archives', async () => {
    const id = '5b1d7c3e-0000-4000-8000-00000000d055';
    const h = await start(id);
    const made = await h.executeUpdate(createDossierUpdate, { args: [{ actor: co, data: { cod_anagrafe: 'ANA-WF0001', sezioni: ['identita', 'movimenti'] } }] });
    assert.equal(made.state.status, 'generated');
    assert.equal(made.record?.stato, 'generated');
    assert.deepEqual(made.record?.sezioni, ['identita', 'movimenti']);
    const row = await env.ownerDb('dossiers').where({ id }).first();
    assert.equal(row.pdf.subarray(0, 5).toString(), '%PDF-');
    const again = await h.executeUpdate(createDossierUpdate, { args: [{ actor: co, data: { cod_anagrafe: 'ANA-WF0001', sezioni: ['identita'] } }] });
    assert.equal(again.record, null, 'a repeated create changes nothing');
    assert.equal((await env.ownerDb('dossiers').where({ cod_azienda: tenant })).length, 1);

    const send = (args: Omit<DossierTransitionArgs, 'actor'>) => h.executeUpdate(dossierTransitionUpdate, { args: [{ ...args, actor: co }] });
    assert.equal(await refusal(send({ action: 'complete-signing' })), 'INVALID_TRANSITION');
    const first = await send({ action: 'sign' });
    assert.equal(first.state.status, 'signing');
    const child1 = first.state.ceremony!.id;
    const desc = await env.temporal.workflow.getHandle(esignWorkflowId(tenant, child1)).describe();
    assert.equal(desc.type, 'esignCeremonyWorkflow');
    assert.equal(desc.parentExecution?.workflowId, dossierWorkflowId(tenant, id));
    assert.equal(await refusal(send({ action: 'complete-signing' })), SIGNATURE_PENDING);
    assert.equal(await refusal(send({ action: 'sign' })), SIGNATURE_PENDING);

    // The ceremony ends unsigned (expired): a new one may start.
    await h.signal(esignEndedSignal, { codAzienda: tenant, ceremonyId: child1, status: 'expired' });
    const second = await send({ action: 'sign' });
    const child2 = second.state.ceremony!.id;
    assert.notEqual(child2, child1);
    // A late signal from the old ceremony changes nothing.
    await h.signal(esignCompletedSignal, { codAzienda: tenant, ceremonyId: child1, documentSha256: row.pdf_sha256, signedAt: new Date().toISOString() });
    assert.equal((await h.query(dossierStateQuery)).ceremony?.status, 'active');
    await h.signal(esignCompletedSignal, { codAzienda: tenant, ceremonyId: child2, documentSha256: row.pdf_sha256, signedAt: new Date().toISOString() });
    const signed = await send({ action: 'complete-signing' });
    assert.equal(signed.record?.stato, 'signed');
    assert.equal(signed.record?.signed_by, co.username);
    await send({ action: 'archive' });
    const end = await h.result();
    assert.equal(end.status, 'archived');
    const events = (await env.ownerDb('dossier_events').where({ dossier_id: id }).orderBy('created_at').pluck('tipo'));
    assert.deepEqual(events, ['generate', 'sign', 'sign', 'complete-signing', 'archive']);
    for (const c of [child1, child2]) await env.temporal.workflow.getHandle(esignWorkflowId(tenant, c)).terminate('test over').catch(() => undefined);
  });

  it('refuses to generate the dossier of a customer the tenant does not have', async () => {
    const h = await start('5b1d7c3e-0000-4000-8000-00000000d056');
    assert.equal(await refusal(h.executeUpdate(createDossierUpdate, { args: [{ actor: co, data: { cod_anagrafe: 'ANA-NOPE', sezioni: ['identita'] } }] })), DOSSIER_SUBJECT_UNKNOWN);
    assert.equal((await h.query(dossierStateQuery)).created, false);
    await h.terminate('test over');
  });
});
