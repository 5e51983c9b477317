import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  CDD_REVIEW_STATO, cancelCddReviewUpdate, rescheduleCddReviewUpdate, type CddReviewState,
} from '../../../workflows/cdd/cdd-review.contract';
import { cddReviewMachine, type CddReviewAction, type CddReviewStatus } from '../../../workflows/cdd/cdd-review.machine';
import { isFinal, type MachineActor } from '../../../workflows/lib/machine';
import type { UpdateDefinition } from '@temporalio/common';
import { HttpError, invalidTransition, notFound, ValidationError } from '../../http/errors';
import { decideInTransaction, executeUpdate, type ProcessClient, type RejectionMessages } from '../../kit/process';
import { findCddReview, type CddReviewRow } from './cdd-review.repo';
import {
  cancelReviewSchema, MAX_REVIEW_YEARS, rescheduleReviewSchema, type CancelReviewInput, type RescheduleReviewInput,
} from './cdd-review.schemas';

export interface CddReviewDeps extends Pick<ProcessClient, 'client'> {
  db: Knex;
}

const STATUS_OF_STATO = Object.fromEntries(Object.entries(CDD_REVIEW_STATO).map(([status, stato]) => [stato, status])) as Record<string, CddReviewStatus>;
/** The API's names for the machine's input fields. */
const FIELD = { dueAt: 'due_at', reason: 'motivazione' } as Record<string, string>;

/** The review's wording of the machine's refusals; the mapping itself is the kit's (409, 403, 422, 503). */
const MESSAGES: RejectionMessages = { FORBIDDEN: 'Il tuo ruolo non consente questa azione sulla verifica periodica' };

/** The API's names of the machine's input fields, in a 422. */
function renameFields(e: HttpError): HttpError {
  const errors = e.extra.errors as { path: string; message: string }[] | undefined;
  if (e instanceof ValidationError && errors) for (const x of errors) x.path = FIELD[x.path] ?? x.path;
  return e;
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
async function send<Args extends { actor: MachineActor }>(
  d: CddReviewDeps, row: CddReviewRow, action: CddReviewAction, args: Args, update: UpdateDefinition<CddReviewState, [Args]>,
): Promise<CddReviewState> {
  const state = STATUS_OF_STATO[row.stato] ?? 'scheduled';
  try {
    if (isFinal(cddReviewMachine, state)) {
      decideInTransaction(cddReviewMachine, { state, action, actor: args.actor, input: { ...args }, messages: MESSAGES });
    }
    return await executeUpdate(d, row.workflow_id, update, [args], {
      fallback: { state, action }, messages: MESSAGES,
      // Ended between the read and the update (it fell due, or an operator terminated it): nothing can change it now.
      notRunning: () => invalidTransition(state, action, []),
    });
  } catch (err) {
    throw err instanceof HttpError ? renameFields(err) : err;
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
  return send(d, row, 'reschedule', args, rescheduleCddReviewUpdate);
}

/** Cancels a scheduled review, with the reason: it will never fall due. */
export async function cancelCddReview(d: CddReviewDeps, p: {
  codAzienda: string; reviewId: string; actor: MachineActor; input: CancelReviewInput;
}): Promise<CddReviewState> {
  const row = await load(d, p.codAzienda, p.reviewId);
  const input = parse(cancelReviewSchema, p.input);
  const args = { actor: p.actor, reason: input.motivazione };
  return send(d, row, 'cancel', args, cancelCddReviewUpdate);
}
