import { RetryState } from '@temporalio/common';
import {
  ActivityFailure, ApplicationFailure, patched, proxyActivities, proxyLocalActivities, TemporalFailure,
} from '@temporalio/workflow';
import { TRANSITION_ACTIVITY, TRANSITION_LOCAL_ACTIVITY } from './activity-options';

/**
 * Versioning marker: from here on an update's projection runs as a local activity. Histories
 * recorded before it scheduled a regular activity at that point and replay that way; a run
 * that started before it takes the local path from its first projection after it.
 */
export const LOCAL_PROJECTIONS_PATCH = 'local-projections';

type AnyActivities = Record<string, (...args: any[]) => Promise<any>>;

/**
 * A local activity's own failure arrives bare (an ApplicationFailure), a regular activity's
 * inside an ActivityFailure: the handlers and the kit (record-process.ts) read one shape.
 */
function asActivityFailure(name: string, err: unknown): unknown {
  if (err instanceof ActivityFailure || !(err instanceof TemporalFailure)) return err;
  const retryState = err instanceof ApplicationFailure && err.nonRetryable ? RetryState.NON_RETRYABLE_FAILURE : RetryState.MAXIMUM_ATTEMPTS_REACHED;
  return new ActivityFailure('Local activity failed', name, undefined, retryState, undefined, err);
}

/**
 * The activities an update handler awaits to write its projection (the row, its event, the
 * audit event). A person is waiting for the answer: they run as local activities, in the
 * update's own workflow task, within the bounds of TRANSITION_ACTIVITY, so the reply leaves
 * as soon as the projection is committed. Until then later updates of the same record wait
 * for that task; they are serialised by the process anyway (serial.ts).
 */
export function transitionProjections<A extends AnyActivities>(nonRetryableErrorTypes: string[] = []): A {
  const remote: AnyActivities = proxyActivities<AnyActivities>({ ...TRANSITION_ACTIVITY, retry: { ...TRANSITION_ACTIVITY.retry, nonRetryableErrorTypes } });
  const local: AnyActivities = proxyLocalActivities<AnyActivities>({ ...TRANSITION_LOCAL_ACTIVITY, retry: { ...TRANSITION_LOCAL_ACTIVITY.retry, nonRetryableErrorTypes } });
  return new Proxy({} as A, {
    get: (_target, name: string) => (...args: unknown[]) => patched(LOCAL_PROJECTIONS_PATCH)
      ? local[name]!(...args).catch((err: unknown) => { throw asActivityFailure(name, err); })
      : remote[name]!(...args),
  });
}
