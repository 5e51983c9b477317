import { condition, log } from '@temporalio/workflow';
import { isFinal } from '../lib/machine';
import type { createSerialQueue } from '../lib/serial';
import { addDays } from '../lib/sla';
import type { OnboardingSettings, OnboardingWorkflowState } from './onboarding.contract';
import { EDITABLE_STATES, onboardingMachine } from './onboarding.machine';

const TIMER_RETRY_MS = 60 * 60 * 1000;

export interface TimerActions {
  expire: (extra: Record<string, unknown>) => Promise<void>;
  purge: () => Promise<void>;
  remind: () => Promise<void>;
}

/**
 * The process timers. Each waits on an absolute due date derived from the state (so a run
 * that continued as new keeps the dates of the one before), and starts over whenever the
 * applicant edits or the status moves. Returns when the case reached a final state, or
 * as soon as `leave()` holds (the workflow is about to continue as new).
 */
export async function onboardingTimers(
  settings: OnboardingSettings, state: OnboardingWorkflowState, serial: ReturnType<typeof createSerialQueue>, on: TimerActions,
  leave: () => boolean = () => false,
): Promise<void> {
  const s = settings;
  while (!isFinal(onboardingMachine, state.status) && !leave()) {
    const seen = { status: state.status, edit: state.lastEditAt, transitions: state.transitions };
    const changed = () => state.status !== seen.status || state.lastEditAt !== seen.edit || state.transitions !== seen.transitions;
    const wake = () => changed() || leave();
    let due: Date | null = null;
    let onDue: (() => Promise<void>) | null = null;
    if (state.status === 'draft') {
      due = addDays(new Date(state.lastEditAt), s.draftIdleDays);
      // Never submitted: nothing obliges keeping what was typed, so it goes with the expiry.
      onDue = async () => { await on.expire({ reason: 'draft_idle', days: s.draftIdleDays }); await on.purge(); };
    } else if (state.status === 'info_requested' && state.infoRequestedAt) {
      const asked = new Date(state.infoRequestedAt);
      if (!state.reminderSent) {
        due = addDays(asked, s.infoReminderDays);
        onDue = async () => { await on.remind(); state.reminderSent = true; };
      } else {
        due = addDays(asked, s.infoExpiryDays);
        // Submitted once: the data are CDD records under the AML retention, and stay.
        onDue = () => on.expire({ reason: 'info_request_unanswered', days: s.infoExpiryDays });
      }
    }
    if (!due || !onDue) {
      await condition(wake);
      continue;
    }
    const remaining = due.getTime() - Date.now();
    if (remaining > 0 && (await condition(wake, remaining))) continue;
    const fire = onDue;
    try {
      // Serialised with the updates: an edit or submit already in flight wins over the timer.
      await serial(async () => { if (!changed() && EDITABLE_STATES.includes(state.status)) await fire(); });
    } catch (err) {
      // Its activity refused for good: the state did not move (projection first), so the timer tries again later.
      log.error('onboarding timer action failed; retrying in an hour', { error: String(err) });
      await condition(wake, TIMER_RETRY_MS);
    }
  }
}
