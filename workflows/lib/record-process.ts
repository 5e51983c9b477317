import type { UpdateDefinition } from '@temporalio/common';
import {
  ActivityFailure, allHandlersFinished, ApplicationFailure, condition, setHandler, workflowInfo,
} from '@temporalio/workflow';
import { checkTransition, isFinal, type MachineActor, type MachineDef, type TransitionCheck } from './machine';
import { publishRecord } from './search-attributes';
import { createSerialQueue } from './serial';
import { transitionFailure } from './transition-failure';

/** The part of a process's workflow state the kit manages. */
export interface RecordState<S extends string> {
  status: S;
  created: boolean;
  transitions: number;
}

export interface TransitionRequest<A extends string = string> {
  action: A;
  actor: MachineActor;
}

/** Failure types the kit raises besides the machine's own (see src/kit/process.ts for their HTTP answers). */
export const PROCESS_FAILURES = {
  notCreated: 'NOT_CREATED',
  /** The projection could not be written (database down, timeout): nothing changed, try again. */
  projectionFailed: 'PROJECTION_FAILED',
  /** The database refused the data itself (activities/lib/data-errors.ts): retrying cannot help. */
  invalidData: 'INVALID_DATA',
} as const;

/**
 * An activity's failure as the update's answer: a refusal of its own (a non-retryable
 * application failure with a type the process knows) keeps its type; anything else means
 * the step was not written, so nothing changed and it can be asked again.
 */
export function projectionFailure(err: ActivityFailure, known: (type: string) => boolean, context: { action: string; state: string }): ApplicationFailure {
  const cause = err.cause instanceof ApplicationFailure ? err.cause : undefined;
  if (cause?.type && (known(cause.type) || cause.type === PROCESS_FAILURES.invalidData)) {
    return ApplicationFailure.create({ type: cause.type, message: cause.message, nonRetryable: true, details: cause.details ? [...cause.details] : [] });
  }
  return ApplicationFailure.create({
    type: PROCESS_FAILURES.projectionFailed, nonRetryable: true, cause: err, details: [context],
    message: `${context.action} could not be recorded (${err.cause?.message ?? err.message}): the record stays ${context.state}`,
  });
}

/**
 * The skeleton of a process that keeps one record: serialised updates checked by the
 * machine (in the validator and again in turn), the projection written before the state
 * moves, search attributes kept current, and continue-as-new when Temporal suggests it.
 * The process adds its own data, timers and side steps around it.
 */
export function recordProcess<S extends string, A extends string, St extends RecordState<S>>(opts: {
  machine: MachineDef<S, A>;
  recordType: string;
  codAzienda: string;
  recordId: string;
  state: St;
  /** Fields of the record the guards read (four-eyes: who did the first step). */
  guards?: () => Record<string, unknown>;
}) {
  const { machine, state } = opts;
  const serial = createSerialQueue();

  const publishStatus = () => publishRecord({ codAzienda: opts.codAzienda, recordType: opts.recordType, recordId: opts.recordId, status: state.status });

  const check = (action: string, actor: MachineActor, input: Record<string, unknown> = {}): TransitionCheck<S, A> =>
    checkTransition(machine, { state: state.status, action, actor, record: opts.guards?.(), input });

  const notCreated = (action: string) => ApplicationFailure.create({
    type: PROCESS_FAILURES.notCreated, message: 'record not created yet', nonRetryable: true,
    details: [{ state: state.status, action, allowed_actions: [] }],
  });

  /** Runs a projection; a failure (after its bounded retries) leaves the workflow as it was and says so. */
  async function project<T>(write: () => Promise<T>, action = 'projection'): Promise<T> {
    try {
      return await write();
    } catch (err) {
      // A refusal of the data itself (a non-retryable application failure) keeps its type.
      if (err instanceof ActivityFailure) throw projectionFailure(err, () => err.cause instanceof ApplicationFailure && !!err.cause.nonRetryable, { action, state: state.status });
      throw err;
    }
  }

  /** Writes the projection of a transition, then moves the state: never the other way round. */
  async function commit<T>(to: S, write: () => Promise<T>): Promise<T> {
    const result = await project(write);
    const moved = state.status !== to;
    state.status = to;
    state.transitions++;
    if (moved) publishStatus();
    return result;
  }

  /** The create update: a repeated create (a client retry, a duplicate start) is success. */
  function onCreate<Args extends { actor: MachineActor }, R>(def: UpdateDefinition<R, [Args]>, create: (args: NoInfer<Args>) => Promise<NoInfer<R>>, repeated: (args: NoInfer<Args>) => NoInfer<R>) {
    setHandler(def, (args) => serial(async () => {
      if (state.created) return repeated(args);
      const r = await project(() => create(args));
      state.created = true;
      publishStatus();
      return r;
    }));
  }

  /**
   * A transition update: the validator rejects what the machine refuses (nothing enters
   * history); the handler checks again in turn, since an earlier update may have moved the
   * state, and runs `apply` with the target state.
   */
  function onTransition<Args extends TransitionRequest<A>, R>(def: UpdateDefinition<R, [Args]>, apply: (args: NoInfer<Args>, to: S) => Promise<NoInfer<R>>) {
    setHandler(def, (args) => serial(async () => {
      const c = check(args.action, args.actor, { ...(args as Record<string, unknown>) });
      if (!c.ok) throw transitionFailure(c);
      return apply(args, c.to);
    }), {
      validator: (args) => {
        if (!state.created) throw notCreated(args.action);
        const c = check(args.action, args.actor, { ...(args as Record<string, unknown>) });
        if (!c.ok) throw transitionFailure(c);
      },
    });
  }

  const done = () => isFinal(machine, state.status);
  const mustContinue = () => workflowInfo().continueAsNewSuggested;

  /**
   * The process's main loop: `step` waits for its timers or for `stop()` (the record is
   * final, or the history should be continued as new). In-flight updates finish and
   * answer their callers before the workflow completes or continues as new.
   */
  async function run(step: (stop: () => boolean) => Promise<void>, continueAsNew: () => Promise<never>): Promise<void> {
    const stop = () => done() || mustContinue();
    while (!stop()) await step(stop);
    await condition(allHandlersFinished);
    if (!done()) await continueAsNew();
  }

  return { serial, check, commit, project, onCreate, onTransition, publishStatus, run, done };
}
