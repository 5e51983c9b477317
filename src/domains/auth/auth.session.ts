import type { AppServices } from '../../kit/area';
import { SESSION_COOKIE, cookieOptions } from '../../http/auth';
import type { Ctx } from '../../http/render';

/**
 * Starts a fresh server-side session and sets its cookie. The previous session of this
 * browser (anonymous, half signed-in or another user's) is destroyed first, so an id
 * planted before sign-in can never become an authenticated one (session fixation).
 */
export async function startSession(ctx: Ctx, services: AppServices, input: { codUtente: string; mfaOk: boolean; tenant?: string | null; data?: Record<string, unknown> }) {
  await endSession(ctx, services, { clearCookie: false });
  const { id, row } = await services.sessions.create({
    codUtente: input.codUtente,
    tenant: input.tenant ?? null,
    mfaOk: input.mfaOk,
    data: input.data ?? {},
    ip: ctx.ip,
    userAgent: ctx.get('User-Agent'),
  });
  ctx.cookies.set(SESSION_COOKIE, id, cookieOptions(services.deps.config.secureCookies));
  ctx.state.session = row;
  return row;
}

/** Invalidates the session on the server (the cookie alone is then worthless) and clears the cookie. */
export async function endSession(ctx: Ctx, services: AppServices, opts: { clearCookie?: boolean } = {}) {
  if (ctx.state.session) await services.sessions.destroy(ctx.state.session.id_hash);
  ctx.state.session = undefined;
  if (opts.clearCookie ?? true) {
    ctx.cookies.set(SESSION_COOKIE, null, { ...cookieOptions(services.deps.config.secureCookies), maxAge: 0 });
    ctx.state.user = undefined;
    ctx.state.tenant = undefined;
  }
}

/**
 * Where to go after sign-in: only a same-site path ("/x", never "//host", "/\host" or a
 * URL with a scheme), so the `next` parameter cannot become an open redirect.
 */
export function safeNext(raw: unknown, fallback = '/'): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return fallback;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return fallback;
  // Control characters (tab, newline) are stripped by browsers and could turn "/\t/host" into "//host".
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return fallback;
  if (/^\/(login|logout|totp\/)/.test(raw)) return fallback;
  return raw;
}
