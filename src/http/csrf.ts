import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { HttpError } from './errors';
import type { AppState } from './context';

const COOKIE = 'cp_csrf';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Signed double-submit token: the cookie holds a random value, forms carry its HMAC.
 * It works before sign-in too (the login form), without a server-side session.
 * JSON requests are exempt: a cross-site page cannot send application/json without a CORS preflight.
 */
export function csrf(secret: string, secure: boolean): Koa.Middleware<AppState> {
  const sign = (v: string) => createHmac('sha256', secret).update(`csrf:${v}`).digest('base64url');
  return async (ctx, next) => {
    let seed = ctx.cookies.get(COOKIE);
    if (!seed || seed.length < 20) {
      seed = randomBytes(24).toString('base64url');
      ctx.cookies.set(COOKIE, seed, { httpOnly: true, sameSite: 'strict', secure, overwrite: true });
    }
    const token = sign(seed);
    ctx.state.csrfToken = token;
    if (UNSAFE.has(ctx.method) && !ctx.is('application/json')) {
      const body = (ctx.request as unknown as { body?: Record<string, unknown> }).body;
      // Multipart forms are parsed by their route, after this check: they carry the token in the query string.
      const sent = String(ctx.get('X-CSRF-Token') || (body && typeof body === 'object' ? body._csrf ?? '' : '') || ctx.query._csrf || '');
      const ok = sent.length === token.length && timingSafeEqual(Buffer.from(sent), Buffer.from(token));
      if (!ok) throw new HttpError(403, 'CSRF_FAILED', 'Richiesta non valida', 'Token di sicurezza mancante o scaduto: ricarica la pagina e riprova');
    }
    await next();
  };
}
