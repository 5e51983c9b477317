import type { Context } from 'koa';
import { z } from 'zod';
import type { Deps } from '../../deps';
import { tenantOf } from '../../http/auth';
import { HttpError, ValidationError, type FieldError } from '../../http/errors';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { documentSourceMap } from '../../kit/document-sources';
import { STAFF_READ } from '../../kit/roles';
import { megabytes, parseDocumentUpload } from '../verifications';
import { SPINE_HOLDERS, SPINE_WRITERS } from './spine.access';
import { holdSpine, readSpine, spineDb, storeSpineUpload, uploadSpine, type StoredUpload } from './spine.commands';
import { listSpine } from './spine.repo';
import { holdSpineSchema, listSpineQuery, spineEntryResponse, spineListResponse, uploadSpineSchema, type UploadSpineBody } from './spine.schemas';

const tag = 'Documenti';
export const SPINE_API = '/api/documents/spine';

const issues = (err: z.ZodError): FieldError[] => err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));

/** The multipart upload: every problem of the fields and the file together (422 naming each), 413 over the limit, 415 for a type not taken. */
async function readUpload(deps: Deps, ctx: Context): Promise<{ body: UploadSpineBody; file: StoredUpload }> {
  const upload = await parseDocumentUpload(deps, ctx);
  if (upload.refusal?.status === 413) {
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'File troppo grande', upload.refusal.message, { errors: [{ path: 'file', message: upload.refusal.message }], max_bytes: deps.config.uploadMaxBytes });
  }
  const parsed = uploadSpineSchema.safeParse(upload.fields);
  const errors: FieldError[] = parsed.success ? [] : issues(parsed.error);
  if (upload.refusal) errors.push({ path: upload.refusal.path, message: upload.refusal.message });
  else if (!upload.file) errors.push({ path: 'file', message: 'Scegli il file del documento da caricare (campo "file")' });
  if (errors.length || !parsed.success || !upload.file) throw new ValidationError(errors);
  const stored = await storeSpineUpload(deps, tenantOf(ctx as never), upload.file);
  if (!stored.ok) {
    if (stored.status === 415) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Formato non ammesso', stored.message, { errors: [{ path: 'file', message: stored.message }] });
    throw new ValidationError([{ path: 'file', message: stored.message }], stored.message);
  }
  return { body: parsed.data, file: stored.file };
}

/** The document spine's API (docs/document-spine.md): the index, an upload into it, an entry with its citations, the legal hold. */
export const registerSpineRoutes: RegisterRoutes = (router, { deps, areas }) => {
  const sources = documentSourceMap(areas);

  router.api({
    method: 'GET', path: SPINE_API, tag, access: staff(STAFF_READ), query: listSpineQuery, response: spineListResponse,
    summary: 'Indice di tutti i documenti conservati (caricamenti di onboarding, documenti, evidenze, allegati SOS per chi può vederli, pacchetti di comunicazione, documenti firmati): impronta SHA-256, titolare, tipo, conservazione e blocco legale. Filtri: tipo, cod_anagrafe, blocco (si/no), conservazione (scaduta/aperta); q: SPN-…, ANA-… o impronta',
    handler: (ctx, { query }) => spineDb(deps, tenantOf(ctx), ctx.state.user!, (trx) => listSpine(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: SPINE_API, tag, access: staff(SPINE_WRITERS), multipart: true, body: uploadSpineSchema, response: spineEntryResponse, status: 201,
    summary: `Carica un documento nell'indice: campi cod_anagrafe (obbligatorio: il soggetto titolare) e descrizione; multipart/form-data con il file nel campo "file" (PDF, JPEG o PNG, tipo letto dal contenuto; al massimo ${megabytes(deps.config.uploadMaxBytes)}: 413 oltre; 415 formato non ammesso). Client API: X-CSRF-Token`,
    handler: async (ctx) => {
      const { body, file } = await readUpload(deps, ctx);
      const saved = await uploadSpine(deps, tenantOf(ctx), ctx.state.user!, body, file);
      ctx.set('Location', `/documenti/spine/${saved.cod_spine}`);
      return saved;
    },
  });

  router.api({
    method: 'GET', path: `${SPINE_API}/:codSpine`, tag, access: staff(STAFF_READ), response: spineEntryResponse,
    summary: 'Un documento dell\'indice: conservazione spiegata e record che lo citano (stessa impronta)',
    handler: (ctx, { params }) => readSpine(deps, tenantOf(ctx), ctx.state.user!, params.codSpine!),
  });

  router.api({
    method: 'PUT', path: `${SPINE_API}/:codSpine/hold`, tag, access: staff(SPINE_HOLDERS), body: holdSpineSchema, response: spineEntryResponse,
    summary: 'Applica (blocco: true) o rimuove (false) il blocco legale, con il motivo: un documento sotto blocco non viene mai eliminato. 409 se è già nello stato richiesto',
    handler: (ctx, { params, body }) => holdSpine(deps, tenantOf(ctx), ctx.state.user!, params.codSpine!, body, sources),
  });
};
