import assert from 'node:assert/strict';
import { actionsFrom, allowedActions, checkTransition, isFinal } from '../../workflows/lib/machine';
import { alertMachine, CLOSURE_CONFIRMERS, DISMISSALS } from '../../workflows/monitoring-alert/monitoring-alert.machine';
import { kytAlertMachine } from '../../workflows/monitoring-alert/kyt-alert.machine';
import { PROCESS_WRITERS } from '../../workflows/lib/roles';

const actor = (id: string, ...roles: string[]) => ({ id, username: id, roles });
const analyst = actor('u-analyst', 'analyst');
const co = actor('u-co', 'co');
const sos = actor('u-sos', 'sos');
const viewer = actor('u-viewer', 'viewer');

describe('monitoring alert machine', () => {
  it('follows the design: new -> assigned -> escalated | closed, with a closing step for dismissals under four-eyes', () => {
    assert.deepEqual(actionsFrom(alertMachine, 'new'), ['assign']);
    assert.deepEqual(actionsFrom(alertMachine, 'assigned').sort(), ['assign', 'close', 'escalate', 'propose-closure']);
    assert.deepEqual(actionsFrom(alertMachine, 'closing').sort(), ['confirm-closure', 'reopen']);
    assert.deepEqual(actionsFrom(alertMachine, 'escalated'), []);
    assert.deepEqual(actionsFrom(alertMachine, 'closed'), []);
    assert.ok(isFinal(alertMachine, 'closed') && isFinal(alertMachine, 'escalated'));
    assert.ok(!isFinal(alertMachine, 'closing'));
    const to = (state: 'new' | 'assigned' | 'closing', action: string, input: Record<string, unknown> = {}, who = co) => {
      const r = checkTransition(alertMachine, { state, action, actor: who, input, record: { chiusura_richiesta_da: 'someone-else' } });
      return r.ok ? r.to : r.code;
    };
    assert.equal(to('new', 'assign', { assegnatario: 'u-1' }), 'assigned');
    assert.equal(to('assigned', 'escalate'), 'escalated');
    assert.equal(to('assigned', 'close', { disposizione: 'sospetto', motivazione: 'x' }), 'closed');
    assert.equal(to('assigned', 'propose-closure', { disposizione: 'falso_positivo', motivazione: 'x' }), 'closing');
    assert.equal(to('closing', 'confirm-closure'), 'closed');
    assert.equal(to('closing', 'reopen', { motivazione: 'no' }), 'assigned');
  });

  it('refuses what a state does not accept with the actions it does (409), whoever asks', () => {
    const r = checkTransition(alertMachine, { state: 'new', action: 'escalate', actor: co });
    assert.equal(!r.ok && r.code, 'INVALID_TRANSITION');
    assert.deepEqual(!r.ok && r.allowedActions, ['assign']);
    const closed = checkTransition(alertMachine, { state: 'closed', action: 'assign', actor: co, input: { assegnatario: 'x' } });
    assert.deepEqual(!closed.ok && [closed.code, closed.allowedActions], ['INVALID_TRANSITION', []]);
  });

  it('needs the fields each step names: an assignee; a disposition and a reason to close; a reason to turn a closure down', () => {
    const missing = (state: 'new' | 'assigned' | 'closing', action: string, input: Record<string, unknown>) => {
      const r = checkTransition(alertMachine, { state, action, actor: co, input });
      return !r.ok && r.code === 'MISSING_FIELDS' ? r.missing : [];
    };
    assert.deepEqual(missing('new', 'assign', {}), ['assegnatario']);
    assert.deepEqual(missing('assigned', 'close', { motivazione: '  ' }), ['disposizione', 'motivazione']);
    assert.deepEqual(missing('assigned', 'propose-closure', { disposizione: 'giustificato' }), ['motivazione']);
    assert.deepEqual(missing('closing', 'reopen', {}), ['motivazione']);
  });

  it('lets the working roles act, and only a compliance officer or SOS delegate other than the proposer confirm a dismissal', () => {
    assert.deepEqual(allowedActions(alertMachine, 'new', viewer), []);
    for (const role of PROCESS_WRITERS) assert.deepEqual(allowedActions(alertMachine, 'new', actor('u', role)), ['assign'], role);
    assert.deepEqual([...CLOSURE_CONFIRMERS].sort(), ['co', 'sos']);
    const record = { chiusura_richiesta_da: analyst.id };
    assert.deepEqual(allowedActions(alertMachine, 'closing', analyst, record), ['reopen'], 'an analyst never confirms');
    assert.deepEqual(allowedActions(alertMachine, 'closing', sos, record).sort(), ['confirm-closure', 'reopen']);
    const own = checkTransition(alertMachine, { state: 'closing', action: 'confirm-closure', actor: co, record: { chiusura_richiesta_da: co.id } });
    assert.equal(!own.ok && own.code, 'FOUR_EYES_REQUIRED');
    assert.deepEqual(allowedActions(alertMachine, 'closing', co, { chiusura_richiesta_da: co.id }), ['reopen'], 'the proposer may withdraw, not confirm');
    const forbidden = checkTransition(alertMachine, { state: 'assigned', action: 'escalate', actor: viewer });
    assert.equal(!forbidden.ok && forbidden.code, 'FORBIDDEN');
  });

  it('counts false positives and justified closures as dismissals, never a suspicious one', () => {
    assert.deepEqual([...DISMISSALS].sort(), ['falso_positivo', 'giustificato']);
  });
});

describe('KYT alert machine', () => {
  it('is decided from new: escalated into a case or closed, with the same four-eyes step for dismissals', () => {
    assert.deepEqual(actionsFrom(kytAlertMachine, 'new').sort(), ['close', 'escalate', 'propose-closure']);
    assert.deepEqual(actionsFrom(kytAlertMachine, 'closing').sort(), ['confirm-closure', 'reopen']);
    const reopened = checkTransition(kytAlertMachine, { state: 'closing', action: 'reopen', actor: analyst, input: { motivazione: 'rivedere' } });
    assert.equal(reopened.ok && reopened.to, 'new');
    const assign = checkTransition(kytAlertMachine, { state: 'new', action: 'assign', actor: co, input: { assegnatario: 'x' } });
    assert.equal(!assign.ok && assign.code, 'INVALID_TRANSITION');
    assert.ok(isFinal(kytAlertMachine, 'escalated') && isFinal(kytAlertMachine, 'closed'));
  });

  it('has every state reachable and every transition landing on a state of its machine', () => {
    for (const m of [alertMachine, kytAlertMachine]) {
      const reached = new Set<string>([m.initial]);
      for (let i = 0; i < m.states.length; i++) for (const t of m.transitions) if (t.from.some((f) => reached.has(f)) && t.to) reached.add(t.to);
      assert.deepEqual([...reached].sort(), [...m.states].sort(), m.name);
      for (const t of m.transitions) assert.ok(!t.to || (m.states as readonly string[]).includes(t.to), `${m.name} ${t.action}`);
    }
  });
});
