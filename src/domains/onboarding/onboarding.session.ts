import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Deps } from '../../deps';
import { withPlatform, withTenant } from '../../db/tenant';
import type { AppState } from '../../http/context';
import { notFound } from '../../http/errors';

export const CUSTOMER_COOKIE = 'cp_onb';
const IDLE_MS = 60 * 60_000;
const ABSOLUTE_MS = 24 * 3_600_000;
const hash = (id: string) => createHash('sha256').update(id).digest('hex');
/** Paths where an applicant's session matters; elsewhere the cookie is not even looked up. */
const CUSTOMER_PATHS = /^\/(onboarding|api\/v1\/onboarding|esign|api\/v1\/esign)(\/|$)/;
/** Onboarding and signing pages and answers (personal data; signing and resume links carry bearer tokens): never kept by a cache. */
const NO_STORE_PATHS = /^\/(onboarding|api\/v1\/onboarding|api\/magic-link|admin\/onboarding|api\/v1\/admin\/onboarding|esign|api\/v1\/esign)(\/|$)/;

/**
 * The applicant's session: no account, one case. A new session replaces any earlier one
 * in this browser (a resume link for another case switches case).
 */
export async function createCustomerSession(deps: Deps, ctx: Koa.ParameterizedContext<AppState>, p: { caseId: string; codAzienda: string }) {
  const old = ctx.cookies.get(CUSTOMER_COOKIE);
  if (old) await withPlatform(deps.platformDb, 'cliente', (trx) => trx('onboarding_sessions').where({ id_hash: hash(old) }).delete());
  const id = randomBytes(32).toString('base64url');
  const now = Date.now();
  await withTenant(deps.db, { codAzienda: p.codAzienda, actor: 'cliente' }, (trx) => trx('onboarding_sessions').insert({
    id_hash: hash(id), cod_azienda: p.codAzienda, case_id: p.caseId, created_at: new Date(now), last_seen_at: new Date(now), expires_at: new Date(now + ABSOLUTE_MS),
  }));
  ctx.cookies.set(CUSTOMER_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: deps.config.secureCookies, overwrite: true, maxAge: ABSOLUTE_MS });
  ctx.state.customer = { caseId: p.caseId, codAzienda: p.codAzienda, sessionIdHash: hash(id) };
}

export async function endCustomerSession(deps: Deps, ctx: Koa.ParameterizedContext<AppState>) {
  const id = ctx.cookies.get(CUSTOMER_COOKIE);
  if (id) await withPlatform(deps.platformDb, 'cliente', (trx) => trx('onboarding_sessions').where({ id_hash: hash(id) }).delete());
  ctx.cookies.set(CUSTOMER_COOKIE, '', { maxAge: 0, overwrite: true });
  ctx.state.customer = undefined;
}

/** Loads the applicant's session on the public onboarding and signing paths: idle 60 min, absolute 24 h. */
export function customerSessionMiddleware(deps: Deps): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const id = CUSTOMER_PATHS.test(ctx.path) ? ctx.cookies.get(CUSTOMER_COOKIE) : undefined;
    if (id) {
      const h = hash(id);
      const row = await withPlatform(deps.platformDb, 'cliente', (trx) => trx('onboarding_sessions').where({ id_hash: h }).first());
      const now = Date.now();
      if (row && new Date(row.expires_at).getTime() > now && new Date(row.last_seen_at).getTime() + IDLE_MS > now) {
        ctx.state.customer = { caseId: row.case_id, codAzienda: row.cod_azienda, sessionIdHash: h };
        if (now - new Date(row.last_seen_at).getTime() > 60_000) {
          await withPlatform(deps.platformDb, 'cliente', (trx) => trx('onboarding_sessions').where({ id_hash: h }).update({ last_seen_at: new Date(now) }));
        }
      } else if (row) {
        await withPlatform(deps.platformDb, 'cliente', (trx) => trx('onboarding_sessions').where({ id_hash: h }).delete());
      }
    }
    await next();
    if (NO_STORE_PATHS.test(ctx.path) && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  };
}

/** The case-bound API's gate: the session's case or nothing (another case, another tenant: 404). */
export function requireCustomerCase(ctx: Koa.ParameterizedContext<AppState>, caseId: string) {
  const c = ctx.state.customer;
  if (!c || c.caseId !== caseId) throw notFound('Pratica');
  return c;
}
