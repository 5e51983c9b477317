import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

/**
 * Activities an update handler awaits (projections of a transition). Somebody is waiting
 * for the answer, so they fail within seconds when a dependency is down: the update then
 * fails, the workflow keeps its state, and the caller gets a 503 it can retry.
 */
export const TRANSITION_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '5 seconds',
  scheduleToCloseTimeout: '8 seconds',
  retry: { initialInterval: '250 milliseconds', backoffCoefficient: 2, maximumInterval: '2 seconds', maximumAttempts: 4 },
};

/**
 * Heavier steps an update handler awaits (screening a submission, building a document):
 * more time per attempt, still few attempts, so the update ends instead of retrying for ever.
 * The caller's wait is bounded on its side anyway (src/kit/process.ts).
 */
export const STEP_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 3 },
};

/**
 * Activities nobody waits for (timers, background steps): they ride out an outage with
 * backoff. Bad data never loops: data errors are non-retryable (activities/index.ts).
 */
export const BACKGROUND_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

/**
 * The same bounds for a projection run as a local activity (workflows/lib/projections.ts):
 * the worker runs it inside the update's own workflow task, so the caller gets the answer
 * as soon as the projection is committed, without the task-queue round trips of an activity.
 */
export const TRANSITION_LOCAL_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: TRANSITION_ACTIVITY.startToCloseTimeout,
  scheduleToCloseTimeout: TRANSITION_ACTIVITY.scheduleToCloseTimeout,
  retry: TRANSITION_ACTIVITY.retry,
};
