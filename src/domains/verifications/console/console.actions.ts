import { z } from 'zod';
import { tenantOf } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { redirectWithFlash, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { AppServices, RegisterRoutes } from '../../../kit/area';
import { STAFF_WRITE } from '../../../kit/roles';
import { kybProfileSchema, transitionVerification, updateCheck, updateProfile } from '../kyc-kyb';
import type { TipoVerifica } from '../verifications.vocabulary';
import { profileFormValues, profileFromForm } from './console.declared';
import { AZIONE_DONE, REFUSAL_MESSAGES } from './console.labels';
import { renderVerification, type PageProblem } from './console.pages';

/**
 * The consoles' forms (CSRF checked by the app before these run): a transition (start, approve,
 * reject with its reason), a check's outcome, a check's waiver, a KYB's company profile. Each goes
 * through part kyc's commands, which decide (machine, roles, checks); bad input comes back next to
 * its field, a refusal (409, 403) as the page's message, with what was typed kept.
 */

const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const text = (max: number) => z.string().trim().max(max, `Massimo ${max} caratteri`);

const transitionForm = z.object({
  azione: z.enum(['start', 'approve', 'reject'], { message: 'Azione non valida' }),
  motivo: text(2000).optional(),
}).superRefine((v, ctx) => {
  if (v.azione === 'reject' && !v.motivo) ctx.addIssue({ code: 'custom', path: ['motivo'], message: 'Indica il motivo del rifiuto' });
});
const checkForm = z.object({
  stato: z.enum(['passed', 'failed'], { message: 'Scegli l\'esito del controllo' }),
  esito_nota: text(2000).optional().transform((v) => v || null),
});
const waiverForm = z.object({
  motivo_deroga: z.string({ message: 'Indica il motivo della deroga' }).trim().min(1, 'Indica il motivo della deroga').max(2000, 'Massimo 2000 caratteri'),
});

/** What a refusal says on the page: the problem's own sentence (it names the checks still open), else the code's. */
const refusal = (err: HttpError) => err.detail ?? REFUSAL_MESSAGES[err.code] ?? err.title;

/**
 * Runs one form: parse, act, redirect with a flash; or draw the page again with the problem.
 * A 404 (another tenant's record, an unknown check) and server errors go to the error pages.
 */
async function handle<S extends z.ZodType>(
  ctx: Ctx, services: AppServices, tipo: TipoVerifica, form: PageProblem['form'], schema: S, act: (v: z.infer<S>) => Promise<string>,
) {
  const cod = ctx.params.cod_verifica!;
  const body = formBody(ctx);
  // The profile's address may arrive dotted or nested (the body parser's choice): both become the form's flat names again.
  const input = form === 'profilo' ? profileFromForm(body) : body;
  const values = form === 'profilo' ? profileFormValues(input) : Object.fromEntries(Object.entries(body).filter(([k]) => k !== '_csrf'));
  const parsed = schema.safeParse(input);
  if (!parsed.success) return renderVerification(ctx, services, tipo, cod, { form, errors: fieldErrors(parsed.error), values }, 422);
  let done: string;
  try {
    done = await act(parsed.data);
  } catch (err) {
    if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
    const errors = err instanceof ValidationError && err.errors.length ? Object.fromEntries(err.errors.map((x) => [x.path, x.message])) : undefined;
    return renderVerification(ctx, services, tipo, cod, errors ? { form, errors, values } : { form, values, message: refusal(err) }, err.status);
  }
  redirectWithFlash(ctx, `/admin/${tipo}/${encodeURIComponent(cod)}`, 'success', done);
}

export const registerConsoleActions: RegisterRoutes = (router, services) => {
  const { deps } = services;
  // Every staff member who may act on a verification reaches the command, which answers for the
  // role (a 403 shown on the page): the page explains a refusal instead of an error page.
  const writers = staff(STAFF_WRITE);
  const target = (ctx: Ctx, tipo: TipoVerifica) => ({ codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), tipo, codVerifica: ctx.params.cod_verifica! });

  for (const tipo of ['kyc', 'kyb'] as const) {
    const base = `/admin/${tipo}/:cod_verifica`;
    router.post(`${base}/transizione`, writers, (ctx) => handle(ctx, services, tipo, 'azioni', transitionForm, async (v) => {
      await transitionVerification(deps, { ...target(ctx, tipo), action: v.azione, motivo: v.motivo ?? null });
      return AZIONE_DONE[v.azione]!;
    }));
  }

  const kyb = '/admin/kyb/:cod_verifica';
  router.post(`${kyb}/controlli/:cod_check`, writers, (ctx) => handle(ctx, services, 'kyb', `check-${ctx.params.cod_check!}`, checkForm, async (v) => {
    await updateCheck(deps, { ...target(ctx, 'kyb'), codCheck: ctx.params.cod_check!, stato: v.stato, esitoNota: v.esito_nota });
    return `Esito del controllo ${ctx.params.cod_check!} registrato`;
  }));
  router.post(`${kyb}/controlli/:cod_check/deroga`, writers, (ctx) => handle(ctx, services, 'kyb', `deroga-${ctx.params.cod_check!}`, waiverForm, async (v) => {
    await updateCheck(deps, { ...target(ctx, 'kyb'), codCheck: ctx.params.cod_check!, stato: 'waived', motivoDeroga: v.motivo_deroga });
    return `Controllo ${ctx.params.cod_check!} derogato`;
  }));
  router.post(`${kyb}/profilo`, writers, (ctx) => handle(ctx, services, 'kyb', 'profilo', kybProfileSchema, async (v) => {
    await updateProfile(deps, { ...target(ctx, 'kyb'), profilo: v });
    return 'Profilo societario salvato';
  }));
};
