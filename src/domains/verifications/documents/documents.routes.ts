import type { Context } from 'koa';
import { z } from 'zod';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, ValidationError, type FieldError } from '../../../http/errors';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { readDocument, replaceDocument, storeUpload, uploadDocument, verifyDocumentRecord, type StoredFile } from './documents.commands';
import { listDocuments } from './documents.repo';
import {
  documentListResponse, documentRecordResponse, listDocumentRecordsQuery, replaceDocumentSchema, uploadDocumentSchema, verifyDocumentSchema,
} from './documents.schemas';
import { DOCUMENT_VERIFIERS, DOCUMENT_WRITERS, megabytes, parseDocumentUpload } from './documents.upload';

const tag = 'Documenti';
export const DOCUMENT_RECORDS_API = '/api/v1/documenti/records';

const issues = (err: z.ZodError): FieldError[] => err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));

/**
 * A multipart form of the API: its fields through `schema`, its file sniffed and stored. Every
 * problem of the fields and of the file is answered together (422 naming each field); a file over
 * the limit is a 413, a type the store does not take a 415.
 */
async function readForm<S extends z.ZodType>(deps: Deps, ctx: Context, schema: S): Promise<{ body: z.infer<S>; file: StoredFile }> {
  const upload = await parseDocumentUpload(deps, ctx);
  if (upload.refusal?.status === 413) {
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'File troppo grande', upload.refusal.message, { errors: [{ path: 'file', message: upload.refusal.message }], max_bytes: deps.config.uploadMaxBytes });
  }
  const parsed = schema.safeParse(upload.fields);
  const errors: FieldError[] = parsed.success ? [] : issues(parsed.error);
  if (upload.refusal) errors.push({ path: upload.refusal.path, message: upload.refusal.message });
  else if (!upload.file) errors.push({ path: 'file', message: 'Scegli il file del documento da caricare (campo "file")' });
  if (errors.length || !parsed.success || !upload.file) throw new ValidationError(errors);
  const stored = await storeUpload(deps, tenantOf(ctx as never), upload.file);
  if (!stored.ok) {
    if (stored.status === 415) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Formato non ammesso', stored.message, { errors: [{ path: 'file', message: stored.message }] });
    throw new ValidationError([{ path: 'file', message: stored.message }], stored.message);
  }
  return { body: parsed.data, file: stored.file };
}

/** The document records API (docs/documents.md): list, upload, read with versions, replace, verify. */
export const registerDocumentRecordRoutes: RegisterRoutes = (router, { deps }) => {
  const limit = megabytes(deps.config.uploadMaxBytes);
  const multipartNote = `multipart/form-data con il file nel campo "file" (PDF, JPEG o PNG, tipo letto dal contenuto; al massimo ${limit}: 413 oltre; 415 formato non ammesso; 422 se il tipo dichiarato non corrisponde). Modulo HTML: ?_csrf=, client API: X-CSRF-Token`;

  router.api({
    method: 'GET', path: DOCUMENT_RECORDS_API, summary: 'Elenco dei documenti (filtri: soggetto, tipo, stato, esito della verifica; q: codice DOC-…, codice del soggetto ANA-… o numero esatto del documento)', tag,
    access: staff(STAFF_READ), query: listDocumentRecordsQuery, response: documentListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listDocuments(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: DOCUMENT_RECORDS_API, tag, access: staff(DOCUMENT_WRITERS), multipart: true, body: uploadDocumentSchema, response: documentRecordResponse, status: 201,
    summary: `Carica un documento del soggetto con la sua prima versione: campi cod_anagrafe, tipo, numero, autorita_rilascio, paese_rilascio, data_rilascio, data_scadenza, mrz (zona a lettura ottica, facoltativa); ${multipartNote}`,
    handler: async (ctx) => {
      const { body, file } = await readForm(deps, ctx, uploadDocumentSchema);
      const saved = await uploadDocument(deps, tenantOf(ctx), ctx.state.user!, body, file);
      ctx.set('Location', `${DOCUMENT_RECORDS_API}/${saved.cod_documento}`);
      return saved;
    },
  });

  router.api({
    method: 'GET', path: `${DOCUMENT_RECORDS_API}/:cod_documento`, summary: 'Il documento con le sue versioni (la più recente per prima) e l\'esito dell\'ultima verifica', tag,
    access: staff(STAFF_READ), response: documentRecordResponse,
    handler: (ctx, { params }) => readDocument(deps, tenantOf(ctx), ctx.state.user!, params.cod_documento!),
  });

  router.api({
    method: 'POST', path: `${DOCUMENT_RECORDS_API}/:cod_documento/sostituisci`, tag, access: staff(DOCUMENT_WRITERS), multipart: true, body: replaceDocumentSchema, response: documentRecordResponse,
    summary: `Sostituisce il documento con una nuova versione (motivo obbligatorio; numero, date, autorità e mrz facoltativi: se omessi restano quelli attuali); le versioni precedenti restano consultabili. L'esito torna "da verificare"; ${multipartNote}`,
    handler: async (ctx, { params }) => {
      const { body, file } = await readForm(deps, ctx, replaceDocumentSchema);
      return replaceDocument(deps, tenantOf(ctx), ctx.state.user!, params.cod_documento!, body, file);
    },
  });

  router.api({
    method: 'POST', path: `${DOCUMENT_RECORDS_API}/:cod_documento/verifica`, tag, access: staff(DOCUMENT_VERIFIERS), body: verifyDocumentSchema, response: documentRecordResponse,
    summary: 'Verifica il documento: tipo e dimensione, leggibilità, scadenza, cifre di controllo della zona a lettura ottica (ICAO 9303) e sua corrispondenza con i dati, coerenza del codice fiscale con la persona. Ogni controllo con esito e messaggio in verifica',
    handler: (ctx, { params }) => verifyDocumentRecord(deps, tenantOf(ctx), ctx.state.user!, params.cod_documento!),
  });
};
