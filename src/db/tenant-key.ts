import { createHash, createHmac } from 'node:crypto';

/**
 * The tenant-context signature: HMAC-SHA256(key, cod_azienda), hex. The web process and the
 * worker compute it in Node; PostgreSQL recomputes it in app_current_tenant() from the padded
 * keys below (built-in sha256 only, no pgcrypto needed).
 */
export const tenantSignature = (key: string, codAzienda: string): string =>
  createHmac('sha256', key).update(codAzienda, 'utf8').digest('hex');

/**
 * The principal's signature: who acts and with which roles, within one tenant. PostgreSQL checks
 * it in app_current_user() / app_current_roles() (tenant-guard.ts); roles are sorted so that one
 * set of roles has one text.
 */
export const principalText = (codAzienda: string, user: string, roles: readonly string[]) =>
  `principal\n${codAzienda}\n${user}\n${[...new Set(roles)].sort().join(',')}`;
export const principalSignature = (key: string, codAzienda: string, user: string, roles: readonly string[]): string =>
  createHmac('sha256', key).update(principalText(codAzienda, user, roles), 'utf8').digest('hex');

const BLOCK = 64;

/**
 * HMAC's inner and outer padded keys (RFC 2104), so that the database computes
 * sha256(opad || sha256(ipad || message)) and gets the same value as createHmac.
 */
export function hmacPads(key: string): { ipad: Buffer; opad: Buffer } {
  let k = Buffer.from(key, 'utf8');
  if (k.length > BLOCK) k = createHash('sha256').update(k).digest();
  const block = Buffer.alloc(BLOCK);
  k.copy(block);
  return { ipad: Buffer.from(block.map((b) => b ^ 0x36)), opad: Buffer.from(block.map((b) => b ^ 0x5c)) };
}
