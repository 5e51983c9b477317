import assert from 'node:assert/strict';
import { cddAllowedActions } from '../../src/domains/cdd/cdd-task.commands';
import type { CddTaskRow } from '../../src/domains/cdd/cdd-task.repo';
import { actionsFrom, allowedActions, checkTransition, isFinal } from '../../workflows/lib/machine';
import { cddTaskMachine } from '../../workflows/cdd/cdd-task.machine';

const actor = (id: string, ...roles: string[]) => ({ id, username: id, roles });
const analyst = actor('u-analyst', 'analyst');
const analyst2 = actor('u-analyst2', 'analyst');
const co = actor('u-co', 'co');
const sos = actor('u-sos', 'sos');
const viewer = actor('u-viewer', 'viewer');

describe('CDD task machine', () => {
  it('follows processes.md: open -> in_progress -> pending_review -> completed; abstention from any open state', () => {
    assert.deepEqual(actionsFrom(cddTaskMachine, 'open').sort(), ['abstain', 'add-note', 'delete', 'start']);
    assert.deepEqual(actionsFrom(cddTaskMachine, 'in_progress').sort(), ['abstain', 'add-note', 'review']);
    assert.deepEqual(actionsFrom(cddTaskMachine, 'pending_review').sort(), ['abstain', 'add-note', 'complete', 'send-back']);
    for (const s of ['completed', 'abstained', 'deleted'] as const) {
      assert.deepEqual(actionsFrom(cddTaskMachine, s), []);
      assert.ok(isFinal(cddTaskMachine, s));
    }
  });

  it('requires a note to add a note, send back, abstain or delete', () => {
    for (const [state, action, who] of [['open', 'add-note', analyst], ['pending_review', 'send-back', co], ['in_progress', 'abstain', sos], ['open', 'delete', co]] as const) {
      const r = checkTransition(cddTaskMachine, { state, action, actor: who, input: { nota: '  ' } });
      assert.equal(r.ok ? 'ok' : r.code, 'MISSING_FIELDS', `${action}`);
    }
  });

  it('lets the SOS delegate abstain but not work the task; a viewer does nothing', () => {
    assert.deepEqual(allowedActions(cddTaskMachine, 'in_progress', sos), ['abstain']);
    assert.deepEqual(allowedActions(cddTaskMachine, 'open', viewer), []);
  });

  it('refuses the completion to who asked for the review (four-eyes)', () => {
    const r = checkTransition(cddTaskMachine, { state: 'pending_review', action: 'complete', actor: analyst, record: { review_requested_by: analyst.id } });
    assert.equal(r.ok ? 'ok' : r.code, 'FOUR_EYES_REQUIRED');
    assert.ok(checkTransition(cddTaskMachine, { state: 'pending_review', action: 'complete', actor: co, record: { review_requested_by: analyst.id } }).ok);
  });

  it('offers the completion to an analyst only when the task allows it (level and tenant policy)', () => {
    const row = (analista_puo_completare: boolean) => ({ stato: 'pending_review', review_requested_by: analyst.id, analista_puo_completare }) as CddTaskRow;
    assert.ok(cddAllowedActions(row(true), analyst2).includes('complete'));
    assert.ok(!cddAllowedActions(row(false), analyst2).includes('complete'));
    assert.ok(cddAllowedActions(row(false), co).includes('complete'));
    assert.ok(!cddAllowedActions(row(true), analyst).includes('complete'), 'four-eyes');
  });
});
