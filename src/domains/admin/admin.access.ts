import type { DbContext } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import type { Ctx } from '../../http/render';
import { conflict } from '../../http/errors';

export const isSuperadmin = (ctx: Ctx) => !!ctx.state.user?.ruoli.includes('superadmin');

/**
 * Superadmins manage the platform (all tenants, platform scope); a tenant admin works
 * inside their own tenant, where row-level security hides every other tenant's rows.
 */
export function adminScope(ctx: Ctx): DbContext {
  const actor = ctx.state.user!.username;
  if (isSuperadmin(ctx)) return { codAzienda: ctx.state.tenant ?? null, scope: 'platform', actor };
  return { codAzienda: tenantOf(ctx), scope: 'tenant', actor };
}

/** Unique violations become 409 with a message a person understands. */
export function mapUniqueViolation(err: unknown, code: string, detail: string): never {
  if ((err as { code?: string })?.code === '23505') throw conflict(code, detail);
  throw err;
}
