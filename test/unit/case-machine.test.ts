import assert from 'node:assert/strict';
import { actionsFrom, allowedActions, checkTransition, isFinal } from '../../workflows/lib/machine';
import { caseMachine } from '../../workflows/case/case.machine';

const actor = (id: string, ...roles: string[]) => ({ id, username: id, roles });
const analyst = actor('u-analyst', 'analyst');
const co = actor('u-co', 'co');
const viewer = actor('u-viewer', 'viewer');

describe('case machine', () => {
  it('lists the actions each state accepts', () => {
    assert.deepEqual(actionsFrom(caseMachine, 'open').sort(), ['add-event', 'close', 'escalate']);
    assert.deepEqual(actionsFrom(caseMachine, 'escalated').sort(), ['add-event', 'close']);
    assert.deepEqual(actionsFrom(caseMachine, 'closing').sort(), ['complete-closure', 'reopen']);
    assert.deepEqual(actionsFrom(caseMachine, 'closed'), []);
    assert.equal(isFinal(caseMachine, 'closed'), true);
    assert.equal(isFinal(caseMachine, 'closing'), false);
  });

  it('filters the allowed actions by role', () => {
    assert.deepEqual(allowedActions(caseMachine, 'open', viewer), []);
    assert.deepEqual(allowedActions(caseMachine, 'open', analyst).sort(), ['add-event', 'close', 'escalate']);
    // Only a compliance officer completes a closure; anyone who writes may reopen.
    assert.deepEqual(allowedActions(caseMachine, 'closing', analyst, { closing_requested_by: 'someone' }), ['reopen']);
    assert.deepEqual(allowedActions(caseMachine, 'closing', co, { closing_requested_by: 'someone' }).sort(), ['complete-closure', 'reopen']);
  });

  it('hides complete-closure from the user who asked to close (four-eyes)', () => {
    assert.deepEqual(allowedActions(caseMachine, 'closing', co, { closing_requested_by: co.id }), ['reopen']);
    const r = checkTransition(caseMachine, { state: 'closing', action: 'complete-closure', actor: co, record: { closing_requested_by: co.id } });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.code, 'FOUR_EYES_REQUIRED');
    const other = checkTransition(caseMachine, { state: 'closing', action: 'complete-closure', actor: actor('u-co2', 'co'), record: { closing_requested_by: co.id } });
    assert.deepEqual(other.ok && other.to, 'closed');
  });

  it('rejects an action the state does not accept, listing what it does accept', () => {
    const r = checkTransition(caseMachine, { state: 'escalated', action: 'escalate', actor: co });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.code, 'INVALID_TRANSITION');
    assert.deepEqual(r.allowedActions.sort(), ['add-event', 'close']);
    const unknown = checkTransition(caseMachine, { state: 'open', action: 'teleport', actor: co });
    assert.equal(!unknown.ok && unknown.code, 'INVALID_TRANSITION');
  });

  it('rejects a role that may not act with FORBIDDEN', () => {
    const r = checkTransition(caseMachine, { state: 'open', action: 'escalate', actor: viewer });
    assert.equal(!r.ok && r.code, 'FORBIDDEN');
    const c = checkTransition(caseMachine, { state: 'closing', action: 'complete-closure', actor: analyst, record: { closing_requested_by: 'x' } });
    assert.equal(!c.ok && c.code, 'FORBIDDEN');
  });

  it('requires outcome and reason to close, and the event to add one', () => {
    const r = checkTransition(caseMachine, { state: 'open', action: 'close', actor: analyst, input: { outcome: 'archiviato', reason: '  ' } });
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.missing, ['reason']);
    const ok = checkTransition(caseMachine, { state: 'open', action: 'close', actor: analyst, input: { outcome: 'archiviato', reason: 'verificato' } });
    assert.equal(ok.ok && ok.to, 'closing');
    const ev = checkTransition(caseMachine, { state: 'open', action: 'add-event', actor: analyst, input: {} });
    assert.deepEqual(!ev.ok && ev.missing, ['event']);
    const evOk = checkTransition(caseMachine, { state: 'escalated', action: 'add-event', actor: analyst, input: { event: { tipo: 'nota', testo: 'x' } } });
    assert.equal(evOk.ok && evOk.to, 'escalated', 'adding an event keeps the state');
  });

  it('is consistent: every transition names known states and roles', () => {
    for (const t of caseMachine.transitions) {
      for (const s of t.from) assert.ok(caseMachine.states.includes(s));
      if (t.to) assert.ok(caseMachine.states.includes(t.to));
      assert.ok(t.roles.length > 0);
    }
  });
});

describe('shared role groups', () => {
  it('the machines\' writers are the HTTP layer\'s STAFF_WRITE', async () => {
    const { PROCESS_WRITERS } = await import('../../workflows/lib/roles');
    const { STAFF_WRITE } = await import('../../src/kit/roles');
    assert.deepEqual([...PROCESS_WRITERS].sort(), [...STAFF_WRITE].sort());
  });
});
