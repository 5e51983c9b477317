import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * A PEM given by configuration: the PEM text itself (newlines may be written as `\n`, as
 * container environments often need) or the path of a file holding it.
 */
export function readPemSetting(value: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  return readFileSync(value, 'utf8');
}

/** The e-signature key pair given by configuration, checked: ECDSA P-256 (ES256), matching, not expired. */
export function parseSigningPair(keyValue: string, certValue: string, now = new Date()): { key: KeyObject; certificate: X509Certificate } {
  const key = createPrivateKey(readPemSetting(keyValue));
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('ESIGN_SIGNING_KEY must be an ECDSA P-256 private key (the bundles are signed ES256)');
  }
  const certificate = new X509Certificate(readPemSetting(certValue));
  if (!certificate.checkPrivateKey(key)) throw new Error('ESIGN_CERTIFICATE does not certify ESIGN_SIGNING_KEY');
  if (new Date(certificate.validTo).getTime() < now.getTime()) throw new Error(`ESIGN_CERTIFICATE expired on ${certificate.validTo}`);
  return { key, certificate };
}
