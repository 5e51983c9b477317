import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { testoOpzionale } from '../../http/text-field';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import { staffActor } from '../../kit/actor';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { CDD_MOTIVI } from '../../../workflows/cdd/cdd-task.contract';
import { cddTaskMachine } from '../../../workflows/cdd/cdd-task.machine';
import { MOTIVO_LABELS } from './cdd.labels';
import { cddPageKit, formBody, PAGE_LABELS } from './cdd.page-context';
import { customerSummary, searchCustomers, type CustomerSummary } from './cdd.page-reads';
import { initiateCdd } from './cdd-task.commands';

/** The reasons a person starts a task for (onboarding starts its own, at approval). */
const MOTIVI_A_MANO = CDD_MOTIVI.filter((m) => m !== 'onboarding');

const newForm = z.object({
  cod_anagrafe: z.string({ message: 'Indica il cliente' }).trim().toUpperCase().min(1, 'Indica il cliente').max(64, 'Codice anagrafe non valido'),
  motivo: z.enum(MOTIVI_A_MANO as [string, ...string[]], { message: 'Scegli il motivo' }),
  nota: testoOpzionale({ max: 5_000, multiline: true }),
  // From the refresh queue: the periodic review the task answers.
  review_id: z.uuid().optional().or(z.literal('').transform(() => undefined)),
});

const searchQuery = z.string().trim().min(2, 'Scrivi almeno 2 caratteri').max(100, 'Massimo 100 caratteri');

/** Starting a CDD task for a customer, picked by code or found by name, tax code or VAT number. */
export const registerCddNewPage: RegisterRoutes = (router, services) => {
  const { views } = services;
  const { tx, processDeps } = cddPageKit(services);
  const starters = staff(rolesFor(cddTaskMachine, 'start'));
  const options = { motivo: MOTIVI_A_MANO.map((m) => ({ value: m, label: MOTIVO_LABELS[m] ?? m })) };

  const renderNew = async (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) => {
    const tenant = tenantOf(ctx);
    const rawQ = typeof ctx.query.q === 'string' ? ctx.query.q : '';
    const q = rawQ.trim() ? searchQuery.safeParse(rawQ) : undefined;
    const code = typeof values.cod_anagrafe === 'string' ? values.cod_anagrafe.trim().toUpperCase() : '';
    const { found, chosen } = await tx(ctx, async (trx) => ({
      found: q?.success ? await searchCustomers(trx, tenant, q.data) : undefined,
      chosen: code ? await customerSummary(trx, tenant, code) : undefined as CustomerSummary | undefined,
    }));
    const search = { q: rawQ, error: q && !q.success ? q.error.issues[0]!.message : undefined, results: found?.results ?? [], more: found?.more ?? false };
    render(ctx, views, 'cdd/nuovo.njk', { values, errors, options, search, chosen, labels: PAGE_LABELS }, { status });
  };

  router.get('/cdd/nuovo', starters, (ctx) => renderNew(ctx, {
    cod_anagrafe: typeof ctx.query.cod_anagrafe === 'string' ? ctx.query.cod_anagrafe : '', motivo: 'manuale',
  }));

  router.post('/cdd/nuovo', starters, async (ctx) => {
    const body = formBody(ctx);
    const parsed = newForm.safeParse(body);
    if (!parsed.success) return renderNew(ctx, body, fieldErrors(parsed.error), 422);
    const v = parsed.data;
    const tenant = tenantOf(ctx);
    const { exists, review } = await tx(ctx, async (trx) => ({
      exists: await customerSummary(trx, tenant, v.cod_anagrafe),
      // A review of this customer only (another customer's or tenant's review is not this task's origin).
      review: v.review_id ? await trx('cdd_reviews').where({ cod_azienda: tenant, id: v.review_id, cod_anagrafe: v.cod_anagrafe }).first('id', 'due_at', 'classe_rischio') : undefined,
    }));
    if (!exists) return renderNew(ctx, body, { cod_anagrafe: 'Nessun cliente con questo codice anagrafe' }, 422);
    if (v.review_id && !review) return renderNew(ctx, body, { cod_anagrafe: 'La revisione periodica indicata non è di questo cliente' }, 422);
    const { task, created } = await initiateCdd(await processDeps(), {
      codAzienda: tenant, actor: staffActor(ctx.state.user!), codAnagrafe: v.cod_anagrafe, motivo: v.motivo as (typeof CDD_MOTIVI)[number],
      ...(v.nota ? { nota: v.nota } : {}),
      // The same key as the periodic sweep's: a review starts one task, whether a person or the sweep gets there first.
      ...(review ? {
        reviewId: review.id, chiave: `revisione:${review.id}`,
        origine: { review_id: review.id, due_at: new Date(review.due_at).toISOString(), classe_rischio: review.classe_rischio },
      } : {}),
    });
    if (!created) return redirectWithFlash(ctx, `/cdd/${task.id}`, 'warning', `Il cliente ha già una verifica in corso: ${task.cod_pratica}`);
    redirectWithFlash(ctx, `/cdd/${task.id}`, 'success', `Verifica ${task.cod_pratica} avviata`);
  });
};
