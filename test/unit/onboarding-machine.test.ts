import assert from 'node:assert/strict';
import { actionsFrom, allowedActions, checkTransition, isFinal } from '../../workflows/lib/machine';
import {
  CUSTOMER_ROLE, EDITABLE_STATES, ONBOARDING_STATES, ONBOARDING_SYSTEM_ROLE, onboardingMachine, walletMachine,
} from '../../workflows/onboarding/onboarding.machine';

const actor = (id: string, ...roles: string[]) => ({ id, username: id, roles });
const applicant = actor('cliente:1', CUSTOMER_ROLE);
const system = actor('system', ONBOARDING_SYSTEM_ROLE);
const analyst = actor('u-analyst', 'analyst');
const coA = actor('u-co-a', 'co');
const coB = actor('u-co-b', 'co');
const viewer = actor('u-viewer', 'viewer');

describe('onboarding machine', () => {
  it('lets the applicant edit, submit and erase a draft, and nobody else', () => {
    assert.deepEqual(allowedActions(onboardingMachine, 'draft', applicant).sort(), ['edit', 'erase', 'submit']);
    assert.deepEqual(allowedActions(onboardingMachine, 'draft', analyst), []);
    assert.deepEqual(allowedActions(onboardingMachine, 'draft', viewer), []);
    assert.deepEqual([...EDITABLE_STATES].sort(), ['draft', 'info_requested']);
  });

  it('refuses erasure once the case has been submitted (AML retention)', () => {
    for (const state of ONBOARDING_STATES.filter((s) => s !== 'draft')) {
      const r = checkTransition(onboardingMachine, { state, action: 'erase', actor: applicant });
      assert.equal(r.ok, false, state);
      if (!r.ok) assert.equal(r.code, 'INVALID_TRANSITION');
    }
  });

  it('reviewers decide in review; the applicant answers a request for information', () => {
    assert.deepEqual(allowedActions(onboardingMachine, 'in_review', analyst).sort(), ['approve', 'reject', 'request-info', 'wallet-revoke', 'wallet-verify']);
    assert.deepEqual(allowedActions(onboardingMachine, 'in_review', applicant), []);
    assert.deepEqual(allowedActions(onboardingMachine, 'info_requested', applicant).sort(), ['edit', 'submit']);
    const noReason = checkTransition(onboardingMachine, { state: 'in_review', action: 'reject', actor: analyst, input: { reason: ' ' } });
    assert.ok(!noReason.ok && noReason.code === 'MISSING_FIELDS' && noReason.missing?.includes('reason'));
    const noMessage = checkTransition(onboardingMachine, { state: 'in_review', action: 'request-info', actor: analyst, input: {} });
    assert.ok(!noMessage.ok && noMessage.code === 'MISSING_FIELDS');
  });

  it('the second approval is a compliance officer other than the first approver', () => {
    const record = { approved_by: coA.id };
    assert.deepEqual(allowedActions(onboardingMachine, 'pending_second_approval', coA, record).sort(), ['reject', 'wallet-revoke', 'wallet-verify']);
    assert.deepEqual(allowedActions(onboardingMachine, 'pending_second_approval', coB, record).sort(), ['complete-approval', 'reject', 'wallet-revoke', 'wallet-verify']);
    const same = checkTransition(onboardingMachine, { state: 'pending_second_approval', action: 'complete-approval', actor: coA, record });
    assert.ok(!same.ok && same.code === 'FOUR_EYES_REQUIRED');
    const byAnalyst = checkTransition(onboardingMachine, { state: 'pending_second_approval', action: 'complete-approval', actor: analyst, record });
    assert.ok(!byAnalyst.ok && byAnalyst.code === 'FORBIDDEN');
  });

  it('only the timers expire a case, and only while the applicant holds it', () => {
    assert.deepEqual(actionsFrom(onboardingMachine, 'draft').includes('expire'), true);
    assert.equal(checkTransition(onboardingMachine, { state: 'draft', action: 'expire', actor: applicant }).ok, false);
    assert.equal(checkTransition(onboardingMachine, { state: 'info_requested', action: 'expire', actor: system }).ok, true);
    assert.equal(checkTransition(onboardingMachine, { state: 'in_review', action: 'expire', actor: system }).ok, false);
  });

  it('is consistent: final states accept nothing, every transition names known states', () => {
    for (const s of onboardingMachine.final ?? []) assert.deepEqual(actionsFrom(onboardingMachine, s), [], s);
    for (const t of onboardingMachine.transitions) {
      for (const f of t.from) assert.ok(ONBOARDING_STATES.includes(f), `${t.action} from ${f}`);
      if (t.to) assert.ok(ONBOARDING_STATES.includes(t.to), `${t.action} to ${t.to}`);
    }
    assert.equal(isFinal(onboardingMachine, 'approved'), true);
  });

  it('wallets: verify once, revoke with a reason from pending or verified', () => {
    assert.equal(checkTransition(walletMachine, { state: 'pending', action: 'verify', actor: analyst }).ok, true);
    assert.equal(checkTransition(walletMachine, { state: 'verified', action: 'verify', actor: analyst }).ok, false);
    const noReason = checkTransition(walletMachine, { state: 'verified', action: 'revoke', actor: analyst, input: {} });
    assert.ok(!noReason.ok && noReason.code === 'MISSING_FIELDS');
    assert.equal(checkTransition(walletMachine, { state: 'verified', action: 'revoke', actor: coA, input: { reason: 'Indirizzo compromesso' } }).ok, true);
    assert.deepEqual(actionsFrom(walletMachine, 'revoked'), []);
    assert.equal(checkTransition(walletMachine, { state: 'pending', action: 'verify', actor: applicant }).ok, false);
  });
});
