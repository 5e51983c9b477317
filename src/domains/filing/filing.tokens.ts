import { createHash, createHmac } from 'node:crypto';

/**
 * The signing token of a filing's ceremony: derived from the ceremony id, never stored or
 * carried through workflow history. The worker stores its hash on the ceremony; the web
 * process recomputes it for the compliance officer who signs (docs/architecture.md).
 */
export function filingEsignToken(secret: string, ceremonyId: string): string {
  const key = createHmac('sha256', secret).update('filing-esign').digest();
  return createHmac('sha256', key).update(ceremonyId).digest('base64url');
}
export const sha256Hex = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
