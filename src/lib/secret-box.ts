import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'v1:';

/**
 * Authenticated encryption (AES-256-GCM) for small secrets kept in the database, such as
 * TOTP seeds: a copy of the table alone does not let anyone generate a user's codes.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(keyMaterial: string) {
    // Any length of key material becomes a 256-bit key.
    this.key = createHash('sha256').update(`secret-box:${keyMaterial}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url');
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
