import { createHmac } from 'node:crypto';

/**
 * The signing token of a dossier's ceremony: derived from the ceremony id, never stored or
 * carried through workflow history. The worker stores its hash on the ceremony; the web
 * process recomputes it for the compliance officer who signs (as filing.tokens.ts does).
 */
export function dossierEsignToken(secret: string, ceremonyId: string): string {
  const key = createHmac('sha256', secret).update('dossier-esign').digest();
  return createHmac('sha256', key).update(ceremonyId).digest('base64url');
}
