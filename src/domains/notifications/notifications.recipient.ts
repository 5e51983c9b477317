import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import type { Ctx } from '../../http/render';
import type { Recipient } from './notifications.repo';

/** The signed-in user as a recipient, or undefined when acting in no tenant (nothing to show). */
export function recipientOf(ctx: Ctx): Recipient | undefined {
  const user = ctx.state.user;
  const tenant = ctx.state.tenant;
  return user && tenant ? { codAzienda: tenant, codUtente: user.cod_utente } : undefined;
}

/** Runs fn in the recipient's tenant (RLS), acting as the signed-in user. */
export const asRecipient = <T>(deps: Deps, r: Recipient, actor: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.db, { codAzienda: r.codAzienda, actor }, fn);
