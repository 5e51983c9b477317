import { tenantOf, hasRole } from '../../http/auth';
import { notFound, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { documentSourceMap, type DocumentSource } from '../../kit/document-sources';
import { STAFF_READ } from '../../kit/roles';
import { megabytes, parseDocumentUpload } from '../verifications';
import { SPINE_HOLDERS, SPINE_READERS, SPINE_WRITERS } from './spine.access';
import { downloadSpine, holdSpine, readSpine, spineDb, storeSpineUpload, uploadSpine, type SpineView } from './spine.commands';
import { BLOCCO_LABELS, CONSERVAZIONE_LABELS, MIME_LABELS, RECORD_TIPO_LABELS } from './spine.labels';
import { listSpine, type SpineRow } from './spine.repo';
import { holdFormSchema, listSpineQuery, uploadSpineSchema } from './spine.schemas';

const sizeLabel = (n: number) => (n < 1024 ? `${n} byte` : n < 1024 * 1024 ? `${(n / 1024).toLocaleString('it-IT', { maximumFractionDigits: 1 })} KB` : megabytes(n));

/**
 * The /documenti/spine pages (docs/document-spine.md): the index with its filters and the upload
 * form, an entry's detail (retention explained, the records citing it, the legal hold), the
 * download (audited). Forms post and redirect; a refused form comes back with the messages next to
 * its fields and what was typed.
 */
export const registerSpinePages: RegisterRoutes = (router, { deps, views, areas }) => {
  const sources = documentSourceMap(areas);
  const user = (ctx: Ctx) => ctx.state.user!;
  const limit = megabytes(deps.config.uploadMaxBytes);
  const tipoLabels = Object.fromEntries([...sources.values()].map((s) => [s.tipo, s.label]));
  const labels = { tipo: tipoLabels, record: RECORD_TIPO_LABELS, blocco: BLOCCO_LABELS, conservazione: CONSERVAZIONE_LABELS, mime: MIME_LABELS };
  const hrefOf = (s: DocumentSource | undefined, e: Pick<SpineRow, 'tipo' | 'record_id' | 'record_codice' | 'cod_anagrafe'>) => s?.href?.(e as SpineRow) ?? null;

  const renderList = async (ctx: Ctx, upload: { values: Record<string, string>; errors: Record<string, string> } | null = null, status = 200) => {
    const parsed = listSpineQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listSpineQuery.parse({});
    const result = await spineDb(deps, tenantOf(ctx), user(ctx), (trx) => listSpine(trx, tenantOf(ctx), q));
    const filters = { q: q.q ?? '', tipo: q.tipo ?? '', cod_anagrafe: q.cod_anagrafe ?? '', blocco: q.blocco ?? '', conservazione: q.conservazione ?? '', sort: q.sort };
    const items = result.items.map((d) => ({ ...d, dimensioneLabel: sizeLabel(d.dimensione), href: hrefOf(sources.get(d.tipo), d) }));
    render(ctx, views, 'spine/list.njk', {
      result: { ...result, items }, filters, labels, limit, queryError: parsed.success ? null : 'Filtri non validi: mostrato l\'elenco completo',
      canUpload: hasRole(user(ctx), SPINE_WRITERS), upload: upload ?? { values: { cod_anagrafe: '', descrizione: '' }, errors: {} },
      exportQuery: new URLSearchParams(Object.entries(filters).filter(([k, v]) => v && k !== 'sort') as [string, string][]).toString(),
    }, { status });
  };

  router.get('/documenti/spine', staff(STAFF_READ), (ctx) => renderList(ctx));

  router.post('/documenti/spine/upload', staff(SPINE_WRITERS), async (ctx) => {
    const codAzienda = tenantOf(ctx);
    const upload = await parseDocumentUpload(deps, ctx);
    const values = { cod_anagrafe: upload.fields.cod_anagrafe ?? '', descrizione: upload.fields.descrizione ?? '' };
    const parsed = uploadSpineSchema.safeParse(upload.fields);
    const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
    let file;
    if (upload.refusal) errors[upload.refusal.path] = upload.refusal.message;
    else if (!upload.file) errors.file = 'Scegli il file del documento (PDF, JPEG o PNG)';
    else if (parsed.success) {
      const stored = await storeSpineUpload(deps, codAzienda, upload.file);
      if (stored.ok) file = stored.file; else errors.file = stored.message;
    }
    if (!parsed.success || Object.keys(errors).length || !file) return renderList(ctx, { values, errors }, upload.refusal?.status === 413 ? 413 : 422);
    try {
      const saved = await uploadSpine(deps, codAzienda, user(ctx), parsed.data, file);
      redirectWithFlash(ctx, `/documenti/spine/${saved.cod_spine}`, 'success', `Documento ${saved.cod_spine} aggiunto all'indice`);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      await renderList(ctx, { values, errors: Object.fromEntries(err.errors.map((x) => [x.path || '_form', x.message])) }, 422);
    }
  });

  const renderDetail = (ctx: Ctx, d: SpineView, hold: { values: Record<string, string>; errors: Record<string, string> } | null = null, status = 200) => {
    const source = sources.get(d.tipo);
    render(ctx, views, 'spine/detail.njk', {
      d: { ...d, dimensioneLabel: sizeLabel(d.dimensione), href: hrefOf(source, d) },
      citazioni: d.citazioni.map((c) => ({ ...c, href: hrefOf(sources.get(c.tipo), c) })),
      labels, canDownload: hasRole(user(ctx), SPINE_READERS), canHold: hasRole(user(ctx), SPINE_HOLDERS),
      hold: hold ?? { values: { motivo: '' }, errors: {} },
    }, { status });
  };

  router.get('/documenti/spine/:codSpine', staff(STAFF_READ), async (ctx) => {
    renderDetail(ctx, await readSpine(deps, tenantOf(ctx), user(ctx), ctx.params.codSpine!));
  });

  router.post('/documenti/spine/:codSpine/blocco', staff(SPINE_HOLDERS), async (ctx) => {
    const body = ctx.request.body as Record<string, string> | undefined;
    const parsed = holdFormSchema.safeParse(body ?? {});
    if (!parsed.success) {
      const d = await readSpine(deps, tenantOf(ctx), user(ctx), ctx.params.codSpine!);
      return renderDetail(ctx, d, { values: { motivo: body?.motivo ?? '' }, errors: fieldErrors(parsed.error) }, 422);
    }
    const d = await holdSpine(deps, tenantOf(ctx), user(ctx), ctx.params.codSpine!, parsed.data, sources).catch(async (err: unknown) => {
      if (err instanceof Error && 'status' in err && err.status === 409) {
        renderDetail(ctx, await readSpine(deps, tenantOf(ctx), user(ctx), ctx.params.codSpine!), { values: { motivo: parsed.data.motivo }, errors: { _form: (err as { detail?: string }).detail ?? err.message } }, 409);
        return null;
      }
      throw err;
    });
    if (d) redirectWithFlash(ctx, `/documenti/spine/${d.cod_spine}`, 'success', d.blocco_legale ? 'Blocco legale applicato' : 'Blocco legale rimosso');
  });

  router.get('/documenti/spine/:codSpine/download', staff(SPINE_READERS), async (ctx) => {
    if (!/^SPN-\d+$/i.test(ctx.params.codSpine!)) throw notFound('Documento', 'm');
    const f = await downloadSpine(deps, tenantOf(ctx), user(ctx), ctx.params.codSpine!, sources);
    // The name is the uploader's: encoded (RFC 5987), never put raw in the header; an ASCII fallback for old clients.
    const ascii = f.nome_file.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'documento';
    ctx.set('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.nome_file)}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = f.mime;
    ctx.body = f.bytes;
  });
};
