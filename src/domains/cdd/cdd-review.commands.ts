import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  CDD_REVIEW_STATO, cancelCddReviewUpdate, rescheduleCddReviewUpdate, type CddReviewState,
} from '../../../workflows/cdd/cdd-review.contract';
import { cddReviewMachine, type CddReviewAction, type CddReviewStatus } from '../../../workflows/cdd/cdd-review.machine';
import { checkTransition, isFinal, type MachineActor } from '../../../workflows/lib/machine';
import type { TransitionFailureDetails } from '../../../workflows/lib/transition-failure';
import { forbidden, HttpError, invalidTransition, notFound, ValidationError } from '../../http/errors';
import { findCddReview, type CddReviewRow } from './cdd-review.repo';
import {
  cancelReviewSchema, MAX_REVIEW_YEARS, rescheduleReviewSchema, type CancelReviewInput, type RescheduleReviewInput,
} from './cdd-review.schemas';

export interface CddReviewDeps {
  db: Knex;
  client: Client;
}

const STATUS_OF_STATO = Object.fromEntries(Object.entries(CDD_REVIEW_STATO).map(([status, stato]) => [stato, status])) as Record<string, CddReviewStatus>;
/** The API's names for the machine's input fields. */
const FIELD = { dueAt: 'due_at', reason: 'motivazione' } as Record<string, string>;

/** A machine rejection as the HTTP error the API documents (409 with the allowed actions, 403, 422). */
function rejection(code: string, d: TransitionFailureDetails): HttpError {
  switch (code) {
    case 'FORBIDDEN': {
      const e = forbidden('Il tuo ruolo non consente questa azione sulla verifica periodica');
      Object.assign(e.extra, { allowed_actions: d.allowed_actions, state: d.state });
      return e;
    }
    case 'MISSING_FIELDS':
      return new ValidationError((d.missing ?? []).map((f) => ({ path: FIELD[f] ?? f, message: 'Campo obbligatorio' })));
    default:
      return invalidTransition(d.state, d.action, d.allowed_actions);
  }
}

async function load(d: CddReviewDeps, codAzienda: string, reviewId: string): Promise<CddReviewRow> {
  const row = await findCddReview(d.db, codAzienda, reviewId);
  if (!row) throw notFound('Verifica periodica');
  return row;
}

/**
 * Sends one change to the review's workflow, whose validator is the authority. A review that
 * is due or cancelled has no running workflow any more: the machine answers for it here.
 */
async function send(
  d: CddReviewDeps, row: CddReviewRow, action: CddReviewAction, actor: MachineActor, fields: Record<string, unknown>,
  update: (h: WorkflowHandle) => Promise<CddReviewState>,
): Promise<CddReviewState> {
  const state = STATUS_OF_STATO[row.stato] ?? 'scheduled';
  if (isFinal(cddReviewMachine, state)) {
    const c = checkTransition(cddReviewMachine, { state, action, actor, input: fields });
    if (!c.ok) throw rejection(c.code, { state: c.state, action: c.action, allowed_actions: c.allowedActions, missing: c.missing });
  }
  try {
    return await update(d.client.workflow.getHandle(row.workflow_id));
  } catch (err) {
    const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type) {
      const details = (cause.details?.[0] ?? { state, action, allowed_actions: [] }) as TransitionFailureDetails;
      throw rejection(cause.type, details);
    }
    // Ended between the read and the update (it fell due, or an operator terminated it): nothing can change it now.
    if (err instanceof WorkflowNotFoundError) throw invalidTransition(state, action, []);
    throw err;
  }
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw ValidationError.fromZod(r.error);
  return r.data;
}

/** Moves a scheduled review to a new due date (earlier or later), with the reason; the old timer never fires. */
export async function rescheduleCddReview(d: CddReviewDeps, p: {
  codAzienda: string; reviewId: string; actor: MachineActor; input: RescheduleReviewInput; now?: Date;
}): Promise<CddReviewState> {
  const row = await load(d, p.codAzienda, p.reviewId);
  const input = parse(rescheduleReviewSchema, p.input);
  const dueAt = new Date(input.due_at);
  const now = p.now ?? new Date();
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_REVIEW_YEARS);
  if (dueAt.getTime() <= now.getTime()) throw new ValidationError([{ path: 'due_at', message: 'La nuova scadenza deve essere nel futuro' }]);
  if (dueAt.getTime() > latest.getTime()) throw new ValidationError([{ path: 'due_at', message: `La nuova scadenza deve essere entro ${MAX_REVIEW_YEARS} anni` }]);
  const args = { actor: p.actor, dueAt: dueAt.toISOString(), reason: input.motivazione };
  return send(d, row, 'reschedule', p.actor, args, (h) => h.executeUpdate(rescheduleCddReviewUpdate, { args: [args] }));
}

/** Cancels a scheduled review, with the reason: it will never fall due. */
export async function cancelCddReview(d: CddReviewDeps, p: {
  codAzienda: string; reviewId: string; actor: MachineActor; input: CancelReviewInput;
}): Promise<CddReviewState> {
  const row = await load(d, p.codAzienda, p.reviewId);
  const input = parse(cancelReviewSchema, p.input);
  const args = { actor: p.actor, reason: input.motivazione };
  return send(d, row, 'cancel', p.actor, args, (h) => h.executeUpdate(cancelCddReviewUpdate, { args: [args] }));
}
