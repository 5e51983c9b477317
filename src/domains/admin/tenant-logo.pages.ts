import multer from 'multer';
import { withTenant } from '../../db/tenant';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import type { RegisterRoutes } from '../../kit/area';
import { PUBLIC, staff } from '../../kit/access';
import { settingsTenant } from './admin.access';
import { checkLogo, LOGO_MAX_BYTES, LOGO_MAX_LABEL, logoInfo, readLogo, removeLogo, saveLogo } from './tenant-logo';

const ADMINS = ['superadmin', 'admin'] as const;
const PATH = '/organizzazione/configurazione/logo';

/**
 * The tenant's logo: a page of the configuration where an administrator uploads or removes
 * it (multipart, with the CSRF token in the query string like every upload), and the public
 * route its applicants' pages load it from.
 */
export const registerTenantLogoPages: RegisterRoutes = (router, { deps, views }) => {
  // One byte over the limit is enough to know the file is too big; the bytes are never stored.
  const single = multer({ storage: multer.memoryStorage(), limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, fieldSize: 200 } }).single('logo');
  const requested = (ctx: Ctx) => (typeof ctx.query.cod_azienda === 'string' ? ctx.query.cod_azienda : undefined);
  const query = (ctx: Ctx, cod: string) => (cod === ctx.state.tenant ? '' : `?cod_azienda=${encodeURIComponent(cod)}`);
  const actor = (ctx: Ctx) => ctx.state.user!.username;

  const page = async (ctx: Ctx, cod: string, errors: Record<string, string> = {}, status = 200) => {
    const logo = await withTenant(deps.db, { codAzienda: cod, actor: actor(ctx) }, (trx) => logoInfo(trx, cod));
    render(ctx, views, 'organizzazione/logo.njk', { cod, logo, errors, maxLabel: LOGO_MAX_LABEL, q: query(ctx, cod) }, { status });
  };

  router.get(PATH, staff(ADMINS), async (ctx) => page(ctx, await settingsTenant(deps.platformDb, ctx, requested(ctx))));

  router.post(PATH, staff(ADMINS), async (ctx) => {
    const cod = await settingsTenant(deps.platformDb, ctx, requested(ctx));
    const req = ctx.req as typeof ctx.req & { file?: Express.Multer.File };
    const refused = await new Promise<string | null>((resolve, reject) => single(req as never, ctx.res as never, (err: unknown) => {
      if (!err) return resolve(null);
      if (err instanceof multer.MulterError) return resolve(err.code);
      reject(err);
    }));
    const tooBig = refused === 'LIMIT_FILE_SIZE';
    const checked = refused
      ? { ok: false as const, message: tooBig ? `Il file supera la dimensione massima di ${LOGO_MAX_LABEL}: riducilo e riprova` : 'Caricamento non valido: scegli un solo file e riprova' }
      : await checkLogo(req.file?.buffer, req.file?.mimetype);
    if (!checked.ok) return page(ctx, cod, { logo: checked.message }, tooBig ? 413 : 422);
    await withTenant(deps.db, { codAzienda: cod, actor: actor(ctx) }, (trx) => saveLogo(trx, cod, req.file!.buffer, checked.mime, actor(ctx)));
    redirectWithFlash(ctx, PATH + query(ctx, cod), 'success', 'Logo salvato: compare nelle pagine pubbliche dell’azienda');
  });

  router.post(`${PATH}/elimina`, staff(ADMINS), async (ctx) => {
    const cod = await settingsTenant(deps.platformDb, ctx, requested(ctx));
    await withTenant(deps.db, { codAzienda: cod, actor: actor(ctx) }, (trx) => removeLogo(trx, cod, actor(ctx)));
    redirectWithFlash(ctx, PATH + query(ctx, cod), 'success', 'Logo rimosso: le pagine pubbliche mostrano solo il nome dell’azienda');
  });

  // Public: the applicant's and the signer's pages show it. The type is the one sniffed at upload.
  router.get('/aziende/:cod/logo', PUBLIC, async (ctx) => {
    const cod = String(ctx.params.cod);
    const logo = /^[A-Za-z0-9_-]{1,32}$/.test(cod) ? await readLogo(deps, cod) : null;
    ctx.set('X-Content-Type-Options', 'nosniff');
    // A response any cache may keep must carry nobody's cookie (the CSRF middleware may have set one).
    ctx.remove('Set-Cookie');
    if (!logo) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Logo non presente';
      return;
    }
    const etag = `"${logo.sha256}"`;
    ctx.set('ETag', etag);
    // The URL carries the hash (?v=), so a versioned request may be kept; an unversioned one is revalidated.
    ctx.set('Cache-Control', ctx.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
    if (ctx.get('If-None-Match').split(',').map((s) => s.trim()).includes(etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = logo.content_type;
    ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.body = logo.contenuto;
  });
};
