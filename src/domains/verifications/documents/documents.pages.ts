import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { hasRole, tenantOf } from '../../../http/auth';
import { HttpError, notFound, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { fullNamesByUsername } from '../../../kit/users';
import { COUNTRY_OPTIONS } from '../../onboarding';
import {
  downloadDocument, readDocument, replaceDocument, storeUpload, uploadDocument, verifyDocumentRecord, type DocumentView, type StoredFile,
} from './documents.commands';
import { sizeLabel } from './document-checks';
import { DOCUMENT_PAGE_LABELS, TIPO_DOCUMENTO_OPTIONS } from './documents.labels';
import { documentHolder, listDocuments } from './documents.repo';
import { downloadQuery, listDocumentRecordsQuery, replaceDocumentSchema, uploadDocumentSchema } from './documents.schemas';
import { DOCUMENT_READERS, DOCUMENT_VERIFIERS, DOCUMENT_WRITERS, megabytes, parseDocumentUpload, type ParsedUpload } from './documents.upload';

const UPLOAD_FIELDS = ['cod_anagrafe', 'tipo', 'numero', 'autorita_rilascio', 'paese_rilascio', 'data_rilascio', 'data_scadenza', 'mrz'] as const;
const REPLACE_FIELDS = ['motivo', 'numero', 'autorita_rilascio', 'paese_rilascio', 'data_rilascio', 'data_scadenza', 'mrz'] as const;

/**
 * A file already checked and stored, carried by a form shown again with errors in other fields so
 * it need not be chosen again ("nothing lost"): its address, type, size and name, signed for this
 * tenant and user (a forged token cannot point the form at another stored file).
 */
function keptFileToken(secret: string, codAzienda: string, username: string, f: StoredFile): string {
  const payload = Buffer.from(JSON.stringify(f)).toString('base64url');
  const mac = createHmac('sha256', secret).update(`documenti-file:${codAzienda}:${username}:${payload}`).digest('base64url');
  return `${payload}.${mac}`;
}
function keptFile(secret: string, codAzienda: string, username: string, token: string | undefined): StoredFile | undefined {
  const [payload, mac] = (token ?? '').split('.');
  if (!payload || !mac) return undefined;
  const expected = createHmac('sha256', secret).update(`documenti-file:${codAzienda}:${username}:${payload}`).digest('base64url');
  if (expected.length !== mac.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(mac))) return undefined;
  const f = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), nome_file: z.string().max(200), mime: z.string(), dimensione: z.number().int().positive() })
    .safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  return f.success ? f.data : undefined;
}

/** Messages of a refused command for the form's fields ('_form': above the form). */
function commandErrors(err: unknown): Record<string, string> | undefined {
  if (err instanceof ValidationError) return Object.fromEntries(err.errors.map((x) => [x.path || '_form', x.message]));
  if (err instanceof HttpError && err.status === 409) return { _form: err.detail ?? err.title };
  return undefined;
}

const pick = <K extends string>(fields: Record<string, string>, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, fields[k] ?? ''])) as Record<K, string>;

/**
 * The /documenti pages (docs/documents.md): the list, the upload form, a document's detail with
 * its versions and the results of its verification, the download of any version (audited), the
 * verification and the replacement. Forms post and redirect; a refused form comes back with the
 * messages next to its fields and what was typed (the file too, once stored).
 */
export const registerDocumentPages: RegisterRoutes = (router, { deps, views }) => {
  const user = (ctx: Ctx) => ctx.state.user!;
  const tx = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: user(ctx).username }, fn);
  const secret = deps.config.sessionSecret;
  const limit = megabytes(deps.config.uploadMaxBytes);
  /**
   * The form's file: the one just sent (stored and checked) or, when none was sent, the one kept
   * from a refused submit. A refusal or a missing file is written into `errors` under `file`.
   */
  const uploadedFile = async (codAzienda: string, username: string, upload: ParsedUpload, errors: Record<string, string>, missing: string) => {
    let file = keptFile(secret, codAzienda, username, upload.fields.file_token);
    if (upload.refusal) errors[upload.refusal.path] = upload.refusal.message;
    else if (upload.file && upload.file.bytes.length) {
      const stored = await storeUpload(deps, codAzienda, upload.file);
      if (stored.ok) file = stored.file; else { errors.file = stored.message; file = undefined; }
    }
    if (!file && !errors.file) errors.file = missing;
    return file;
  };

  router.get('/documenti', staff(STAFF_READ), async (ctx) => {
    const parsed = listDocumentRecordsQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listDocumentRecordsQuery.parse({});
    const result = await tx(ctx, (trx) => listDocuments(trx, tenantOf(ctx), q));
    const filters = { q: q.q ?? '', tipo: q.tipo ?? '', stato: q.stato ?? '', esito_verifica: q.esito_verifica ?? '', cod_anagrafe: q.cod_anagrafe ?? '', sort: q.sort };
    render(ctx, views, 'documenti/list.njk', { result, filters, labels: DOCUMENT_PAGE_LABELS, canUpload: hasRole(user(ctx), DOCUMENT_WRITERS) });
  });

  // ---- upload ----

  const renderUpload = (ctx: Ctx, values: Record<string, string>, errors: Record<string, string> = {}, kept?: { token: string; file: StoredFile; dimensione?: string }, status = 200) =>
    render(ctx, views, 'documenti/carica.njk', {
      values, errors, kept: kept ? { ...kept, dimensione: sizeLabel(kept.file.dimensione) } : undefined, limit, tipi: TIPO_DOCUMENTO_OPTIONS, labels: DOCUMENT_PAGE_LABELS, countryOptions: COUNTRY_OPTIONS.map((c) => ({ value: c.code, label: c.nome })),
      // In the order of the form, each linked to its field.
      summary: ['cod_anagrafe', 'tipo', 'file', ...UPLOAD_FIELDS.slice(2)].filter((k, i, all) => errors[k] && all.indexOf(k) === i),
    }, { status });

  router.get('/documenti/carica', staff(DOCUMENT_WRITERS), (ctx) => {
    const cod = typeof ctx.query.cod_anagrafe === 'string' ? ctx.query.cod_anagrafe : '';
    renderUpload(ctx, { ...pick({}, UPLOAD_FIELDS), cod_anagrafe: cod, tipo: 'carta_identita', paese_rilascio: 'IT' });
  });

  router.post('/documenti/carica', staff(DOCUMENT_WRITERS), async (ctx) => {
    const codAzienda = tenantOf(ctx);
    const upload = await parseDocumentUpload(deps, ctx);
    const values = pick(upload.fields, UPLOAD_FIELDS);
    const parsed = uploadDocumentSchema.safeParse(upload.fields);
    const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
    const file = await uploadedFile(codAzienda, user(ctx).username, upload, errors, 'Scegli il file del documento (PDF, JPEG o PNG)');
    // The holder must be one of the tenant's subjects: said next to the field, before anything is written.
    if (parsed.success && !(await tx(ctx, (trx) => documentHolder(trx, codAzienda, parsed.data.cod_anagrafe)))) {
      errors.cod_anagrafe = 'Nessun soggetto in anagrafe con questo codice';
    }
    const kept = file ? { token: keptFileToken(secret, codAzienda, user(ctx).username, file), file } : undefined;
    if (!parsed.success || Object.keys(errors).length || !file) return renderUpload(ctx, values, errors, kept, 422);
    try {
      const saved = await uploadDocument(deps, codAzienda, user(ctx), parsed.data, file);
      redirectWithFlash(ctx, `/documenti/${saved.cod_documento}`, 'success', `Documento ${saved.cod_documento} registrato: ora puoi verificarlo`);
    } catch (err) {
      const e = commandErrors(err);
      if (!e) throw err;
      renderUpload(ctx, values, e, kept, 422);
    }
  });

  // ---- detail ----

  const renderDetail = async (ctx: Ctx, d: DocumentView, replace: { values: Record<string, string>; errors: Record<string, string>; kept?: { token: string; file: StoredFile; dimensione?: string } } | null = null, status = 200) => {
    const { holder, names } = await tx(ctx, async (trx) => ({
      holder: await documentHolder(trx, tenantOf(ctx), d.cod_anagrafe),
      names: await fullNamesByUsername(trx, [d.created_by, d.verificato_by ?? '', d.updated_by ?? '', ...d.versioni.map((v) => v.created_by)].filter(Boolean)),
    }));
    const u = user(ctx);
    render(ctx, views, 'documenti/detail.njk', {
      d: { ...d, versioni: d.versioni.map((v) => ({ ...v, dimensioneLabel: v.dimensione === null ? null : sizeLabel(v.dimensione) })) }, holder, names, labels: DOCUMENT_PAGE_LABELS, countryOptions: COUNTRY_OPTIONS.map((c) => ({ value: c.code, label: c.nome })), limit,
      canDownload: hasRole(u, DOCUMENT_READERS), canVerify: hasRole(u, DOCUMENT_VERIFIERS),
      canReplace: hasRole(u, DOCUMENT_WRITERS) && d.stato !== 'sostituito',
      replace: replace ?? { values: { ...pick({}, REPLACE_FIELDS), data_rilascio: d.data_rilascio ?? '', data_scadenza: d.data_scadenza ?? '', numero: d.numero ?? '', autorita_rilascio: d.autorita_rilascio ?? '', paese_rilascio: d.paese_rilascio ?? '', mrz: d.mrz ?? '' }, errors: {} },
      replaceOpen: replace !== null,
    }, { status });
  };

  router.get('/documenti/:cod', staff(STAFF_READ), async (ctx) => {
    await renderDetail(ctx, await readDocument(deps, tenantOf(ctx), user(ctx), ctx.params.cod!));
  });

  router.get('/documenti/:cod/download', staff(DOCUMENT_READERS), async (ctx) => {
    const q = downloadQuery.safeParse(ctx.query);
    if (!q.success) throw notFound('Versione del documento', 'f');
    const f = await downloadDocument(deps, tenantOf(ctx), user(ctx), ctx.params.cod!, q.data.versione);
    // The name is the uploader's: encoded (RFC 5987), never put raw in the header; an ASCII fallback for old clients.
    const ascii = f.nome_file.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'documento';
    ctx.set('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.nome_file)}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = f.mime;
    ctx.body = f.bytes;
  });

  router.post('/documenti/:cod/verifica', staff(DOCUMENT_VERIFIERS), async (ctx) => {
    const d = await verifyDocumentRecord(deps, tenantOf(ctx), user(ctx), ctx.params.cod!);
    const failed = d.verifica.filter((c) => c.esito === 'ko').length;
    redirectWithFlash(ctx, `/documenti/${d.cod_documento}#verifica`, d.esito_verifica === 'valido' ? 'success' : 'warning',
      d.esito_verifica === 'valido' ? 'Verifica completata: tutti i controlli applicabili sono superati' : `Verifica completata: ${failed} ${failed === 1 ? 'controllo non superato' : 'controlli non superati'}`);
  });

  router.post('/documenti/:cod/sostituisci', staff(DOCUMENT_WRITERS), async (ctx) => {
    const codAzienda = tenantOf(ctx);
    const current = await readDocument(deps, codAzienda, user(ctx), ctx.params.cod!);
    const upload = await parseDocumentUpload(deps, ctx);
    const values = pick(upload.fields, REPLACE_FIELDS);
    const parsed = replaceDocumentSchema.safeParse(upload.fields);
    const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
    const file = await uploadedFile(codAzienda, user(ctx).username, upload, errors, 'Scegli il file della nuova versione (PDF, JPEG o PNG)');
    const kept = file ? { token: keptFileToken(secret, codAzienda, user(ctx).username, file), file } : undefined;
    if (!parsed.success || Object.keys(errors).length || !file) return renderDetail(ctx, current, { values, errors, kept: kept && { ...kept, dimensione: sizeLabel(kept.file.dimensione) } }, 422);
    try {
      const saved = await replaceDocument(deps, codAzienda, user(ctx), current.cod_documento, parsed.data, file);
      redirectWithFlash(ctx, `/documenti/${saved.cod_documento}`, 'success', `Nuova versione ${saved.versione} registrata: la precedente resta consultabile`);
    } catch (err) {
      const e = commandErrors(err);
      if (!e) throw err;
      renderDetail(ctx, current, { values, errors: e, kept: kept && { ...kept, dimensione: sizeLabel(kept.file.dimensione) } }, 422);
    }
  });
};
