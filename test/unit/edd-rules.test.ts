import assert from 'node:assert/strict';
import { motiviForCustomer, standardStepsFor } from '../../src/domains/edd/edd.steps';
import { eddGuard } from '../../workflows/edd/edd.guards';
import { eddMachine } from '../../workflows/edd/edd.machine';
import type { EddWorkflowState } from '../../workflows/edd/edd.contract';
import { allowedActions, checkTransition } from '../../workflows/lib/machine';

const actor = (id: string, roles: string[]) => ({ id, username: id, roles });
const state = (over: Partial<EddWorkflowState> = {}): EddWorkflowState => ({ status: 'open', created: true, transitions: 0, submittedBy: null, steps: [], ...over });

describe('EDD rules', () => {
  it('proposes the measures of art. 25 d.lgs. 231/2007 for each reason, once each', () => {
    assert.deepEqual(standardStepsFor(['pep']).map((s) => s.tipo), ['origine_fondi', 'origine_patrimonio', 'approvazione_alta_direzione', 'monitoraggio_rafforzato']);
    assert.deepEqual(standardStepsFor(['paese_alto_rischio']).map((s) => s.tipo), [
      'informazioni_cliente', 'informazioni_titolari', 'scopo_natura_rapporto', 'origine_fondi', 'origine_patrimonio', 'approvazione_alta_direzione', 'monitoraggio_rafforzato',
    ]);
    const both = standardStepsFor(['pep', 'classe_rischio_alta']).map((s) => s.tipo);
    assert.equal(new Set(both).size, both.length, 'no measure twice');
    assert.deepEqual(standardStepsFor([]), []);
  });

  it('reads the reasons from the customer: PEP, EU high-risk country of residence or nationality, high risk class', () => {
    const base = { pep: false, classe_rischio: 'basso', nazionalita: 'IT', paese_residenza: 'IT' };
    assert.deepEqual(motiviForCustomer(base), []);
    assert.deepEqual(motiviForCustomer({ ...base, pep: true }), ['pep']);
    assert.deepEqual(motiviForCustomer({ ...base, nazionalita: 'kp' }), ['paese_alto_rischio'], 'North Korea, lower case too');
    assert.deepEqual(motiviForCustomer({ ...base, classe_rischio: 'alto', paese_residenza: 'IR' }), ['paese_alto_rischio', 'classe_rischio_alta']);
    assert.deepEqual(motiviForCustomer({ ...base, classe_rischio: 'medio_alto' }), [], 'medium-high is not high');
  });

  it('refuses approva without steps or with an open one, and names the open ones', () => {
    assert.equal(eddGuard(state(), { action: 'approva', actor: actor('a', ['analyst']) })?.type, 'NO_STEPS');
    const open = eddGuard(state({ steps: [{ id: 's1', open: false }, { id: 's2', open: true }] }), { action: 'approva', actor: actor('a', ['analyst']) });
    assert.equal(open?.type, 'STEPS_OPEN');
    assert.deepEqual((open?.details?.[0] as { open_steps: string[] }).open_steps, ['s2']);
    assert.equal(eddGuard(state({ steps: [{ id: 's1', open: false }] }), { action: 'approva', actor: actor('a', ['analyst']) }), undefined);
  });

  it('checks the step a transition names', () => {
    const s = state({ steps: [{ id: 's1', open: false }, { id: 's2', open: true }] });
    const a = actor('a', ['analyst']);
    assert.equal(eddGuard(s, { action: 'completa-step', actor: a, step_id: 'zz', esito: 'x' })?.type, 'STEP_NOT_FOUND');
    assert.equal(eddGuard(s, { action: 'completa-step', actor: a, step_id: 's1', esito: 'x' })?.type, 'STEP_COMPLETED');
    assert.equal(eddGuard(s, { action: 'completa-step', actor: a, step_id: 's2', esito: 'x' }), undefined);
    assert.equal(eddGuard(s, { action: 'aggiungi-step', actor: a, step: { id: 's1', tipo: 'altro', titolo: 't', descrizione: '' } })?.type, 'STEP_EXISTS');
  });

  it('four-eyes: the submitter cannot approve, another compliance officer can; only a co approves or rejects', () => {
    const record = { submitted_by: 'co1' };
    const approve = (id: string, roles: string[]) => checkTransition(eddMachine, { state: 'pending_supervisor', action: 'approva-supervisore', actor: actor(id, roles), record });
    assert.equal((approve('co1', ['co']) as { code?: string }).code, 'FOUR_EYES_REQUIRED');
    assert.equal((approve('an1', ['analyst']) as { code?: string }).code, 'FORBIDDEN');
    assert.equal(approve('co2', ['co']).ok, true);
    assert.deepEqual(allowedActions(eddMachine, 'pending_supervisor', actor('co1', ['co']), record), ['respingi']);
    const reject = checkTransition(eddMachine, { state: 'pending_supervisor', action: 'respingi', actor: actor('co2', ['co']), record, input: {} });
    assert.equal((reject as { code?: string }).code, 'MISSING_FIELDS', 'a rejection needs its reason');
    assert.deepEqual(allowedActions(eddMachine, 'closed', actor('co2', ['co'])), []);
  });
});
