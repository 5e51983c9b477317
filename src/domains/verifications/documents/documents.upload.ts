import type { Context } from 'koa';
import multer from 'multer';
import type { Deps } from '../../../deps';
import type { Role } from '../../../kit/roles';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../../http/storable-text';

/** Who records and replaces documents: the registry's writers (the records area's API). */
export const DOCUMENT_WRITERS: Role[] = ['analyst', 'co', 'admin'];
/** Who runs the verification of a document: those who work customers' due diligence. */
export const DOCUMENT_VERIFIERS: Role[] = ['analyst', 'co'];
/**
 * Who may download a copy: identity documents are personal data, read by those who work or audit
 * the file; a viewer sees that a copy exists and its checks, not its content.
 */
export const DOCUMENT_READERS: Role[] = ['co', 'analyst', 'admin', 'sos', 'auditor'];

/** The multipart fields a document form may carry (the file aside). */
const FIELDS = 12;

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString('it-IT', { maximumFractionDigits: 1 })} MB`;

export interface ParsedUpload {
  fields: Record<string, string>;
  file?: { bytes: Buffer; nome_file: string; declaredMime: string };
  /** A refusal of the parser: 413 over the size limit, 422 otherwise; the file field's message. */
  refusal?: { status: 413 | 422; path: string; message: string };
}

/**
 * Reads a multipart document form into memory: one file (field "file") up to the configured upload
 * limit (UPLOAD_MAX_BYTES) and a few short fields. A refusal is a message for a field, with the
 * other fields kept, so a page can show the form again with what was typed.
 */
export function parseDocumentUpload(deps: Deps, ctx: Context): Promise<ParsedUpload> {
  const max = deps.config.uploadMaxBytes;
  const mw = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: max, files: 1, fields: FIELDS, fieldSize: 4_000, parts: FIELDS + 1 } }).single('file');
  const req = ctx.req as typeof ctx.req & { file?: Express.Multer.File; body?: Record<string, unknown> };
  return new Promise((resolve, reject) => {
    mw(req as never, ctx.res as never, (err: unknown) => {
      const fields = Object.fromEntries(Object.entries(req.body ?? {}).filter(([k, v]) => typeof v === 'string' && k !== '_csrf')) as Record<string, string>;
      if (!err) {
        const f = req.file;
        // A name PostgreSQL cannot store is refused here, with the fields' own problems, not after them.
        if (f && !isStorableText(f.originalname)) return resolve({ fields, refusal: { status: 422, path: 'file', message: `Nome del file: ${UNSTORABLE_TEXT_MESSAGE}` } });
        return resolve({ fields, ...(f ? { file: { bytes: f.buffer, nome_file: f.originalname, declaredMime: f.mimetype } } : {}) });
      }
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return resolve({ fields, refusal: { status: 413, path: 'file', message: `Il file supera la dimensione massima di ${megabytes(max)}` } });
        const file = err.code === 'LIMIT_FILE_COUNT' || err.code === 'LIMIT_UNEXPECTED_FILE';
        return resolve({ fields, refusal: { status: 422, path: file ? 'file' : '_form', message: file ? 'Carica un solo file, nel campo "file"' : 'Troppi campi o campi troppo lunghi' } });
      }
      reject(err);
    });
  });
}
