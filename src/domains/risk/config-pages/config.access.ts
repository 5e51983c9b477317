import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { Deps } from '../../../deps';
import { tenantOf } from '../../../http/auth';
import type { Ctx } from '../../../http/render';
import type { Role } from '../../../kit/roles';

/** Who edits the model (factors, draft rules, thresholds): the compliance officer and the tenant admin. */
export const CONFIG_EDITORS: Role[] = ['co', 'admin'];
/** Who puts a draft in force: the compliance officer only (the model is their responsibility, art. 16 d.lgs. 231/2007). */
export const CONFIG_ACTIVATORS: Role[] = ['co'];

/** A read in the signed-in user's tenant, under its row-level security. */
export const readTx = <T>(deps: Deps, ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

export const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/** Form values to show again as typed (strings only: nothing else comes from a form). */
export const typed = (body: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(body).filter(([k, v]) => k !== '_csrf' && typeof v === 'string')) as Record<string, string>;
