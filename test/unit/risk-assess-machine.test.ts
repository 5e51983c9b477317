import assert from 'node:assert/strict';
import { assessmentAllowedActions, assessmentDiagram, romeMidnight } from '../../src/domains/risk';
import { checkTransition } from '../../workflows/lib/machine';
import { classAtLeast } from '../../workflows/risk/risk-assessment.contract';
import { riskAssessmentMachine } from '../../workflows/risk/risk-assessment.machine';

const analyst = { id: 'u-analyst', username: 'a', roles: ['analyst'] };
const co = { id: 'u-co', username: 'c', roles: ['co'] };
const viewer = { id: 'u-viewer', username: 'v', roles: ['viewer'] };

describe('risk assessment machine, release order, override expiry instant', () => {
  it('gives each user the actions of processes.md: override by analyst or co, confirmation by another co, archive by co', () => {
    assert.deepEqual(assessmentAllowedActions({ stato: 'completed', override_by: null }, analyst), ['override', 'release']);
    assert.deepEqual(assessmentAllowedActions({ stato: 'completed', override_by: null }, co), ['override', 'release', 'archive']);
    assert.deepEqual(assessmentAllowedActions({ stato: 'released', override_by: null }, analyst), ['override']);
    assert.deepEqual(assessmentAllowedActions({ stato: 'override_pending', override_by: co.id }, co), [], 'four-eyes: not its author');
    assert.deepEqual(assessmentAllowedActions({ stato: 'override_pending', override_by: analyst.id }, co), ['complete-override']);
    assert.deepEqual(assessmentAllowedActions({ stato: 'archived', override_by: null }, co), []);
    assert.deepEqual(assessmentAllowedActions({ stato: 'released', override_by: null }, viewer), []);
    const selfConfirm = checkTransition(riskAssessmentMachine, { state: 'override_pending', action: 'complete-override', actor: co, record: { override_by: co.id } });
    assert.equal(selfConfirm.ok ? null : selfConfirm.code, 'FOUR_EYES_REQUIRED');
    const noReason = checkTransition(riskAssessmentMachine, { state: 'completed', action: 'override', actor: analyst, input: { classe: 'alto' } });
    assert.deepEqual(noReason.ok ? null : noReason.missing, ['motivo']);
    const late = checkTransition(riskAssessmentMachine, { state: 'archived', action: 'release', actor: co });
    assert.equal(late.ok ? null : late.code, 'INVALID_TRANSITION');
  });

  it('releases at once only what does not lower the class (anything is at least no class)', () => {
    assert.equal(classAtLeast('basso', null), true);
    assert.equal(classAtLeast('alto', 'medio_alto'), true);
    assert.equal(classAtLeast('medio', 'medio'), true);
    assert.equal(classAtLeast('medio', 'medio_alto'), false);
  });

  it('an override expires at midnight in Rome of its day, summer time or not', () => {
    assert.equal(romeMidnight('2027-01-15').toISOString(), '2027-01-14T23:00:00.000Z');
    assert.equal(romeMidnight('2027-07-15').toISOString(), '2027-07-14T22:00:00.000Z');
  });

  it('draws the diagram with the current state and the user\'s actions', async () => {
    const d = await assessmentDiagram({ stato: 'override_pending', override_by: analyst.id }, co);
    assert.match(JSON.stringify(d), /Conferma la modifica/);
  });
});
