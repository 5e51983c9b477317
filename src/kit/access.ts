import type Koa from 'koa';
import type { AppState } from '../http/context';
import { forbidden, HttpError, notFound, unauthenticated } from '../http/errors';
import type { Role } from './roles';

/**
 * Who may call a route. Every route declares it, so no route can trust a caller it did not
 * ask for (a half-signed-in session, say):
 * - staff: a user signed in with both factors, holding one of the roles;
 * - second-factor: a user who gave the password and still owes the TOTP step (the TOTP pages);
 * - applicant: the onboarding applicant, whose session is bound to one case (no account);
 * - signer: a signer holding a ceremony's signing token (no account);
 * - public: anyone.
 */
export type Caller = 'staff' | 'second-factor' | 'applicant' | 'signer' | 'public';

export interface Access {
  readonly callers: readonly Caller[];
  /** Staff roles admitted; 'any' is every signed-in staff user. */
  readonly roles: readonly Role[] | 'any';
  /** Answers a refused request instead of the default (a page that explains how to get back in). */
  readonly refuse?: (ctx: Koa.ParameterizedContext<AppState>) => void | Promise<void>;
}

const freeze = (a: Access): Access => Object.freeze({ ...a, callers: Object.freeze([...a.callers]) });

/** The same callers, refused with a page of the area's own (it must answer with a non-2xx status). */
export const withRefusal = (a: Access, refuse: NonNullable<Access['refuse']>): Access => freeze({ ...a, refuse });

/** Staff signed in with both factors and one of the roles (no argument: any staff user). */
export const staff = (roles?: readonly Role[]): Access => freeze({ callers: ['staff'], roles: roles ?? 'any' });
export const PUBLIC: Access = freeze({ callers: ['public'], roles: [] });
export const SECOND_FACTOR: Access = freeze({ callers: ['second-factor'], roles: [] });
export const APPLICANT: Access = freeze({ callers: ['applicant'], roles: [] });
export const SIGNER: Access = freeze({ callers: ['signer'], roles: [] });

/** Either caller is admitted (a signer with the token, or staff reading the same record). */
export function anyOf(...accesses: Access[]): Access {
  const roles = accesses.flatMap((a) => (a.callers.includes('staff') ? [a.roles] : []));
  return freeze({
    callers: [...new Set(accesses.flatMap((a) => a.callers))],
    roles: roles.includes('any') ? 'any' : [...new Set(roles.flat() as Role[])],
  });
}

export const isPublic = (a: Access) => a.callers.includes('public');

const wantsHtml = (ctx: Koa.Context) => !ctx.path.startsWith('/api/') && !ctx.path.startsWith('/auth/') && ctx.accepts('html', 'json') === 'html';

/** A signing token in the query or the body: the handler then checks it against the ceremony. */
function signingToken(ctx: Koa.ParameterizedContext<AppState>): string | undefined {
  const body = (ctx.request as unknown as { body?: unknown }).body;
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>).token : undefined;
  const t = typeof ctx.query.token === 'string' ? ctx.query.token : fromBody;
  return typeof t === 'string' && t.length > 0 ? t : undefined;
}

const staffAdmits = (a: Access, ctx: Koa.ParameterizedContext<AppState>) => {
  const u = ctx.state.user;
  return !!u && (a.roles === 'any' || u.ruoli.some((r) => (a.roles as readonly Role[]).includes(r)));
};

/** The middleware that enforces a declaration; refusals say what is missing, never more. */
export function accessGuard(a: Access): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const s = ctx.state;
    const ok = a.callers.includes('public')
      || (a.callers.includes('staff') && staffAdmits(a, ctx))
      || (a.callers.includes('applicant') && !!s.customer)
      || (a.callers.includes('signer') && !!signingToken(ctx))
      || (a.callers.includes('second-factor') && !!s.pendingUser);
    if (ok) return next();
    if (a.refuse) return a.refuse(ctx);
    // The applicant's and the signer's records are reached only with their session or token:
    // without it the record does not exist for this caller (staff reading the same record
    // with a valid session were admitted above).
    if (a.callers.includes('applicant')) throw notFound('Pratica');
    if (a.callers.includes('signer')) throw notFound('Cerimonia');
    if (a.callers.includes('staff')) {
      if (s.user) throw forbidden();
      const html = wantsHtml(ctx) && ctx.method === 'GET';
      if (s.pendingUser) {
        if (html) return ctx.redirect(s.pendingUser.totp_enabled ? '/totp/verify' : '/totp/setup');
        throw new HttpError(401, 'MFA_REQUIRED', 'Secondo fattore richiesto', 'Completa la verifica TOTP');
      }
      if (html) return ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
      throw unauthenticated();
    }
    if (a.callers.includes('second-factor')) {
      if (wantsHtml(ctx) && ctx.method === 'GET') return ctx.redirect(s.user ? '/' : '/login');
      throw unauthenticated();
    }
    throw unauthenticated();
  };
}
