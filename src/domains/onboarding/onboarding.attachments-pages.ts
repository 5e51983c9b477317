import multer from 'multer';
import type { AppServices } from '../../kit/area';
import { HttpError, ValidationError } from '../../http/errors';
import { isHtmx, redirectWithFlash, type Ctx } from '../../http/render';
import { flatten, unflatten } from './onboarding.forms';
import { formBody, pageHelpers, str, type Loaded } from './onboarding.page-context';
import {
  addWallet, caseView, completeTravelRule, deleteDocument, loadCaseBundle, resetTravelRule, signTravelRule, uploadDocument,
} from './onboarding.service';
import { stepRenderer } from './onboarding.step-view';
import { stepUrl } from './onboarding.steps';
import { walletProofMessage } from './onboarding.wizard';
import type { Routes } from '../../kit/routes';

const firstMessages = (errors: { path: string; message: string }[]) => {
  const out: Record<string, string> = {};
  for (const e of errors) out[e.path || '_form'] ??= e.message;
  return out;
};
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * The wizard's forms that attach things to the case: documents (multipart upload, with
 * the CSRF token in the query string because multipart bodies are read after the CSRF
 * check), wallets with their proof of control, and the travel-rule declaration. Each
 * redirects back to its step; with htmx the documents and wallets lists swap in place.
 */
export function registerOnboardingAttachmentPages(router: Routes, { deps, views }: AppServices) {
  const { editable, applicantPage } = pageHelpers(deps, views);
  const renderStep = stepRenderer(deps, views);
  // The file's name comes as raw UTF-8 from browsers, not in multer's default Latin-1.
  const single = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: deps.config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 2000 } }).single('file');

  const reload = async (l: Loaded): Promise<Loaded> => {
    const b = await loadCaseBundle(deps, l.row);
    return { ...l, row: b.row, view: caseView(b.row, b.docs, b.wallets, deps.config.sessionSecret) };
  };
  const docStep = (v: unknown): 3 | 4 => (str(v) === '4' ? 4 : 3);

  /** Reads the multipart body; a file over the limit (or any parser refusal) becomes a message for the file field, the other fields kept. */
  function parseUpload(ctx: Ctx): Promise<{ fields: Record<string, unknown>; file?: Express.Multer.File; error?: string }> {
    const req = ctx.req as typeof ctx.req & { file?: Express.Multer.File; body?: Record<string, unknown> };
    return new Promise((resolve, reject) => {
      single(req as never, ctx.res as never, (err: unknown) => {
        if (!err) return resolve({ fields: req.body ?? {}, file: req.file });
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

  router.post('/onboarding/documenti', applicantPage, async (ctx) => {
    const l = await editable(ctx);
    if (!l) return;
    const step = docStep(ctx.query.passo);
    const { fields, file, error } = await parseUpload(ctx);
    const values = { tipo: str(fields.tipo) ?? '', riferimento: str(fields.riferimento) ?? '' };
    let errors: Record<string, string> = {};
    if (error) errors = { file: error };
    else if (!file || !file.buffer.length) errors = { file: 'Scegli un file da caricare' };
    else {
      const r = await uploadDocument(deps, l.row, { bytes: file.buffer, filename: file.originalname, declaredMime: file.mimetype, tipo: values.tipo, riferimento: values.riferimento });
      if (!r.ok) errors = firstMessages(r.errors);
    }
    if (Object.keys(errors).length) return renderStep(ctx, await reload(l), step, { upload: { values, errors }, errors, status: 422 });
    if (isHtmx(ctx)) return renderStep(ctx, await reload(l), step, { notice: 'Documento caricato.' });
    redirectWithFlash(ctx, stepUrl(step), 'success', 'Documento caricato.');
  });

  router.post('/onboarding/documenti/:id/elimina', applicantPage, async (ctx) => {
    const l = await editable(ctx);
    if (!l) return;
    const step = docStep(formBody(ctx).passo);
    await deleteDocument(deps, l.row, ctx.params.id!);
    if (isHtmx(ctx)) return renderStep(ctx, await reload(l), step, { notice: 'Documento eliminato.' });
    redirectWithFlash(ctx, stepUrl(step), 'success', 'Documento eliminato.');
  });

  router.post('/onboarding/wallet', applicantPage, async (ctx) => {
    const l = await editable(ctx);
    if (!l) return;
    const body = formBody(ctx);
    const typed = unflatten(body) as { rete?: string; indirizzo?: string; prova?: { metodo?: string; firma?: string } } & Record<string, unknown>;
    const values = flatten(typed);
    if (str(body.azione) === 'messaggio') {
      const errors: Record<string, string> = {};
      if (!typed.rete) errors.rete = 'Scegli la rete per preparare il messaggio';
      if (!typed.indirizzo?.trim()) errors.indirizzo = 'Indica l\'indirizzo per preparare il messaggio';
      return renderStep(ctx, l, 7, { wallet: { values, errors }, errors, status: Object.keys(errors).length ? 422 : 200 });
    }
    const metodo = typed.prova?.metodo || undefined;
    const prova = metodo ? {
      metodo,
      firma: typed.prova?.firma,
      // The signed text is rebuilt here from the case and the address: a signature over anything else does not count.
      messaggio: metodo === 'firma_messaggio' && typed.rete && typed.indirizzo ? walletProofMessage(l.view.id, l.row.cod_azienda, typed.rete, typed.indirizzo) : undefined,
    } : undefined;
    try {
      await addWallet(deps, l.row, { ...typed, prova });
    } catch (err) {
      if (err instanceof ValidationError) {
        const errors = firstMessages(err.errors.map((e) => ({ path: e.path === 'prova' ? 'prova.metodo' : e.path, message: e.message })));
        return renderStep(ctx, l, 7, { wallet: { values, errors }, errors, status: 422 });
      }
      throw err;
    }
    if (isHtmx(ctx)) return renderStep(ctx, await reload(l), 7, { notice: 'Wallet aggiunto.' });
    redirectWithFlash(ctx, stepUrl(7), 'success', 'Wallet aggiunto.');
  });

  router.post('/onboarding/travel-rule/firma', applicantPage, async (ctx) => {
    const l = await editable(ctx);
    if (!l) return;
    const body = formBody(ctx);
    // An unticked box is not sent at all: it is a "no", so the declaration's own message shows.
    const values = {
      titolare_wallet: str(body.titolare_wallet) ?? 'false', fondi_leciti: str(body.fondi_leciti) ?? 'false', aggiornamento: str(body.aggiornamento) ?? 'false', luogo: str(body.luogo) ?? '',
    };
    try {
      const r = await signTravelRule(deps, l.row, values);
      redirectWithFlash(ctx, r.signing_path, 'info', 'Firma la dichiarazione: al termine torna alla tua richiesta per completarla.');
    } catch (err) {
      if (err instanceof ValidationError) {
        const errors = firstMessages(err.errors);
        return renderStep(ctx, l, 7, { declaration: { values, errors }, errors, status: 422 });
      }
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, stepUrl(7), 'warning', 'La dichiarazione è già in firma: completala o annullala.');
      throw err;
    }
  });

  router.post('/onboarding/travel-rule/completa', applicantPage, async (ctx) => {
    const l = await editable(ctx);
    if (!l) return;
    try {
      await completeTravelRule(deps, l.row);
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, stepUrl(7), 'warning', 'La dichiarazione non risulta ancora firmata: firmala e riprova.');
      throw err;
    }
    redirectWithFlash(ctx, stepUrl(7), 'success', 'Dichiarazione sui wallet completata.');
  });

  router.post('/onboarding/travel-rule/annulla', applicantPage, async (ctx) => {
    const l = await editable(ctx);
    if (!l) return;
    await resetTravelRule(deps, l.row);
    redirectWithFlash(ctx, stepUrl(7), 'info', 'Dichiarazione annullata: puoi compilarla e firmarla di nuovo.');
  });
}
