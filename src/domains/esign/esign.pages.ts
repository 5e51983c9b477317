import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import type { EsignTransitionArgs } from '../../../workflows/esign/esign.contract';
import type { RegisterRoutes } from '../../kit/area';
import { SIGNER_OR_STAFF } from './esign.access';
import { ceremonyByToken, ceremonyView, resolveCeremony, signerStep, type CeremonyRow } from './esign.service';
import { SIGNER } from '../../kit/access';
import { loadPublicBrand } from '../admin';

const STATO_LABELS: Record<string, string> = {
  started: 'Da iniziare', terms_accepted: 'Condizioni accettate', presented: 'In attesa del codice', signed: 'Firmato', expired: 'Scaduto', locked: 'Bloccato', cancelled: 'Annullato',
};
const FLASH: Record<EsignTransitionArgs['action'], string> = {
  terms: 'Condizioni accettate.', present: 'Ti abbiamo inviato un codice di 6 cifre: inseriscilo per firmare.', sign: 'Documento firmato. Puoi scaricare la ricevuta.',
  resend: 'Ti abbiamo inviato un nuovo codice: quello precedente non vale più.',
};
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const pageUrl = (id: string, token: string) => `/esign/ceremony/${id}?token=${encodeURIComponent(token)}`;

/**
 * Where a signed-in staff member goes back to from a ceremony: the onboarding case that asked
 * for it (its workflow id is `onboarding:<tenant>:<case>`), else the home page.
 */
function staffBack(row: CeremonyRow): { href: string; label: string } {
  const prefix = `onboarding:${row.cod_azienda}:`;
  const caseId = row.parent_workflow_id?.startsWith(prefix) ? row.parent_workflow_id.slice(prefix.length) : '';
  return /^[0-9a-f-]{36}$/.test(caseId)
    ? { href: `/admin/onboarding/cases/${caseId}`, label: 'Torna alla pratica di onboarding' }
    : { href: '/', label: 'Torna alla home' };
}

/**
 * The signer's pages (public layout: no account). Each step is a form that posts with
 * CSRF and redirects back; the token travels in the URL or a hidden field (the app-wide
 * Referrer-Policy same-origin keeps it from other sites).
 */
export const registerEsignPages: RegisterRoutes = (router, { deps, views }) => {
  const show = async (ctx: Ctx, id: string, token: string | undefined, extra: Record<string, unknown> = {}, status = 200) => {
    const row = await resolveCeremony(deps, id, token, ctx.state.user);
    // Without the token it is staff reading the record: no signer forms, a way back instead.
    const staffView = !token;
    render(ctx, views, 'esign/ceremony.njk', {
      c: ceremonyView(row), token, statoLabel: STATO_LABELS[row.stato] ?? row.stato, errors: {}, brand: await loadPublicBrand(deps, row.cod_azienda),
      staffView, back: staffView ? staffBack(row) : null, ...extra,
    }, { status });
  };

  router.get('/esign/ceremony/:id', SIGNER_OR_STAFF, (ctx) => show(ctx, ctx.params.id!, str(ctx.query.token)));

  for (const [path, action] of [['terms', 'terms'], ['present', 'present'], ['sign', 'sign'], ['resend', 'resend']] as const) {
    router.post(`/esign/ceremony/:id/${path}`, SIGNER, async (ctx) => {
      const body = formBody(ctx);
      const token = str(body.token);
      const row = await ceremonyByToken(deps, ctx.params.id!, token);
      const otp = str(body.otp)?.trim();
      if (action === 'sign' && !/^\d{6}$/.test(otp ?? '')) {
        return show(ctx, row.id, token, { errors: { otp: 'Inserisci il codice di 6 cifre ricevuto' }, otp }, 422);
      }
      try {
        await signerStep(deps, row, action, { ip: ctx.ip, userAgent: ctx.get('user-agent').slice(0, 500) }, otp);
      } catch (err) {
        if (err instanceof HttpError && err.status === 422) {
          const message = (err.extra.errors as { message: string }[] | undefined)?.[0]?.message ?? 'Codice errato';
          return show(ctx, row.id, token, { errors: { otp: message }, otp }, 422);
        }
        // Resend limits: the signer reads why and when, on the same page.
        if (err instanceof HttpError && action === 'resend' && (err.status === 429 || err.code === 'RESEND_LIMIT')) {
          return redirectWithFlash(ctx, pageUrl(row.id, token!), 'warning', err.detail ?? err.title);
        }
        if (err instanceof HttpError && err.status === 409) {
          return redirectWithFlash(ctx, pageUrl(row.id, token!), 'warning', 'Questo passaggio non è più disponibile.');
        }
        throw err;
      }
      redirectWithFlash(ctx, pageUrl(row.id, token!), 'success', FLASH[action]);
    });
  }

  router.get('/esign/receipt/:id', SIGNER_OR_STAFF, async (ctx) => {
    const token = str(ctx.query.token);
    const row = await resolveCeremony(deps, ctx.params.id!, token, ctx.state.user);
    const q = token ? `token=${encodeURIComponent(token)}&` : '';
    render(ctx, views, 'esign/receipt.njk', {
      c: ceremonyView(row), statoLabel: STATO_LABELS[row.stato] ?? row.stato, row, brand: await loadPublicBrand(deps, row.cod_azienda),
      back: token ? null : staffBack(row), ceremonyUrl: `/esign/ceremony/${row.id}${token ? `?token=${encodeURIComponent(token)}` : ''}`,
      pdfUrl: `/api/v1/esign/ceremony/${row.id}/receipt${q ? `?${q.slice(0, -1)}` : ''}`,
      jsonUrl: `/api/v1/esign/ceremony/${row.id}/receipt?${q}format=json`,
    });
  });
};
