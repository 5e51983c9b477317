import { createHash, createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';

/**
 * Keys derived from the installation's session secret, one per purpose, so a token made
 * for one use can never be replayed as another.
 */
const derive = (secret: string, purpose: string) => createHmac('sha256', secret).update(`cp:${purpose}`).digest();

/**
 * The signing token of a ceremony started by an onboarding workflow. Derived, not stored:
 * the worker stores only its hash on the ceremony row and the web process recomputes it
 * for the applicant's session, so the token never enters workflow history.
 */
export function onboardingEsignToken(secret: string, ceremonyId: string): string {
  return createHmac('sha256', derive(secret, 'onboarding-esign')).update(ceremonyId).digest('base64url');
}
export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

export type LinkPurpose = 'resume' | 'info_request' | 'reminder';
export interface MagicLinkClaims { caseId: string; codAzienda: string; purpose: LinkPurpose; jti: string; expiresAt: Date }

/** A resume link's token: a JWT (HS256) bound to one case, expiring; the jti makes it single-use (onboarding_links). */
export async function signMagicLink(secret: string, p: { caseId: string; codAzienda: string; purpose: LinkPurpose; ttlHours: number; now?: Date }) {
  const jti = randomUUID();
  const now = p.now ?? new Date();
  const expiresAt = new Date(now.getTime() + p.ttlHours * 3_600_000);
  const token = await new SignJWT({ az: p.codAzienda, pur: p.purpose })
    .setProtectedHeader({ alg: 'HS256' }).setSubject(p.caseId).setJti(jti).setAudience('onboarding-resume')
    .setIssuedAt(Math.floor(now.getTime() / 1000)).setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(derive(secret, 'onboarding-link'));
  return { token, jti, expiresAt };
}

export type LinkCheck = { ok: true; claims: MagicLinkClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyMagicLink(secret: string, token: string): Promise<LinkCheck> {
  try {
    const { payload } = await jwtVerify(token, derive(secret, 'onboarding-link'), { audience: 'onboarding-resume', algorithms: ['HS256'] });
    if (!payload.sub || !payload.jti || typeof payload.az !== 'string' || typeof payload.pur !== 'string' || !payload.exp) return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { caseId: payload.sub, codAzienda: payload.az, purpose: payload.pur as LinkPurpose, jti: payload.jti, expiresAt: new Date(payload.exp * 1000) } };
  } catch (err) {
    return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** Where a link takes the applicant: the resume route exchanges it for a session. */
export const resumeUrl = (baseUrl: string, token: string) => `${baseUrl}/api/v1/onboarding/resume?token=${encodeURIComponent(token)}`;
