import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, type SearchAttributePair, type UpdateDefinition } from '@temporalio/common';
import { checkTransition, type MachineActor, type MachineDef } from '../../workflows/lib/machine';
import { PROCESS_FAILURES } from '../../workflows/lib/record-process';
import type { TransitionFailureDetails } from '../../workflows/lib/transition-failure';
import {
  forbidden, fourEyesRequired, HttpError, invalidTransition, serviceUnavailable, UncertainOutcome, ValidationError,
} from '../http/errors';
import { isUnavailable } from '../http/unavailable';
import type { Role } from './roles';
import { nextUpdateId } from './request-context';

/** How long an HTTP request waits for a workflow update before answering 503 (the worker may be gone). */
export const UPDATE_DEADLINE_MS = 10_000;

export interface ProcessClient {
  client: Client;
  taskQueue: string;
}

/** Per-process wording of the machine's refusals (the defaults are generic). */
export type RejectionMessages = Partial<Record<'FOUR_EYES_REQUIRED' | 'FORBIDDEN', string>>;

/** One mapping of the machine's refusals to HTTP: 409 with the allowed actions, 403, 422. */
export function rejectionToHttp(code: string, d: TransitionFailureDetails, messages: RejectionMessages = {}): HttpError {
  const withActions = (e: HttpError) => { Object.assign(e.extra, { allowed_actions: d.allowed_actions, state: d.state }); return e; };
  switch (code) {
    case 'FOUR_EYES_REQUIRED': return withActions(fourEyesRequired(messages.FOUR_EYES_REQUIRED));
    case 'FORBIDDEN': return withActions(forbidden(messages.FORBIDDEN ?? 'Il tuo ruolo non consente questa azione'));
    case 'MISSING_FIELDS': return new ValidationError((d.missing ?? []).map((f) => ({ path: f, message: 'Campo obbligatorio' })));
    default: return invalidTransition(d.state, d.action, d.allowed_actions);
  }
}

const MACHINE_CODES = new Set(['INVALID_TRANSITION', 'FORBIDDEN', 'FOUR_EYES_REQUIRED', 'MISSING_FIELDS', PROCESS_FAILURES.notCreated]);

export interface UpdateErrorMapping {
  /** The record as the caller knows it (state and action) when a refusal carries no details. */
  fallback?: { state: string; action: string };
  messages?: RejectionMessages;
  /** Process-specific failure types (ApplicationFailure.type) and their HTTP answer. */
  failures?: (type: string, failure: ApplicationFailure) => HttpError | undefined;
  /** The workflow is gone (the record ended): what the caller gets. */
  notRunning?: () => HttpError;
}

/** The HTTP answer to a failed update: refusals as 409/403/422, unavailable dependencies as 503. */
export function updateErrorToHttp(err: unknown, map: UpdateErrorMapping = {}): unknown {
  let cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
  // A refusal raised by an activity the handler ran arrives wrapped (workflows that predate the kit let it through).
  if (cause instanceof ActivityFailure) cause = cause.cause;
  if (cause instanceof ApplicationFailure && cause.type) {
    const own = map.failures?.(cause.type, cause);
    if (own) return own;
    if (cause.type === PROCESS_FAILURES.projectionFailed) return serviceUnavailable('Il salvataggio non è riuscito (servizio momentaneamente non disponibile): nulla è cambiato, riprova');
    if (cause.type === PROCESS_FAILURES.invalidData) return new ValidationError([], 'I dati inviati non possono essere memorizzati: nulla è cambiato');
    if (MACHINE_CODES.has(cause.type)) {
      const details = (cause.details?.[0] ?? { state: map.fallback?.state ?? '', action: map.fallback?.action ?? '', allowed_actions: [] }) as TransitionFailureDetails;
      return rejectionToHttp(cause.type, details, map.messages);
    }
  }
  if (err instanceof WorkflowNotFoundError && map.notRunning) return map.notRunning();
  // No answer in time (no worker, Temporal unreachable): the update may still be applied.
  if (isUnavailable(err)) return new UncertainOutcome();
  return err;
}

/**
 * Sends one update to a record's workflow and answers with its result. The update id comes
 * from the request's Idempotency-Key (a retry is answered, never applied twice); the wait
 * is bounded, so a request never hangs on a missing worker (503, retry with the same key).
 */
export async function executeUpdate<R, Args extends [any, ...any[]]>(
  pc: Pick<ProcessClient, 'client'>, workflowId: string, update: UpdateDefinition<R, Args>, args: Args, map: UpdateErrorMapping = {},
): Promise<R> {
  const handle = pc.client.workflow.getHandle(workflowId);
  try {
    return await pc.client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
      handle.executeUpdate(update, { args, updateId: nextUpdateId() }));
  } catch (err) {
    throw updateErrorToHttp(err, map);
  }
}

/**
 * Starts a record's workflow without waiting for anything it does: the same id again joins the
 * workflow already running (a retry, a repeated request), so nothing starts twice.
 */
export async function startRecordWorkflow(pc: ProcessClient, p: {
  workflowType: string; workflowId: string; input: unknown; searchAttributes: SearchAttributePair[]; map?: UpdateErrorMapping;
}): Promise<void> {
  try {
    await pc.client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => pc.client.workflow.start(p.workflowType, {
      workflowId: p.workflowId, taskQueue: pc.taskQueue, args: [p.input], workflowIdConflictPolicy: 'USE_EXISTING', typedSearchAttributes: p.searchAttributes,
    }));
  } catch (err) {
    throw updateErrorToHttp(err, p.map);
  }
}

/**
 * Starts a record's workflow and sends its create update in one call; a workflow that
 * already runs under that id (a retry) gets the update, which answers "already created".
 */
export async function startWithUpdate<R, Args extends [any, ...any[]]>(pc: ProcessClient, p: {
  workflowType: string; workflowId: string; input: unknown; searchAttributes: SearchAttributePair[];
  update: UpdateDefinition<R, Args>; args: Args; map?: UpdateErrorMapping;
}): Promise<R> {
  const start = new WithStartWorkflowOperation(p.workflowType, {
    workflowId: p.workflowId, taskQueue: pc.taskQueue, args: [p.input], workflowIdConflictPolicy: 'USE_EXISTING', typedSearchAttributes: p.searchAttributes,
  });
  try {
    return await pc.client.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
      pc.client.workflow.executeUpdateWithStart(p.update, { args: p.args, startWorkflowOperation: start, updateId: nextUpdateId() }));
  } catch (err) {
    throw updateErrorToHttp(err, p.map);
  }
}

/** The roles that may take any of these actions in some state: what a route admits before the machine decides. */
export function rolesFor<S extends string, A extends string>(machine: MachineDef<S, A>, ...actions: A[]): Role[] {
  const roles = machine.transitions.filter((t) => actions.includes(t.action)).flatMap((t) => t.roles);
  if (!roles.length) throw new Error(`machine ${machine.name} has no transition ${actions.join(', ')}`);
  return [...new Set(roles)] as Role[];
}

/**
 * The same machine for a process kept in a table (matches, alerts): decided inside the
 * caller's transaction, on the row it locked. Answers the target state or throws the
 * HTTP refusal.
 */
export function decideInTransaction<S extends string, A extends string>(machine: MachineDef<S, A>, req: {
  state: S; action: A; actor: MachineActor; record?: Record<string, unknown>; input?: Record<string, unknown>; messages?: RejectionMessages;
}): S {
  const c = checkTransition(machine, { state: req.state, action: req.action, actor: req.actor, record: req.record, input: req.input });
  if (!c.ok) throw rejectionToHttp(c.code, { state: c.state, action: c.action, allowed_actions: c.allowedActions, missing: c.missing }, req.messages);
  return c.to;
}
