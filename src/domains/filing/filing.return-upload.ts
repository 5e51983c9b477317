import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import multer from 'multer';
import { fileTypeFromBuffer } from 'file-type';
import { HttpError, ValidationError } from '../../http/errors';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../http/storable-text';
import { parseReturnFile, ReturnFileError, type ParsedReturn } from './goaml/return-file';

/** A return file is a few kilobytes of XML: 1 MB is generous and keeps a stray upload out. */
export const RETURN_MAX_BYTES = 1024 * 1024;

export interface ReturnUpload { parsed: ParsedReturn; fileName: string; sha256: string }

/**
 * Reads the FIU's return file (multipart, field "file"): size-limited, typed by its bytes (a
 * binary format file-type recognises is refused, and the text must be UTF-8 XML), then parsed.
 * Every refusal is a problem naming the field "file".
 */
export async function receiveReturnFile(ctx: Context): Promise<ReturnUpload> {
  const mw = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: RETURN_MAX_BYTES, files: 1, fields: 3, fieldSize: 200, parts: 4 } }).single('file');
  const req = ctx.req as typeof ctx.req & { file?: Express.Multer.File };
  await new Promise<void>((resolve, reject) => {
    mw(req as never, ctx.res as never, (err: unknown) => {
      if (!err) return resolve();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', 'File troppo grande', 'Il file di esito supera 1 MB', { errors: [{ path: 'file', message: 'Il file di esito supera 1 MB' }] }));
        return reject(new ValidationError([{ path: 'file', message: 'Carica un solo file, nel campo "file"' }]));
      }
      reject(err);
    });
  });
  const f = req.file;
  if (!f) throw new ValidationError([{ path: 'file', message: 'Scegli il file di esito da caricare (campo "file")' }]);
  if (!isStorableText(f.originalname)) throw new ValidationError([{ path: 'file', message: `Nome del file: ${UNSTORABLE_TEXT_MESSAGE}` }]);
  const detected = await fileTypeFromBuffer(f.buffer);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(f.buffer).replace(/^\uFEFF/, '');
  const looksXml = !text.includes('\uFFFD') && /^\s*</.test(text) && !text.includes('\u0000');
  // file-type names text formats only when they carry an XML declaration: anything else it knows is binary.
  if ((detected && detected.mime !== 'application/xml') || !looksXml) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Formato non ammesso', 'Il file di esito deve essere XML (UTF-8)', { errors: [{ path: 'file', message: 'Il file di esito deve essere XML (UTF-8)' }] });
  }
  try {
    return { parsed: parseReturnFile(text), fileName: f.originalname, sha256: createHash('sha256').update(f.buffer).digest('hex') };
  } catch (err) {
    if (err instanceof ReturnFileError) throw new ValidationError([{ path: 'file', message: `${err.code}: ${err.message}` }], 'Il file non è un esito goAML leggibile');
    throw err;
  }
}
