import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sniffUpload } from '../../kit/sniff';
import { ACCEPTED_MIME } from './onboarding.schemas';

/**
 * Content-addressed document store: a file's path is its SHA-256, per tenant, so the
 * same bytes are kept once, a stored file can be checked against its address, and a
 * changed byte is a different document. Files are written to a temporary name and
 * renamed, so a crash never leaves half a document under a valid address.
 */
export class DocumentStore {
  constructor(private readonly root: string) {}

  private path(codAzienda: string, sha256: string) {
    if (!/^[0-9a-f]{64}$/.test(sha256) || !/^[A-Za-z0-9_-]+$/.test(codAzienda)) throw new Error('invalid document address');
    return join(this.root, codAzienda, sha256.slice(0, 2), sha256);
  }

  async put(codAzienda: string, bytes: Buffer): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const target = this.path(codAzienda, sha256);
    if (await exists(target)) return sha256;
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, target);
    return sha256;
  }

  /** The bytes, checked against their address (a tampered file is an error, not a document). */
  async get(codAzienda: string, sha256: string): Promise<Buffer> {
    const bytes = await readFile(this.path(codAzienda, sha256));
    if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new Error(`document ${sha256} does not match its address`);
    return bytes;
  }

  async remove(codAzienda: string, sha256: string): Promise<void> {
    await rm(this.path(codAzienda, sha256), { force: true });
  }
}

const exists = (p: string) => stat(p).then(() => true, () => false);

export type SniffResult = { ok: true; mime: (typeof ACCEPTED_MIME)[number]; ext: string } | { ok: false; message: string };

/**
 * The type comes from the bytes, never from the name or the declared content type: a
 * renamed executable is refused, and so is a PDF labelled as an image.
 */
export async function sniffDocument(bytes: Buffer, declaredMime?: string): Promise<SniffResult> {
  const t = await sniffUpload(bytes, ACCEPTED_MIME, declaredMime);
  if (t.ok) return t;
  if (t.reason === 'declared') return { ok: false, message: `Il file dichiarato come ${declaredMime} è in realtà ${t.detected}: ricaricalo con l'estensione corretta` };
  return { ok: false, message: 'Formato non ammesso: carica un PDF, JPEG o PNG' };
}
