import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import type { Role } from '../../../kit/roles';
import type { Deps } from '../../../deps';
import { appendAudit } from '../../audit';
import { DocumentStore } from '../../onboarding';
import type { TipoVerifica } from '../verifications.vocabulary';
import { DOWNLOAD_ACTION } from './console.reads';

/**
 * Who may download a verification's documents: the staff who work or audit verifications. A
 * viewer reads the pages but not the identity documents (personal data, art. 32 GDPR).
 */
export const DOCUMENT_DOWNLOADERS: readonly Role[] = ['admin', 'co', 'sos', 'analyst', 'auditor'];

const DOC_CODE = /^DOC-[0-9]{6,}$/;
const SAFE_MIME = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/webp']);
const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * A Content-Disposition that cannot break out of its header nor name a path: the name came from
 * whoever uploaded the file, so it is reduced to safe characters (an ASCII fallback and the
 * RFC 5987 UTF-8 form), and the extension follows the stored type, not what the name claims.
 */
export function safeDisposition(name: string | null, mime: string, fallback: string): string {
  const ext = EXTENSIONS[mime];
  // Control and format characters (a bidi override shows a name other than the real one), path and quoting characters go.
  // eslint-disable-next-line no-control-regex
  let base = (name ?? '').normalize('NFC').replace(/[\p{Cc}\p{Cf}]/gu, '').replace(/[\u0000-\u001f\u007f"\\/:*?<>|;%]+/g, '_').replace(/^[.\s]+/, '').trim().slice(0, 120) || fallback;
  if (ext && !base.toLowerCase().endsWith(`.${ext}`) && !(ext === 'jpg' && base.toLowerCase().endsWith('.jpeg'))) base = `${base}.${ext}`;
  const ascii = base.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\/:*?<>|%;]/g, '_').replace(/^[.\s]+/, '') || `${fallback}.${ext ?? 'bin'}`;
  const encoded = encodeURIComponent(base).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A document a verification of this kind relied on, in the caller's tenant: by its code (DOC-000001)
 * or its id. Anything else (another tenant's, a document of the other kind, no stored file) is not found.
 */
async function downloadFor(deps: Deps, codAzienda: string, actor: string, tipo: TipoVerifica, ref: string) {
  if (!DOC_CODE.test(ref) && !isUuid(ref)) throw notFound('Documento', 'm');
  return withTenant(deps.db, { codAzienda, actor }, async (trx) => {
    const doc = await trx('documenti').where({ cod_azienda: codAzienda }).where(DOC_CODE.test(ref) ? { cod_documento: ref } : { id: ref })
      .first('id', 'cod_documento', 'sha256', 'nome_file', 'mime', 'tipo', 'dimensione');
    if (!doc || !doc.sha256) throw notFound('Documento', 'm');
    const verifiche = await trx('verifiche_documenti as vd').join('verifiche as v', 'v.id', 'vd.verifica_id')
      .where({ 'vd.cod_azienda': codAzienda, 'vd.documento_id': doc.id, 'v.tipo': tipo }).orderBy('v.cod_verifica').pluck('v.cod_verifica') as string[];
    if (!verifiche.length) throw notFound('Documento', 'm');
    const bytes = await new DocumentStore(deps.config.documentDir).get(codAzienda, doc.sha256);
    // The download is recorded with the read, in the same transaction: no file leaves unrecorded.
    await appendAudit(trx, {
      codAzienda, actor, action: DOWNLOAD_ACTION, entityType: 'documento', entityId: doc.id,
      data: { cod_documento: doc.cod_documento, tipo_verifica: tipo, verifiche, tipo: doc.tipo, sha256: doc.sha256, dimensione: doc.dimensione === null ? null : Number(doc.dimensione) },
    });
    const mime = SAFE_MIME.has(doc.mime) ? doc.mime as string : 'application/octet-stream';
    return { bytes, mime, disposition: safeDisposition(doc.nome_file, mime, doc.cod_documento) };
  });
}

/** GET /api/v1/admin/kyc/documenti/:id/download and the KYB twin: audited downloads of the documents the consoles list. */
export const registerConsoleDownloads: RegisterRoutes = (router, { deps }) => {
  for (const tipo of ['kyc', 'kyb'] as const) {
    router.api({
      method: 'GET', path: `/api/v1/admin/${tipo}/documenti/:id/download`, tag: 'Verifiche',
      summary: `Scarica un documento di una verifica ${tipo.toUpperCase()} (codice DOC- o id; operazione registrata)`,
      access: staff(DOCUMENT_DOWNLOADERS),
      handler: async (ctx, { params }) => {
        const d = await downloadFor(deps, tenantOf(ctx), ctx.state.user!.username, tipo, params.id!);
        ctx.type = d.mime;
        ctx.set('Content-Disposition', d.disposition);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Cache-Control', 'private, no-store');
        return d.bytes;
      },
    });
  }
};
