import assert from 'node:assert/strict';
import { AUDIT_ACTION_LABELS, auditActionLabel, hasAuditActionLabel } from '../../src/domains/audit/audit.labels';

describe('audit action labels', () => {
  it('every action has an Italian label: not empty, not its own identifier, starting with a capital', () => {
    const bad = Object.entries(AUDIT_ACTION_LABELS).filter(([action, label]) => !label.trim() || label === action || !/^[A-ZÀ-Ý]/.test(label));
    assert.deepEqual(bad, []);
  });

  it('an action is named by its family and verb, and an unknown action shows its identifier', () => {
    for (const action of Object.keys(AUDIT_ACTION_LABELS)) assert.match(action, /^[a-z_]+(\.[a-z_-]+)+$/, action);
    assert.equal(auditActionLabel('case.create'), 'Caso aperto');
    assert.equal(auditActionLabel('old.action'), 'old.action');
    assert.equal(hasAuditActionLabel('constructor'), false);
  });
});
