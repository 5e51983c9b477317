import { createHash, webcrypto } from 'node:crypto';
import { CompactSign, compactVerify, decodeProtectedHeader, importX509 } from 'jose';
import type { DossierSection } from '../../../workflows/dossier/dossier.sections';
import { platformKey } from '../esign';

/** What the platform states about a generated dossier: which file (its SHA-256), of whom, when, what it holds. */
export interface DossierManifest {
  format: 'dossier-manifest/1';
  dossier_id: string;
  cod_azienda: string;
  cod_anagrafe: string;
  generated_at: string;
  generated_by: string;
  sections: DossierSection[];
  pages: number;
  file: { name: string; bytes: number; sha256: string };
}

export const sha256Hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** The manifest signed with the platform's key (the e-signature's ES256 key and X.509 certificate in x5c): JWS compact. */
export async function signManifest(manifest: DossierManifest): Promise<string> {
  const key = await platformKey();
  return new CompactSign(new TextEncoder().encode(JSON.stringify(manifest)))
    .setProtectedHeader({ alg: 'ES256', typ: 'dossier-manifest+json', x5c: [key.certificateB64] })
    .sign(key.privateKey);
}

export type ManifestCheck = { valid: true; manifest: DossierManifest } | { valid: false; reason: string };

/**
 * Checks a manifest's signature against the certificate it carries and, when given, that it
 * names these bytes: one changed byte of the PDF or of the manifest fails.
 */
export async function verifyManifest(jws: string, pdf?: Buffer): Promise<ManifestCheck> {
  try {
    const header = decodeProtectedHeader(jws);
    const cert = header.x5c?.[0];
    if (header.alg !== 'ES256' || !cert) return { valid: false, reason: 'not an ES256 JWS with its certificate' };
    const pem = `-----BEGIN CERTIFICATE-----\n${cert.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;
    const { payload } = await compactVerify(jws, await importX509(pem, 'ES256') as webcrypto.CryptoKey);
    const manifest = JSON.parse(new TextDecoder().decode(payload)) as DossierManifest;
    if (pdf && sha256Hex(pdf) !== manifest.file.sha256) return { valid: false, reason: 'the file differs from the one the manifest names' };
    return { valid: true, manifest };
  } catch (err) {
    return { valid: false, reason: err instanceof Error ? err.message : 'invalid signature' };
  }
}
