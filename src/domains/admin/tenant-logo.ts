import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import { sniffUpload } from '../../kit/sniff';
import { appendAudit } from '../audit';

/**
 * The tenant's logo on its public pages. Raster images only: an SVG can carry script, and
 * the type is read from the bytes, so a renamed file is refused whatever its name says.
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
/** Enough for a sharp header logo; the column's check says the same. */
export const LOGO_MAX_BYTES = 200 * 1024;
export const LOGO_MAX_LABEL = '200 KB';

export interface LogoRow { cod_azienda: string; content_type: LogoType; contenuto: Buffer; sha256: string; dimensione: number; updated_by: string | null; updated_at: Date }

/** The refusal to show next to the file field, or the sniffed type. */
export async function checkLogo(bytes: Buffer | undefined, declaredMime?: string): Promise<{ ok: true; mime: LogoType } | { ok: false; message: string }> {
  if (!bytes?.length) return { ok: false, message: 'Scegli un file da caricare' };
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, message: `Il file supera la dimensione massima di ${LOGO_MAX_LABEL}: riducilo e riprova` };
  const t = await sniffUpload(bytes, LOGO_TYPES, declaredMime);
  if (!t.ok) return { ok: false, message: t.reason === 'declared' ? 'Il contenuto del file non corrisponde alla sua estensione: carica un’immagine PNG, JPEG o WebP' : 'Formato non ammesso: carica un’immagine PNG, JPEG o WebP (SVG non è ammesso)' };
  return { ok: true, mime: t.mime };
}

/** Replaces the logo of the transaction's tenant; recorded as a change of the tenant. */
export async function saveLogo(trx: Knex.Transaction, codAzienda: string, bytes: Buffer, mime: LogoType, actor: string) {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const before = await trx('aziende_logo').where({ cod_azienda: codAzienda }).first('sha256');
  await trx('aziende_logo').insert({ cod_azienda: codAzienda, content_type: mime, contenuto: bytes, sha256, dimensione: bytes.length, updated_by: actor, updated_at: new Date() })
    .onConflict('cod_azienda').merge(['content_type', 'contenuto', 'sha256', 'dimensione', 'updated_by', 'updated_at']);
  await appendAudit(trx, { codAzienda, actor, action: 'azienda.updated', entityType: 'azienda', entityId: codAzienda, data: { changed: { logo: { from: before?.sha256 ?? null, to: sha256 } } } });
}

export async function removeLogo(trx: Knex.Transaction, codAzienda: string, actor: string) {
  const n = await trx('aziende_logo').where({ cod_azienda: codAzienda }).delete().returning('sha256');
  if (n.length) await appendAudit(trx, { codAzienda, actor, action: 'azienda.updated', entityType: 'azienda', entityId: codAzienda, data: { changed: { logo: { from: n[0].sha256, to: null } } } });
}

export async function logoInfo(trx: Knex.Transaction, codAzienda: string): Promise<Omit<LogoRow, 'contenuto'> | null> {
  return (await trx('aziende_logo').where({ cod_azienda: codAzienda }).first('cod_azienda', 'content_type', 'sha256', 'dimensione', 'updated_by', 'updated_at')) ?? null;
}

export async function readLogo(deps: Deps, codAzienda: string): Promise<LogoRow | null> {
  return withTenant(deps.db, { codAzienda, actor: 'pubblico' }, async (trx) => {
    const az = await trx('aziende').where({ cod_azienda: codAzienda }).first('attiva');
    if (!az?.attiva) return null;
    return (await trx('aziende_logo').where({ cod_azienda: codAzienda }).first()) ?? null;
  });
}

/** The URL of a logo: its hash in the query, so a new logo is a new URL and the old one may be cached long. */
export const logoUrl = (codAzienda: string, sha256: string) => `/aziende/${encodeURIComponent(codAzienda)}/logo?v=${sha256.slice(0, 16)}`;

/** What the public pages show of the tenant they serve. */
export interface PublicBrand { cod_azienda: string; nome: string; logoUrl: string | null }

/** The tenant's public identity (name, logo); null for an unknown or inactive tenant. */
export async function publicBrand(trx: Knex.Transaction, codAzienda: string): Promise<(PublicBrand & { attiva: true }) | null> {
  const az = await trx('aziende').where({ cod_azienda: codAzienda }).first('ragione_sociale', 'attiva');
  if (!az?.attiva) return null;
  const logo = await trx('aziende_logo').where({ cod_azienda: codAzienda }).first('sha256');
  return { cod_azienda: codAzienda, nome: az.ragione_sociale as string, logoUrl: logo ? logoUrl(codAzienda, logo.sha256) : null, attiva: true };
}

/** publicBrand in its own tenant transaction, for pages that have none open. */
export async function loadPublicBrand(deps: Deps, codAzienda: string | null | undefined): Promise<PublicBrand | null> {
  if (!codAzienda || !/^[A-Za-z0-9_-]{1,32}$/.test(codAzienda)) return null;
  const b = await withTenant(deps.db, { codAzienda, actor: 'pubblico' }, (trx) => publicBrand(trx, codAzienda));
  return b && { cod_azienda: b.cod_azienda, nome: b.nome, logoUrl: b.logoUrl };
}
