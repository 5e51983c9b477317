import multer from 'multer';
import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { notFound, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { testo, testoOpzionale } from '../../http/text-field';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { STAFF_READ, type Role } from '../../kit/roles';
import { DocumentStore, sniffDocument } from '../onboarding';
import { cddPageKit, PAGE_LABELS, peopleNames } from './cdd.page-context';
import { executeRenderer, isEditable } from './cdd.page-execute';
import { EXECUTORS } from './cdd.page-task';
import { cddEvidence } from './cdd-task.repo';
import { addCddEvidence, CDD_EVIDENCE_TYPES } from './cdd.service';

/**
 * Who may download an evidence file: those who work or review tasks, and the internal auditor.
 * A viewer sees that a file exists, not its content (identity documents, bank statements).
 */
export const EVIDENCE_READERS: Role[] = ['co', 'analyst', 'admin', 'sos', 'auditor'];

const evidenceForm = z.object({
  tipo: z.enum(CDD_EVIDENCE_TYPES, { message: 'Scegli il tipo di evidenza' }),
  descrizione: testo({ max: 2_000, multiline: true, vuoto: 'Descrivi l\'evidenza' }),
  riferimento: testoOpzionale({ max: 200 }),
});

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * A task's evidence: the list (GET /cdd/evidence/:codPratica), each file's download, and the
 * upload from the execute page (multipart, the CSRF token in the query string; the file's type is
 * read from its bytes; stored in the onboarding document store by its SHA-256).
 */
export const registerCddEvidencePages: RegisterRoutes = (router, services) => {
  const { deps, views } = services;
  const { tx, loadTask } = cddPageKit(services);
  const store = new DocumentStore(deps.config.documentDir);
  const renderExecute = executeRenderer(services);
  const single = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 5_000 } }).single('file');

  /** The multipart body; a file over the limit (or any parser refusal) becomes the file field's message, the other fields kept. */
  function parseUpload(ctx: Ctx): Promise<{ fields: Record<string, unknown>; file?: Express.Multer.File; error?: string }> {
    const req = ctx.req as typeof ctx.req & { file?: Express.Multer.File; body?: Record<string, unknown> };
    return new Promise((resolve, reject) => {
      single(req as never, ctx.res as never, (err: unknown) => {
        if (!err) return resolve({ fields: req.body ?? {}, ...(req.file ? { file: req.file } : {}) });
        if (err instanceof multer.MulterError) {
          return resolve({
            fields: req.body ?? {},
            error: err.code === 'LIMIT_FILE_SIZE' ? `Il file supera la dimensione massima di ${mib(deps.config.uploadMaxBytes)}` : 'Caricamento non valido: scegli un solo file e riprova',
          });
        }
        reject(err);
      });
    });
  }

  router.get('/cdd/evidence/:codPratica', staff(STAFF_READ), async (ctx) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.codPratica!);
      const evidence = await cddEvidence(trx, t.id);
      return { t, customer, evidence, names: await peopleNames(trx, evidence.map((e) => e.created_by)) };
    });
    const user = ctx.state.user!;
    render(ctx, views, 'cdd/evidence.njk', {
      ...data, labels: PAGE_LABELS,
      canDownload: user.ruoli.some((r) => EVIDENCE_READERS.includes(r)),
      canAddEvidence: user.ruoli.some((r) => EXECUTORS.includes(r)) && isEditable(ctx, data.t),
    });
  });

  router.get('/cdd/evidence/:codPratica/:evidenceId', staff(EVIDENCE_READERS), async (ctx) => {
    const { t, e } = await tx(ctx, async (trx) => {
      const { t } = await loadTask(ctx, trx, ctx.params.codPratica!);
      return { t, e: (await cddEvidence(trx, t.id)).find((x) => x.id === ctx.params.evidenceId) };
    });
    if (!e?.sha256) throw notFound('Evidenza');
    const bytes = await store.get(tenantOf(ctx), e.sha256);
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(e.nome_file ?? `${t.cod_pratica}-evidenza`)}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = e.mime ?? 'application/octet-stream';
    ctx.body = bytes;
  });

  router.post('/cdd/evidence/:codPratica', staff(EXECUTORS), async (ctx) => {
    const t = await tx(ctx, async (trx) => (await loadTask(ctx, trx, ctx.params.codPratica!)).t);
    const { fields, file, error } = await parseUpload(ctx);
    const values = { tipo: fields.tipo ?? '', descrizione: fields.descrizione ?? '', riferimento: fields.riferimento ?? '' };
    const refuse = (errors: Record<string, string>, status = 422) => renderExecute(ctx, { evidence: { values, errors }, status });
    if (!isEditable(ctx, t)) return refuse({ descrizione: 'Le evidenze si aggiungono mentre la verifica è in lavorazione' }, 409);
    const parsed = evidenceForm.safeParse(values);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (error) errors.file = error;
    let stored: { sha256: string; nome_file: string; mime: string; dimensione: number } | undefined;
    if (!error && file && file.buffer.length) {
      const kind = await sniffDocument(file.buffer, file.mimetype);
      if (!kind.ok) errors.file = kind.message;
      else if (parsed.success) {
        stored = { sha256: await store.put(tenantOf(ctx), file.buffer), nome_file: file.originalname || `evidenza.${kind.ext}`, mime: kind.mime, dimensione: file.buffer.length };
      }
    }
    if (!parsed.success || Object.keys(errors).length) return refuse(errors);
    try {
      await addCddEvidence(deps.db, {
        codAzienda: tenantOf(ctx), user: ctx.state.user!, task: t.id, tipo: parsed.data.tipo, descrizione: parsed.data.descrizione,
        riferimento: parsed.data.riferimento ?? null, file: stored ?? null,
      });
    } catch (err) {
      if (err instanceof ValidationError) return refuse(Object.fromEntries(err.errors.map((x) => [x.path, x.message])));
      throw err;
    }
    redirectWithFlash(ctx, `/cdd/${t.id}/esegui#evidenze`, 'success', 'Evidenza aggiunta');
  });
};
