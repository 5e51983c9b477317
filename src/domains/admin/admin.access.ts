import type { Knex } from 'knex';
import { withPlatform, withTenant, type PlatformDb } from '../../db/tenant';
import type { Deps } from '../../deps';
import { tenantOf } from '../../http/auth';
import type { Ctx } from '../../http/render';
import { conflict, forbidden, notFound, ValidationError } from '../../http/errors';
import { PLATFORM_SCOPE, tenantScope, type ListScope } from '../../kit/list';

export const isSuperadmin = (ctx: Ctx) => !!ctx.state.user?.ruoli.includes('superadmin');

/**
 * Superadmins manage the platform (all tenants, through the platform role); a tenant admin
 * works inside their own tenant, where row-level security hides every other tenant's rows.
 */
/** The list scope that matches inAdminScope's transaction: platform-wide for a superadmin, the tenant otherwise. */
export const adminListScope = (ctx: Ctx): ListScope => (isSuperadmin(ctx) ? PLATFORM_SCOPE : tenantScope(tenantOf(ctx)));

export function inAdminScope<T>(deps: Pick<Deps, 'db' | 'platformDb'>, ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const actor = ctx.state.user!.username;
  if (isSuperadmin(ctx)) return withPlatform(deps.platformDb, actor, fn);
  return withTenant(deps.db, { codAzienda: tenantOf(ctx), actor }, fn);
}

/** Unique violations become 409 with a message a person understands. */
export function mapUniqueViolation(err: unknown, code: string, detail: string): never {
  if ((err as { code?: string })?.code === '23505') throw conflict(code, detail);
  throw err;
}

/**
 * Only a superadmin may change, disable or reset a superadmin: otherwise a tenant admin
 * could set a new password and reset the second factor of a platform account and take it over.
 */
export function assertCanManage(ctx: Ctx, target: { ruoli: readonly string[] }) {
  if (!isSuperadmin(ctx) && target.ruoli.includes('superadmin')) {
    throw forbidden('Solo un superamministratore può modificare un superamministratore');
  }
}

/** An administrator cannot lock themselves out: no self-deactivation, no dropping their own administrator role. */
export function assertNotSelfLockout(ctx: Ctx, target: { cod_utente: string }, patch: { attivo?: boolean; ruoli?: readonly string[] }) {
  const me = ctx.state.user!;
  if (target.cod_utente !== me.cod_utente) return;
  if (patch.attivo === false) throw new ValidationError([{ path: 'attivo', message: 'Non puoi disattivare il tuo stesso utente' }]);
  const lost = patch.ruoli ? me.ruoli.filter((r) => (r === 'admin' || r === 'superadmin') && !patch.ruoli!.includes(r)) : [];
  if (lost.length) throw new ValidationError([{ path: 'ruoli', message: 'Non puoi togliere a te stesso il ruolo di amministratore' }]);
}

/**
 * The tenant whose settings are read or changed: an admin's own; a superadmin's active
 * tenant or the one asked for (?cod_azienda=), which must exist. Another tenant is a 404.
 */
export async function settingsTenant(db: PlatformDb, ctx: Ctx, requested?: string): Promise<string> {
  if (!isSuperadmin(ctx)) {
    const own = tenantOf(ctx);
    if (requested && requested !== own) throw notFound('Azienda');
    return own;
  }
  const cod = requested || tenantOf(ctx);
  const exists = await withPlatform(db, ctx.state.user!.username, (trx) => trx('aziende').where({ cod_azienda: cod }).first('cod_azienda'));
  if (!exists) throw notFound('Azienda');
  return cod;
}
