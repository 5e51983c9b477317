import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import multer from 'multer';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import { HttpError, ValidationError } from '../../http/errors';
import type { ApiCtx } from '../../http/api-route';
import { sniffUpload } from '../../kit/sniff';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import { IMPORT_RECORD_TYPE, IMPORT_WORKFLOW_TYPE, importWorkflowId, type ImportInput } from '../../../workflows/imports/imports.contract';
import { appendAudit } from '../audit';
import type { ImportTipo } from './import-kind';
import { storeImportFile } from './import-files';
import type { ImportJobRow } from './imports.repo';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

type Upload = { path: string; originalname: string; size: number };
/** The stored upload and the form's other fields (the page's "tipo"). */
export type Received = Upload & { fields: Record<string, unknown> };

/** The upload, written to a temporary file (never held in memory), one file in the field "file". */
export function receiveUpload(deps: Deps, ctx: ApiCtx): Promise<Received> {
  const max = deps.config.importMaxBytes;
  const mw = multer({ dest: join(deps.config.documentDir, 'imports', '.upload'), defParamCharset: 'utf8', limits: { fileSize: max, files: 1, fields: 5, fieldSize: 1024, parts: 6 } }).single('file');
  const req = ctx.req as typeof ctx.req & { file?: Upload; body?: Record<string, unknown> };
  return new Promise((resolve, reject) => {
    mw(req as never, ctx.res as never, (err: unknown) => {
      if (!err) return req.file ? resolve({ ...req.file, fields: req.body ?? {} }) : reject(new ValidationError([{ path: 'file', message: 'Scegli un file CSV o XLSX da importare' }]));
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') {
          return reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', 'File troppo grande', `Il file supera il limite di ${mb(max)}: dividilo in più file`, { errors: [{ path: 'file', message: `Il file supera il limite di ${mb(max)}` }], max_bytes: max }));
        }
        return reject(new ValidationError([{ path: 'file', message: 'Carica un solo file, nel campo "file"' }]));
      }
      return reject(new HttpError(400, 'BAD_REQUEST', 'Richiesta non valida', 'Modulo di caricamento non leggibile'));
    });
  });
}

/**
 * The file's type from its bytes: XLSX by its signature (file-type), CSV when no signature matches
 * and the start is UTF-8 text without NUL bytes. Anything else (an old .xls, a PDF, an executable renamed .csv) is a 415.
 */
export async function sniffImportFile(path: string): Promise<'csv' | 'xlsx'> {
  const fh = await open(path, 'r');
  const head = Buffer.alloc(8192);
  const { bytesRead } = await fh.read(head, 0, head.length, 0).finally(() => fh.close());
  const bytes = head.subarray(0, bytesRead);
  if (!bytes.length) throw new ValidationError([{ path: 'file', message: 'Il file è vuoto' }]);
  const t = await sniffUpload(bytes, [XLSX_MIME]);
  if (t.ok) return 'xlsx';
  // Text is what no signature names: a PDF or an image that happens to decode as UTF-8 is still refused.
  if (!t.detected && !bytes.includes(0) && isUtf8Text(bytes)) return 'csv';
  throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Formato non ammesso', 'Carica un file CSV (testo UTF-8) o XLSX (Excel)', { errors: [{ path: 'file', message: 'Formato non ammesso: carica un file CSV (UTF-8) o XLSX' }] });
}

function isUtf8Text(bytes: Buffer): boolean {
  try {
    // stream: true tolerates a character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Stores the file, records the job with its audit event, and starts its workflow (import:<tenant>:<id>). */
export async function createImport(deps: Deps, codAzienda: string, actor: string, tipo: ImportTipo, upload: Upload): Promise<ImportJobRow> {
  let formato: 'csv' | 'xlsx';
  let stored: { sha256: string; size: number };
  try {
    formato = await sniffImportFile(upload.path);
    stored = await storeImportFile(deps.config.documentDir, codAzienda, upload.path);
  } finally {
    await rm(upload.path, { force: true });
  }
  const job = await recordImportJob(deps.db, { codAzienda, actor, tipo, formato, nome: upload.originalname, stored });
  const id = job.id;
  const workflowId = job.workflow_id;
  const input: ImportInput = { importId: id, codAzienda };
  try {
    const client = await deps.temporal.get();
    await client.workflow.start(IMPORT_WORKFLOW_TYPE, {
      workflowId, taskQueue: deps.temporal.taskQueue, args: [input],
      typedSearchAttributes: recordSearchAttributes({ codAzienda, recordType: IMPORT_RECORD_TYPE, recordId: id, status: 'in_coda' }),
    });
  } catch (err) {
    await withTenant(deps.db, { codAzienda, actor }, (trx) => trx('import_jobs').where({ id }).update({ stato: 'fallito', errore: 'Avvio dell\'importazione non riuscito: riprova', finished_at: trx.fn.now() }));
    throw err;
  }
  return job;
}

/** The job's row and its audit event, for a file already stored (its workflow is started by the caller). */
export async function recordImportJob(db: Deps['db'], p: {
  codAzienda: string; actor: string; tipo: ImportTipo; formato: 'csv' | 'xlsx'; nome: string; stored: { sha256: string; size: number };
}): Promise<ImportJobRow> {
  const { codAzienda, actor, tipo, formato, stored } = p;
  const id = randomUUID();
  return withTenant(db, { codAzienda, actor }, async (trx) => {
    const [row] = await trx('import_jobs').insert({
      id, cod_azienda: codAzienda, tipo, formato, nome_file: (p.nome || `import.${formato}`).slice(0, 255), sha256: stored.sha256,
      dimensione: stored.size, workflow_id: importWorkflowId(codAzienda, id), created_by: actor,
    }).returning('*') as ImportJobRow[];
    await appendAudit(trx, { codAzienda, actor, action: 'import.created', entityType: 'import', entityId: id, data: { tipo, formato, nome_file: row!.nome_file, dimensione: stored.size, sha256: stored.sha256 } });
    return row!;
  });
}

/**
 * A file the platform wrote itself (the demo year's seed, docs/monitoring.md) imported as any
 * upload is: stored under its address, its job recorded; the caller runs its workflow (a child
 * of its own process) and reads the job's progress like the pages do.
 */
export async function importGeneratedFile(db: Deps['db'], documentDir: string, p: { codAzienda: string; actor: string; tipo: ImportTipo; nome: string; path: string }): Promise<ImportJobRow> {
  const stored = await storeImportFile(documentDir, p.codAzienda, p.path);
  return recordImportJob(db, { codAzienda: p.codAzienda, actor: p.actor, tipo: p.tipo, formato: 'csv', nome: p.nome, stored });
}
