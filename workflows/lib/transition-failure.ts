import { ApplicationFailure } from '@temporalio/workflow';
import type { TransitionCheck } from './machine';

export interface TransitionFailureDetails {
  state: string;
  action: string;
  allowed_actions: string[];
  missing?: string[];
}

/**
 * A rejected transition as an ApplicationFailure: `type` is the machine's code
 * (INVALID_TRANSITION, FORBIDDEN, FOUR_EYES_REQUIRED, MISSING_FIELDS), the details carry
 * the allowed actions so the API can answer 409/403 without asking again.
 */
export function transitionFailure(check: Extract<TransitionCheck<string, string>, { ok: false }>): ApplicationFailure {
  const details: TransitionFailureDetails = {
    state: check.state, action: check.action, allowed_actions: check.allowedActions,
    ...(check.missing ? { missing: check.missing } : {}),
  };
  return ApplicationFailure.create({ type: check.code, message: check.message, nonRetryable: true, details: [details] });
}
