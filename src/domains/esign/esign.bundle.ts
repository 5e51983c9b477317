import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { platformKey } from './platform-key';

x509.cryptoProvider.set(webcrypto as never);

/** What the platform signs for a ceremony: everything needed to show who agreed to what, when and how. */
export interface EsignEvidence {
  ceremony_id: string;
  cod_azienda: string;
  document: { nome: string; sha256: string };
  signer: { nome: string; email: string };
  consent: { testo: string; versione: string };
  timestamps: { started_at: string; terms_accepted_at: string | null; presented_at: string | null; signed_at: string };
  client: { ip: string; user_agent: string };
  otp_event: { id: string; sent_at: string | null; verified_at: string };
}

export interface EsignBundle {
  format: 'esign-bundle/1';
  /** JWS compact serialisation, ES256, platform certificate in x5c; payload = the evidence. */
  jws: string;
  evidence: EsignEvidence;
}

export async function signEvidence(evidence: EsignEvidence): Promise<EsignBundle> {
  const key = await platformKey();
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(evidence)))
    .setProtectedHeader({ alg: 'ES256', typ: 'esign-evidence+json', x5c: [key.certificateB64] })
    .sign(key.privateKey);
  return { format: 'esign-bundle/1', jws, evidence };
}

export type VerifyResult =
  | { valid: true; evidence: EsignEvidence; certificate: { subject: string; sha256: string; trusted: boolean } }
  | { valid: false; reason: string };

/** Key-order independent JSON (the stored copy went through jsonb, which reorders keys). */
const canonical = (v: unknown): string => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`
  : JSON.stringify(v);

const derOf = (pemOrB64: string) => Buffer.from(pemOrB64.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');

/**
 * Checks a bundle (or a bare JWS): the signature against the certificate in x5c, the
 * evidence copy against the signed payload and, when `trustedCert` is given (PEM or
 * base64 DER), that the signing certificate is exactly that one.
 */
export async function verifyBundle(input: unknown, trustedCert?: string): Promise<VerifyResult> {
  const jws = typeof input === 'string' ? input : (input as { jws?: unknown } | null)?.jws;
  if (typeof jws !== 'string' || jws.split('.').length !== 3) return { valid: false, reason: 'no JWS in the bundle' };
  try {
    const header = decodeProtectedHeader(jws);
    if (header.alg !== 'ES256') return { valid: false, reason: `unexpected algorithm ${String(header.alg)}` };
    const certB64 = header.x5c?.[0];
    if (!certB64) return { valid: false, reason: 'no certificate (x5c) in the JWS header' };
    const cert = new x509.X509Certificate(Buffer.from(certB64, 'base64'));
    const publicKey = await cert.publicKey.export({ name: 'ECDSA', namedCurve: 'P-256' }, ['verify']);
    const { payload } = await compactVerify(jws, publicKey as unknown as webcrypto.CryptoKey);
    const evidence = JSON.parse(new TextDecoder().decode(payload)) as EsignEvidence;
    const copy = typeof input === 'object' && input !== null ? (input as { evidence?: unknown }).evidence : undefined;
    if (copy !== undefined && canonical(copy) !== canonical(evidence)) return { valid: false, reason: 'the evidence differs from the signed payload' };
    const der = Buffer.from(certB64, 'base64');
    const trusted = trustedCert ? derOf(trustedCert).equals(der) : false;
    if (trustedCert && !trusted) return { valid: false, reason: 'signed by a certificate other than the trusted one' };
    const sha256 = Buffer.from(await webcrypto.subtle.digest('SHA-256', der)).toString('hex');
    return { valid: true, evidence, certificate: { subject: cert.subject, sha256, trusted } };
  } catch (err) {
    return { valid: false, reason: err instanceof Error ? err.message : 'invalid signature' };
  }
}
