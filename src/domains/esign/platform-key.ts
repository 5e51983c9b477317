import { webcrypto } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { parseSigningPair } from '../../lib/pem-setting';

x509.cryptoProvider.set(webcrypto as never);

export interface PlatformKey {
  privateKey: webcrypto.CryptoKey;
  /** The self-signed certificate, DER, base64 (what the JWS x5c header carries). */
  certificateB64: string;
  certificatePem: string;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256' } as const;
export const keyDir = () => process.env.ESIGN_KEY_DIR ?? '.data/keys';
const FILE = 'esign-platform.pem';

const pemBlock = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
const pemBody = (pem: string, label: string) => {
  const m = pem.match(new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`));
  if (!m) throw new Error(`no ${label} in the platform key file`);
  return Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
};

/** A new key and self-signed certificate as one PEM (development; tests make production settings with it). */
export async function generatePlatformKeyPem(): Promise<string> {
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']) as webcrypto.CryptoKeyPair;
  const now = new Date();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1'),
    name: 'CN=Piattaforma AML - firma elettronica, O=AML platform',
    notBefore: now,
    notAfter: new Date(now.getTime() + 10 * 365 * 86_400_000),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    keys: keys as never,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true)],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return pemBlock('PRIVATE KEY', pkcs8) + cert.toString('pem') + '\n';
}

/**
 * The platform's signing key: ECDSA P-256 and its X.509 certificate. Production gives both
 * (ESIGN_SIGNING_KEY, ESIGN_CERTIFICATE: PEM or paths) and nothing is ever generated there.
 * Development without them keeps a self-signed pair in one PEM file under ESIGN_KEY_DIR,
 * created on first use; the web process and the worker may race for it, so the file appears
 * atomically (link fails if another process won) and everyone reads the winner's copy.
 */
let cached: Promise<PlatformKey> | undefined;
export function platformKey(): Promise<PlatformKey> {
  cached ??= loadPlatformKey().catch((err) => { cached = undefined; throw err; });
  return cached;
}

/** The key as the environment gives it (uncached: platformKey() is what the application calls). */
export async function loadPlatformKey(env: NodeJS.ProcessEnv = process.env): Promise<PlatformKey> {
  const { ESIGN_SIGNING_KEY: keyValue, ESIGN_CERTIFICATE: certValue } = env;
  if (keyValue && certValue) {
    const { key, certificate } = parseSigningPair(keyValue, certValue);
    const der = key.export({ type: 'pkcs8', format: 'der' });
    const privateKey = await webcrypto.subtle.importKey('pkcs8', der, ALG, false, ['sign']);
    return { privateKey, certificateB64: certificate.raw.toString('base64'), certificatePem: certificate.toString() };
  }
  if (env.NODE_ENV === 'production') throw new Error('ESIGN_SIGNING_KEY and ESIGN_CERTIFICATE are required in production (never generated)');
  return loadOrGenerate();
}

async function loadOrGenerate(): Promise<PlatformKey> {
  const dir = keyDir();
  const path = join(dir, FILE);
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, await generatePlatformKeyPem(), { mode: 0o600 });
    await link(tmp, path).catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    pem = await readFile(path, 'utf8');
    await writeFile(join(dir, 'esign-platform.crt'), pem.slice(pem.indexOf('-----BEGIN CERTIFICATE')), { mode: 0o644 }).catch(() => undefined);
  }
  const privateKey = await webcrypto.subtle.importKey('pkcs8', pemBody(pem, 'PRIVATE KEY'), ALG, false, ['sign']);
  const der = pemBody(pem, 'CERTIFICATE');
  const certificatePem = pemBlock('CERTIFICATE', der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength) as ArrayBuffer);
  return { privateKey, certificateB64: der.toString('base64'), certificatePem };
}
