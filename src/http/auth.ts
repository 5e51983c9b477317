import type Koa from 'koa';
import type { Role } from '../kit/roles';
import type { SessionStore } from './session-store';
import { withPlatform, type PlatformDb } from '../db/tenant';
import { SESSION_USER_FIELDS, type AppState, type SessionUser } from './context';
import { noTenant } from './errors';

export const SESSION_COOKIE = 'cp_sid';

export function cookieOptions(secure: boolean, maxAgeMs?: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, overwrite: true, path: '/', maxAge: maxAgeMs };
}

export async function loadUser(db: PlatformDb, codUtente: string): Promise<SessionUser | undefined> {
  // A disabled user, or a user of a disabled tenant, has no live session: checked on every request.
  return withPlatform(db, null, (trx) =>
    trx('utenti as u').leftJoin('aziende as a', 'a.cod_azienda', 'u.cod_azienda')
      .where({ 'u.cod_utente': codUtente, 'u.attivo': true })
      .where((w) => w.whereNull('u.cod_azienda').orWhere('a.attiva', true))
      .first(SESSION_USER_FIELDS.map((f) => `u.${f}`)));
}

/** Loads the session and its user; a session whose user was disabled is ended. */
export function sessionMiddleware(store: SessionStore): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const sid = ctx.cookies.get(SESSION_COOKIE);
    if (sid) {
      const loaded = await store.load(sid);
      const session = loaded?.row;
      if (session?.kind === 'staff' && session.cod_utente) {
        // A disabled user, or a user of a disabled tenant, has no live session: checked on every request.
        const user = loaded!.user;
        if (user) {
          ctx.state.session = session;
          if (session.mfa_ok) {
            ctx.state.user = user;
            // Only a superadmin chooses a tenant; anyone else works in their own, whatever the row says.
            ctx.state.tenant = user.ruoli.includes('superadmin') ? session.tenant_attivo ?? user.cod_azienda : user.cod_azienda;
          } else {
            ctx.state.pendingUser = user;
          }
        } else {
          await store.destroy(session.id_hash);
        }
      } else if (session) {
        ctx.state.session = session;
      }
    }
    await next();
  };
}

export const hasRole = (user: SessionUser | undefined, roles: readonly Role[]) =>
  !!user && user.ruoli.some((r) => roles.includes(r));

/** The tenant of the request; a user without one gets the dedicated page. */
export function tenantOf(ctx: Koa.ParameterizedContext<AppState>): string {
  const t = ctx.state.tenant;
  if (!t) throw noTenant();
  return t;
}
