import { decodeJwt } from 'jose';
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { assertReferencesInTenant } from '../../db/references';
import { withTenant, type PlatformDb } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import type { AppState } from '../../http/context';
import { forbidden, HttpError, tooManyRequests, unauthenticated, ValidationError } from '../../http/errors';
import { EDITABLE_STATES, type OnboardingStatus } from '../../../workflows/onboarding/onboarding.machine';
import { getSetting } from '../admin';
import { appendAudit } from '../audit';
import type { Role } from '../../kit/roles';
import { zodErrors } from './onboarding.forms';
import { queueCustomerMessage, resumeLinkMessage } from './onboarding.messages';
import { magicLinkRequestSchema } from './onboarding.schemas';
import { createCustomerSession } from './onboarding.session';
import { resumeUrl, signMagicLink, verifyMagicLink, type LinkPurpose } from './onboarding.tokens';
import { countRequest } from './request-limit';

type Ctx = Koa.ParameterizedContext<AppState>;

/** Staff who may hand an applicant a resume link (for example over the phone). */
export const LINK_ISSUERS: Role[] = ['co', 'analyst', 'admin'];
/** A case the applicant can still come back to. */
const OPEN_STATES: OnboardingStatus[] = ['draft', 'info_requested', 'submitted', 'in_review', 'pending_second_approval'];
export const PUBLIC_LINK_ANSWER = {
  detail: 'Se all\'indirizzo indicato corrisponde una pratica aperta, riceverai a breve un messaggio con il link per riprenderla.',
} as const;

/**
 * Requests for links are counted per e-mail and per address: the answer never depends on
 * whether a case exists, so the limit is the only thing that stops a mailbox from being flooded.
 */
const countLinkRequest = (db: PlatformDb, s: { email: string; ip: string }) => countRequest(db, [
  { key: `magic-link:email:${s.email.trim().toLowerCase()}`, max: 5, windowMinutes: 15 },
  { key: `magic-link:ip:${s.ip}`, max: 60, windowMinutes: 15 },
]);

async function newLink(deps: Deps, trx: Knex.Transaction, p: { caseId: string; codAzienda: string; purpose: LinkPurpose }) {
  const ttlHours = await getSetting(trx, 'onboarding.link_ttl_hours', p.codAzienda);
  const l = await signMagicLink(deps.config.sessionSecret, { caseId: p.caseId, codAzienda: p.codAzienda, purpose: p.purpose, ttlHours });
  await trx('onboarding_links').insert({ jti: l.jti, cod_azienda: p.codAzienda, case_id: p.caseId, purpose: p.purpose, expires_at: l.expiresAt });
  return { link: resumeUrl(deps.config.publicBaseUrl, l.token), expiresAt: l.expiresAt, ttlHours, jti: l.jti };
}

export type MagicLinkResult = { kind: 'public' } | { kind: 'staff'; sent_to: string; expires_at: string };

/** "m***@example.test": enough for staff to recognise the address, not to copy it. */
const maskEmail = (e: string) => e.replace(/^(.)[^@]*(@.*)$/, '$1***$2');

/**
 * A resume link. Staff with a session ask by case_id: the link goes to the applicant's
 * address, never to the staff user (a bearer link in staff hands would let them act as
 * the applicant), and staff learn where it went. Anyone else
 * asks by e-mail: the newest open case of that address in the tenant gets a link by
 * message, and the answer is the same whether or not there is one (no enumeration).
 */
export async function issueMagicLink(deps: Deps, ctx: Ctx, body: { email?: string; cod_azienda?: string; case_id?: string }): Promise<MagicLinkResult> {
  if (body.case_id) {
    const user = ctx.state.user;
    if (!user || !ctx.state.session?.mfa_ok) throw unauthenticated();
    if (!hasRole(user, LINK_ISSUERS)) throw forbidden();
    const codAzienda = tenantOf(ctx);
    const out = await withTenant(deps.db, { codAzienda, actor: user.username }, async (trx) => {
      // The case is named in the body: another tenant's, or none, is a 422 on case_id, as is one of this tenant's that cannot get a link.
      await assertReferencesInTenant(trx, codAzienda, { case_id: { kind: 'pratica_onboarding', value: body.case_id } });
      const row = await trx('onboarding_cases').where({ id: body.case_id }).whereIn('stato', OPEN_STATES).whereNotNull('email').first('id', 'stato', 'email');
      if (!row) throw new ValidationError([{ path: 'case_id', message: 'La pratica è chiusa o non ha un indirizzo e-mail: nessun link da inviare' }]);
      const l = await newLink(deps, trx, { caseId: row.id, codAzienda, purpose: 'resume' });
      await appendAudit(trx, { codAzienda, actor: user.username, action: 'onboarding.link-issued', entityType: 'onboarding_case', entityId: row.id, data: { expires_at: l.expiresAt.toISOString(), stato: row.stato } });
      const queued = await queueCustomerMessage(deps.outbox, trx, {
        codAzienda, caseId: row.id, to: row.email, kind: 'resume', ...resumeLinkMessage({ link: l.link, ttlHours: l.ttlHours, byStaff: true }), dedupKey: `onboarding-link:${l.jti}`,
      });
      return { ...l, to: row.email as string, queued };
    });
    await deps.dispatch(out.queued ? [out.queued] : []);
    return { kind: 'staff', sent_to: maskEmail(out.to), expires_at: out.expiresAt.toISOString() };
  }
  const email = (body.email ?? '').trim().toLowerCase();
  const retry = await countLinkRequest(deps.platformDb, { email, ip: ctx.ip });
  if (retry > 0) throw tooManyRequests('Troppe richieste di link: riprova più tardi', retry);
  const codAzienda = body.cod_azienda || deps.config.onboardingDefaultAzienda;
  if (!codAzienda || !/^[A-Za-z0-9_-]{1,32}$/.test(codAzienda)) return { kind: 'public' };
  // The lookup and the message happen after the answer: its timing must not tell whether
  // the address has a case (the answer's text already does not).
  track(deliverResumeLink(deps, codAzienda, email).catch((err) => deps.logger.error({ err, codAzienda }, 'resume link not delivered')));
  return { kind: 'public' };
}

/**
 * A resume link asked for from a public form (the landing page, the invalid-link page):
 * the form's field errors, or the rate limit's message, or nothing when the request went in.
 */
export async function requestLinkFromForm(deps: Deps, ctx: Ctx, values: { email: string; cod_azienda?: string }):
  Promise<{ ok: true } | { ok: false; status: 422 | 429; errors: Record<string, string> }> {
  const parsed = magicLinkRequestSchema.pick({ email: true, cod_azienda: true }).safeParse(values);
  if (!parsed.success) return { ok: false, status: 422, errors: zodErrors(parsed.error) };
  try {
    await issueMagicLink(deps, ctx, { email: parsed.data.email, cod_azienda: parsed.data.cod_azienda });
    return { ok: true };
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) return { ok: false, status: 429, errors: { email: err.detail ?? 'Troppe richieste' } };
    throw err;
  }
}

const pending = new Set<Promise<unknown>>();
const track = (p: Promise<unknown>) => { pending.add(p); void p.finally(() => pending.delete(p)); };
/** Waits for the link deliveries under way (tests read the outbox after it). */
export async function settleLinkDeliveries(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}

async function deliverResumeLink(deps: Deps, codAzienda: string, email: string): Promise<void> {
  const sent = await withTenant(deps.db, { codAzienda, actor: 'cliente' }, async (trx) => {
    const row = await trx('onboarding_cases').whereRaw('lower(email) = ?', [email]).whereIn('stato', OPEN_STATES)
      .orderBy('created_at', 'desc').first('id', 'email', 'stato');
    if (!row) return null;
    const l = await newLink(deps, trx, { caseId: row.id, codAzienda, purpose: 'resume' });
    // A way into the case was made: on the case's timeline like the staff-issued and the workflow's links.
    await appendAudit(trx, { codAzienda, actor: 'cliente', action: 'onboarding.link', entityType: 'onboarding_case', entityId: row.id, data: { purpose: 'resume', expires_at: l.expiresAt.toISOString() } });
    return queueCustomerMessage(deps.outbox, trx, {
      codAzienda, caseId: row.id, to: row.email, kind: 'resume', ...resumeLinkMessage({ link: l.link, ttlHours: l.ttlHours, byStaff: false }), dedupKey: `onboarding-link:${l.jti}`,
    });
  });
  await deps.dispatch(sent ? [sent] : []);
}

export type ResumeResult =
  | { ok: true; caseId: string; codAzienda: string; stato: OnboardingStatus; editable: boolean }
  /** codAzienda, when the token names one, lets the "new link" form ask the right tenant. */
  | { ok: false; reason: 'expired' | 'used' | 'invalid'; codAzienda?: string };

/** The tenant an expired token names (its signature was checked: only the expiry failed). */
function tenantOfExpired(token: string): string | undefined {
  try {
    const az = decodeJwt(token).az;
    return typeof az === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(az) ? az : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Exchanges a link for the applicant's session. The token is checked (signature, audience,
 * expiry), then its row is marked used in one conditional update, so two concurrent
 * clicks cannot both get a session.
 */
export async function resumeWithToken(deps: Deps, ctx: Ctx, token: string | undefined): Promise<ResumeResult> {
  if (!token || token.length > 4096) return { ok: false, reason: 'invalid' };
  const v = await verifyMagicLink(deps.config.sessionSecret, token);
  if (!v.ok) return { ok: false, reason: v.reason, codAzienda: v.reason === 'expired' ? tenantOfExpired(token) : undefined };
  const { caseId, codAzienda, jti } = v.claims;
  const r = await withTenant(deps.db, { codAzienda, actor: 'cliente' }, async (trx) => {
    const used = await trx('onboarding_links').where({ jti, case_id: caseId }).whereNull('used_at').where('expires_at', '>', trx.fn.now())
      .update({ used_at: trx.fn.now() }, ['jti']);
    if (!used.length) {
      const link = await trx('onboarding_links').where({ jti }).first('used_at', 'expires_at');
      return { reason: !link ? 'invalid' as const : link.used_at ? 'used' as const : 'expired' as const };
    }
    const row = await trx('onboarding_cases').where({ id: caseId }).first('stato');
    if (!row || row.stato === 'erased') return { reason: 'invalid' as const };
    // Who entered the case and with which link (its id, never the token).
    await appendAudit(trx, { codAzienda, actor: 'cliente', action: 'onboarding.link-used', entityType: 'onboarding_case', entityId: caseId, data: { jti, purpose: v.claims.purpose, stato: row.stato } });
    return { stato: row.stato as OnboardingStatus };
  }) as { reason: 'expired' | 'used' | 'invalid' } | { stato: OnboardingStatus };
  if ('reason' in r) return { ok: false, reason: r.reason, codAzienda: r.reason === 'invalid' ? undefined : codAzienda };
  await createCustomerSession(deps, ctx, { caseId, codAzienda });
  return { ok: true, caseId, codAzienda, stato: r.stato, editable: EDITABLE_STATES.includes(r.stato) };
}
