import type { Knex } from 'knex';
import type { z } from 'zod';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { withTenant } from '../../../db/tenant';
import { conflict, ValidationError } from '../../../http/errors';
import { appendAudit, type AuditAction } from '../../audit';
import { seedDefaultModel } from './engine.seed';

/** What the model's commands need and get: the application pool; the tenant and the signed-in actor. */
export interface ModelDeps { db: Knex }
export interface ModelCall { codAzienda: string; actor: MachineActor }

/** One tenant transaction for a command (the audit event in the same transaction as the change). */
export const inTenant = <T>(deps: ModelDeps, p: ModelCall, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor.username }, fn);

export const audit = (trx: Knex.Transaction, p: ModelCall, action: Extract<AuditAction, `risk_model.${string}`>, entityType: string, entityId: string, data: Record<string, unknown>) =>
  appendAudit(trx, { codAzienda: p.codAzienda, actor: p.actor.username, action, entityType, entityId, data });

/** Commands and pages see the default model even before the first score: it is seeded on first use. */
export async function ensureModel(trx: Knex.Transaction, codAzienda: string): Promise<void> {
  const seeded = await trx('rischio_versioni').where({ cod_azienda: codAzienda }).first('id');
  const soglie = await trx('rischio_soglie').where({ cod_azienda: codAzienda }).first('id');
  if (!seeded || !soglie) await seedDefaultModel(trx, codAzienda);
}

/** Input checked by the command too (pages call commands directly): a 422 with each field's message. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw ValidationError.fromZod(r.error);
  return r.data;
}

/** A rule set that cannot take this change in its state: 409 with what can be done instead. */
export const versionConflict = (code: string, detail: string, stato: string, allowed: string[], extra: Record<string, unknown> = {}) =>
  conflict(code, detail, { state: stato, allowed_actions: allowed, ...extra });

/** Actions a rule set allows in its state (buttons, 409 answers). */
export function versionActions(stato: string, draftExists: boolean): string[] {
  if (stato === 'draft') return ['modifica', 'attiva', 'scarta'];
  if (stato === 'active') return draftExists ? [] : ['crea-bozza'];
  return [];
}

export const isUniqueViolation = (err: unknown, constraint?: string) =>
  (err as { code?: string }).code === '23505' && (!constraint || (err as { constraint?: string }).constraint === constraint);
