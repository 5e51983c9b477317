import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 parameters every authenticator app understands. */
const PERIOD = 30;
export const TOTP_ISSUER = 'Compliance AML';

const totpFor = (secretBase32: string, account = '') =>
  new TOTP({ issuer: TOTP_ISSUER, label: account, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export const currentStep = (now = Date.now()) => Math.floor(now / 1000 / PERIOD);

export const isTotpFormat = (code: unknown): code is string => typeof code === 'string' && /^\d{6}$/.test(code.trim());

/**
 * The time step a code belongs to (one step of clock drift either way), or null when it is wrong.
 * The caller rejects steps not newer than the last accepted one, making each code single-use.
 */
export function matchTotpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const token = code.trim();
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secretBase32).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : currentStep(now) + delta;
}

export function enrolmentData(secretBase32: string, account: string) {
  const uri = totpFor(secretBase32, account).toString();
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 220 }).then((qr) => ({ uri, qr, secret: secretBase32, issuer: TOTP_ISSUER, account }));
}

/** The secret in groups of four, easier to type into an app by hand. */
export const groupedSecret = (s: string) => s.replace(/(.{4})/g, '$1 ').trim();
