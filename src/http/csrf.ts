import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { HttpError } from './errors';
import type { AppState } from './context';

const COOKIE = 'cp_csrf';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The rule, as the OpenAPI document and docs/architecture.md state it. */
export const CSRF_RULE = [
  'Richieste che modificano dati (POST, PUT, PATCH, DELETE):',
  '- dichiarate JSON (Content-Type: application/json, con o senza corpo) o senza corpo e senza Content-Type: basta la sessione, nessun token;',
  '- con dati di modulo (application/x-www-form-urlencoded, multipart/form-data, text/plain o un corpo di altro tipo): serve il token CSRF',
  '  (campo _csrf, intestazione X-CSRF-Token, oppure ?_csrf= per i moduli multipart);',
  '- inviate da un browser da un altro sito (Sec-Fetch-Site cross-site o same-site, o Origin diverso da questo server): rifiutate con 403 CSRF_FAILED.',
  'I cookie di sessione sono SameSite=Lax.',
].join('\n');

const refuse = () => new HttpError(403, 'CSRF_FAILED', 'Richiesta non valida', 'Token di sicurezza mancante o scaduto: ricarica la pagina e riprova');

/** A browser says where a request comes from; only this origin (or the user typing the address) may change data. */
function fromAnotherSite(ctx: Koa.Context, publicHost: string | undefined): boolean {
  const site = ctx.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = ctx.get('Origin');
  if (!origin) return false;
  try {
    const host = new URL(origin).host;
    return host !== ctx.host && host !== publicHost;
  } catch {
    return true; // "null" or garbage: an opaque origin is never ours
  }
}

/** No body at all: nothing a cross-site form could have filled in. */
const hasBody = (ctx: Koa.Context) => ctx.get('Transfer-Encoding') !== '' || Number(ctx.get('Content-Length') || 0) > 0;

/**
 * Declared JSON, with a body or without one. Read from the header itself: Koa's ctx.is() answers
 * null when there is no body, which refused a body-less DELETE that many API clients send with
 * this header. No cross-site form can declare this type (it takes a CORS preflight, never granted).
 */
const declaresJson = (ctx: Koa.Context) => ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase() === 'application/json';

/**
 * Signed double-submit token: the cookie holds a random value, forms carry its HMAC.
 * It works before sign-in too (the login form), without a server-side session.
 * JSON (declared by its Content-Type, with or without a body) and body-less requests need no
 * token: a cross-site page cannot declare JSON without a CORS preflight (never granted), a
 * body-less request without a type carries no form data (an empty form still declares its
 * type, and needs the token), and a browser sending either from another site is refused by
 * Sec-Fetch-Site / Origin.
 */
export function csrf(secret: string, secure: boolean, publicBaseUrl?: string): Koa.Middleware<AppState> {
  const sign = (v: string) => createHmac('sha256', secret).update(`csrf:${v}`).digest('base64url');
  const publicHost = publicBaseUrl ? new URL(publicBaseUrl).host : undefined;
  return async (ctx, next) => {
    let seed = ctx.cookies.get(COOKIE);
    if (!seed || seed.length < 20) {
      seed = randomBytes(24).toString('base64url');
      ctx.cookies.set(COOKIE, seed, { httpOnly: true, sameSite: 'strict', secure, overwrite: true });
    }
    const token = sign(seed);
    ctx.state.csrfToken = token;
    if (UNSAFE.has(ctx.method)) {
      if (fromAnotherSite(ctx, publicHost)) throw refuse();
      const exempt = declaresJson(ctx) || (!hasBody(ctx) && !ctx.get('Content-Type'));
      if (!exempt) {
        const body = (ctx.request as unknown as { body?: Record<string, unknown> }).body;
        // Multipart forms are parsed by their route, after this check: they carry the token in the query string.
        const sent = String(ctx.get('X-CSRF-Token') || (body && typeof body === 'object' ? body._csrf ?? '' : '') || ctx.query._csrf || '');
        const ok = sent.length === token.length && timingSafeEqual(Buffer.from(sent), Buffer.from(token));
        if (!ok) throw refuse();
      }
    }
    await next();
  };
}
