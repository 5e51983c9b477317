import { Secret, TOTP } from 'otpauth';

const lastStep = new Map<string, number>();

/**
 * A code the server will accept: codes are single-use per 30 s step, so a second sign-in
 * of the same user within one step uses the next step (the server allows one step of drift).
 */
export function nextTotpCode(secretBase32: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secretBase32), digits: 6, period: 30, algorithm: 'SHA1' });
  const now = Math.floor(Date.now() / 1000 / 30);
  const step = Math.max(now, (lastStep.get(secretBase32) ?? -1) + 1);
  if (step > now + 1) throw new Error('two sign-ins of one user in this 30 s step already: reuse the signed-in client');
  lastStep.set(secretBase32, step);
  return totp.generate({ timestamp: step * 30_000 });
}

export function randomTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}
