import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createCddReviewActivities } from '../../activities/cdd/cdd-review.activities';
import { createCddTaskActivities } from '../../activities/cdd/cdd-task.activities';
import { createRiskAssessmentActivities } from '../../activities/risk/risk-assessment.activities';
import { romeMidnight } from '../../src/domains/risk';
import { workflowsEntry } from '../../temporal/bundle';
import {
  createRiskAssessmentUpdate, RISK_ASSESSMENT_WORKFLOW_TYPE, riskAssessmentStateQuery, riskAssessmentTransitionUpdate, riskAssessmentWorkflowId,
  type RiskAssessmentReply, type RiskAssessmentTransitionArgs, type RiskAssessmentWorkflowInput,
} from '../../workflows/risk/risk-assessment.contract';
import type { MachineActor } from '../../workflows/lib/machine';
import { getTestEnv, type TestEnv } from '../helpers/env';
import { useTimeSkippingSuite, type TimeSkippingTest } from '../helpers/time-skipping';

const DAY = 86_400_000;
const analyst: MachineActor = { id: randomUUID(), username: 'analista', roles: ['analyst'] };
const co: MachineActor = { id: randomUUID(), username: 'responsabile', roles: ['co'] };
const coAnalyst: MachineActor = { id: analyst.id, username: analyst.username, roles: ['analyst', 'co'] };

/**
 * The assessment workflow on the time-skipping server: calculated and released by the system
 * when the class does not go down, an analyst's override confirmed by a different compliance
 * officer only (four-eyes), and an override that expires on its date (a real 2-day timer) and
 * starts the assessment that replaces it.
 */
describe('risk assessment workflow: override with four-eyes, expiry (time-skipping server)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let tenant: string;
  let n = 0;
  const activities: Record<string, unknown> = {};

  before(async () => {
    env = await getTestEnv();
    const deps = { db: env.deps.db, platformDb: env.deps.platformDb, logger: env.deps.logger, config: env.deps.config, dispatch: env.deps.dispatch };
    Object.assign(activities, { ...createRiskAssessmentActivities(deps), ...createCddTaskActivities(deps), ...createCddReviewActivities(deps) });
    tenant = await env.createTenant();
  });
  const suite = useTimeSkippingSuite({ name: 'risk-assess', workflowsPath: workflowsEntry(), activities });

  async function customer(over: Record<string, unknown> = {}): Promise<string> {
    const cod = `ANA-${String(++n).padStart(6, '0')}`;
    await env.ownerDb('anagrafe').insert({
      cod_azienda: tenant, cod_anagrafe: cod, tipo_soggetto: 'persona_fisica', denominazione: `Cliente ${n}`, nazionalita: 'IT', paese_residenza: 'IT', created_by: 'test', ...over,
    });
    return cod;
  }

  async function start(t: TimeSkippingTest, codAnagrafe: string) {
    const id = randomUUID();
    const workflowId = riskAssessmentWorkflowId(tenant, id);
    const input: RiskAssessmentWorkflowInput = { codAzienda: tenant, assessmentId: id };
    const h = await t.client.workflow.start(RISK_ASSESSMENT_WORKFLOW_TYPE, { workflowId, taskQueue: t.taskQueue, args: [input] });
    const reply = await h.executeUpdate(createRiskAssessmentUpdate, { args: [{ actor: analyst, data: { cod_anagrafe: codAnagrafe, motivo: 'manuale' } }] });
    return { h, id, reply };
  }
  const send = (h: Awaited<ReturnType<typeof start>>['h'], args: RiskAssessmentTransitionArgs): Promise<RiskAssessmentReply> =>
    h.executeUpdate(riskAssessmentTransitionUpdate, { args: [args] });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected a refused update, got ${String(err)}`);
    assert.ok(err.cause instanceof ApplicationFailure);
    return err.cause;
  };
  const row = (id: string) => env.ownerDb('rischio_valutazioni').where({ id }).first();
  const customerRow = (cod: string) => env.ownerDb('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: cod }).first();

  it('releases a first calculation at once; an override waits for a different compliance officer, then applies', () => suite.run(async (t) => {
    const cod = await customer({ pep: true });
    const { h, id, reply } = await start(t, cod);
    assert.equal(reply.record?.stato, 'released', 'no class in force: the calculated one is released by the system');
    assert.equal(reply.record?.classe_calcolata, 'medio_alto', 'a PEP is never below medium-high');
    assert.equal(reply.record?.released_by, 'system');
    assert.equal((await customerRow(cod)).classe_rischio, 'medio_alto');

    // The machine: reason and class required, a viewer refused, four-eyes on the confirmation.
    assert.equal((await refusal(send(h, { action: 'override', actor: analyst, classe: 'alto' }))).type, 'MISSING_FIELDS');
    assert.equal((await refusal(send(h, { action: 'complete-override', actor: co }))).type, 'INVALID_TRANSITION');
    const scadenza = new Date(await t.now() + 30 * DAY).toISOString().slice(0, 10);
    const overridden = await send(h, { action: 'override', actor: coAnalyst, classe: 'alto', motivo: 'Notizie di stampa negative', scadenza, scadenza_at: romeMidnight(scadenza).toISOString() });
    assert.equal(overridden.record?.stato, 'override_pending');
    assert.equal((await customerRow(cod)).classe_rischio, 'medio_alto', 'nothing changes before the confirmation');
    const self = await refusal(send(h, { action: 'complete-override', actor: coAnalyst }));
    assert.equal(self.type, 'FOUR_EYES_REQUIRED');
    assert.equal((await refusal(send(h, { action: 'complete-override', actor: analyst }))).type, 'FORBIDDEN');

    const confirmed = await send(h, { action: 'complete-override', actor: co });
    assert.equal(confirmed.record?.stato, 'released', 'the confirmation releases the override at once');
    assert.equal(confirmed.record?.classe_effettiva, 'alto');
    assert.equal(confirmed.record?.override_confirmed_by, co.id);
    const saved = await row(id);
    assert.equal(saved.override_by, analyst.id);
    assert.equal(saved.override_scadenza instanceof Date ? saved.override_scadenza.getDate() : null, Number(scadenza.slice(8, 10)));
    assert.equal((await customerRow(cod)).classe_rischio, 'alto');
    const corrente = await env.ownerDb('rischio_correnti').where({ cod_azienda: tenant, cod_anagrafe: cod }).first();
    assert.equal(corrente.classe_effettiva, 'alto');
    assert.equal(corrente.probabilita, 4, 'the matrix places the customer by the class in force (alto), not the calculated medio_alto');
    assert.equal(corrente.valutazione_id, id);

    // The class went up: the CDD consequences (a task at the new class's level), once the effects ran.
    await t.sleep(1_000);
    const st = await h.query(riskAssessmentStateQuery);
    assert.equal(st.pendingEffects.length, 0);
    const tasks = await env.ownerDb('cdd_pratiche').where({ cod_azienda: tenant, cod_anagrafe: cod, motivo: 'cambio_classe_rischio' });
    assert.equal(tasks.length, 1, 'one CDD task for the change of class');
    const audit = await env.ownerDb('audit_events').where({ cod_azienda: tenant, entity_type: 'risk_assessment', entity_id: id }).orderBy('id').pluck('action');
    assert.deepEqual(audit, ['risk_assessment.create', 'risk_assessment.calculate', 'risk_assessment.release', 'risk_assessment.override', 'risk_assessment.complete-override', 'risk_assessment.release']);
  }));

  it('an override expires on its date: marked expired, a new assessment starts and its release archives the old one', () => suite.run(async (t) => {
    const cod = await customer();
    const { h, id, reply } = await start(t, cod);
    assert.equal(reply.record?.stato, 'released');
    assert.equal(reply.record?.classe_calcolata, 'basso');
    const scadenza = new Date(await t.now() + 2 * DAY).toISOString().slice(0, 10);
    await send(h, { action: 'override', actor: analyst, classe: 'alto', motivo: 'Indagine in corso', scadenza, scadenza_at: romeMidnight(scadenza).toISOString() });
    await send(h, { action: 'complete-override', actor: co });
    assert.equal((await customerRow(cod)).classe_rischio, 'alto');

    await t.sleep(DAY);
    assert.equal((await row(id)).override_scaduto, false, 'not before its date');
    await t.sleep(2 * DAY);
    const expired = await row(id);
    assert.equal(expired.override_scaduto, true);
    assert.equal(expired.stato, 'released', 'still in force until its successor is released');
    const [next, ...more] = await env.ownerDb('rischio_valutazioni').where({ cod_azienda: tenant, cod_anagrafe: cod }).whereNot('id', id);
    assert.equal(more.length, 0, 'one successor');
    assert.equal(next.motivo, 'scadenza_override');
    assert.equal(next.riferimento, expired.cod_valutazione);
    assert.equal(next.created_by, 'system');
    assert.equal(next.stato, 'completed', 'basso below the overridden alto: waits for a person (no silent de-risking)');
    assert.equal((await customerRow(cod)).classe_rischio, 'alto');

    const successor = t.client.workflow.getHandle(next.workflow_id);
    const released = await successor.executeUpdate(riskAssessmentTransitionUpdate, { args: [{ action: 'release', actor: analyst }] });
    assert.equal(released.record?.stato, 'released');
    assert.equal((await customerRow(cod)).classe_rischio, 'basso');
    const old = await row(id);
    assert.equal(old.stato, 'archived');
    assert.equal(old.superata_da, next.id);
    // The superseded workflow learns it and ends.
    const final = await h.result();
    assert.equal(final.status, 'archived');
  }));

  it('a create refused for good (no such customer) ends the run instead of waiting for ever', () => suite.run(async (t) => {
    const id = randomUUID();
    const h = await t.client.workflow.start(RISK_ASSESSMENT_WORKFLOW_TYPE, {
      workflowId: riskAssessmentWorkflowId(tenant, id), taskQueue: t.taskQueue, args: [{ codAzienda: tenant, assessmentId: id } satisfies RiskAssessmentWorkflowInput],
    });
    const err = await refusal(h.executeUpdate(createRiskAssessmentUpdate, { args: [{ actor: analyst, data: { cod_anagrafe: 'ANA-999999', motivo: 'manuale' } }] }));
    assert.equal(err.type, 'CUSTOMER_NOT_FOUND');
    const final = await h.result();
    assert.equal(final.created, false);
    assert.equal(await row(id), undefined);
  }));
});
