import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { testoOpzionale } from '../../http/text-field';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import { staffActor } from '../../kit/actor';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { cddTaskMachine } from '../../../workflows/cdd/cdd-task.machine';
import { STATO_LABELS } from './cdd.labels';
import { allowedFor, cddPageKit, formBody, PAGE_LABELS, peopleNames, refusalMessage } from './cdd.page-context';
import { answeredQuestions } from './cdd.page-questionnaire';
import { taskQuestionnaire } from './cdd.page-questionnaire-store';
import { screeningHits } from './cdd.page-reads';
import { cddEvidence, type CddTaskRow } from './cdd-task.repo';
import { transitionCddTask } from './cdd-task.commands';

const DECISIONS = {
  completa: { action: 'complete', label: 'Completa la verifica', hint: 'La verifica è conclusa e la prossima revisione periodica è programmata secondo la classe di rischio.', done: 'Verifica completata' },
  rimanda: { action: 'send-back', label: 'Rimanda all\'operatore', hint: 'La verifica torna in lavorazione con la tua nota.', done: 'Verifica rimandata all\'operatore' },
} as const;
type Decision = keyof typeof DECISIONS;

const decisionForm = z.object({
  decisione: z.enum(Object.keys(DECISIONS) as [Decision, ...Decision[]], { message: 'Scegli l\'esito della revisione' }),
  nota: testoOpzionale({ max: 5_000, multiline: true }),
}).refine((v) => v.decisione !== 'rimanda' || !!v.nota, { path: ['nota'], message: 'Scrivi che cosa manca: l\'operatore la leggerà' });

/** Why this user cannot decide, in words: four eyes, the completion policy, or the task's state. */
function whyNot(ctx: Ctx, t: CddTaskRow, allowed: string[]): { fourEyes?: string; noDecision: string } {
  const user = ctx.state.user!;
  if (t.stato !== 'pending_review') return { noDecision: `La verifica non è in revisione: il suo stato è «${STATO_LABELS[t.stato]}».` };
  const fourEyes = t.review_requested_by === user.cod_utente
    ? 'Hai inviato tu questa verifica in revisione: deve completarla un altro utente (principio dei quattro occhi).'
    : !allowed.includes('complete') && user.ruoli.includes('analyst') && !t.analista_puo_completare
      ? 'Per il livello di questa verifica o per la politica dell\'azienda, la completa il responsabile antiriciclaggio.'
      : undefined;
  return { ...(fourEyes ? { fourEyes } : {}), noDecision: 'Nessuna decisione disponibile per te su questa verifica.' };
}

/**
 * The reviewer's workbench: the answers, the evidence, the level and its reasons, the customer's
 * screening hits, and the decision (complete, or send back to the operator with a note). A
 * refusal of the process (four eyes above all) is shown on the page, the decision kept.
 */
export const registerCddReviewPages: RegisterRoutes = (router, services) => {
  const { views } = services;
  const { tx, loadTask, processDeps } = cddPageKit(services);
  const reviewers = staff(rolesFor(cddTaskMachine, 'complete', 'send-back'));

  const renderReview = async (ctx: Ctx, values: Record<string, unknown> = {}, errors: Record<string, string> = {}, status = 200, refusal?: { code: string; message: string }) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.codPratica!);
      const [q, evidence, hits] = await Promise.all([
        taskQuestionnaire(trx, t.id, customer.tipo_soggetto), cddEvidence(trx, t.id), screeningHits(trx, tenantOf(ctx), t.cod_anagrafe),
      ]);
      const names = await peopleNames(trx, [t.review_requested_by_username, ...evidence.map((e) => e.created_by)]);
      return { t, customer, q, evidence, hits, names };
    });
    const allowed = allowedFor(ctx, data.t);
    const decisions = (Object.entries(DECISIONS) as [Decision, (typeof DECISIONS)[Decision]][])
      .filter(([, d]) => allowed.includes(d.action)).map(([value, d]) => ({ value, label: d.label, hint: d.hint }));
    render(ctx, views, 'cdd/review.njk', {
      t: data.t, customer: data.customer, evidence: data.evidence, hits: data.hits, names: data.names, labels: PAGE_LABELS,
      questionnaire: data.q.row, answers: data.q.row ? answeredQuestions(data.q.questions, data.q.row.risposte) : [],
      decisions, values, errors, refusal, ...whyNot(ctx, data.t, allowed),
    }, { status });
  };

  router.get('/cdd/review/:codPratica', reviewers, (ctx) => renderReview(ctx));

  router.post('/cdd/review/:codPratica', reviewers, async (ctx) => {
    const body = formBody(ctx);
    const parsed = decisionForm.safeParse(body);
    if (!parsed.success) return renderReview(ctx, body, fieldErrors(parsed.error), 422);
    const d = DECISIONS[parsed.data.decisione];
    const t = await tx(ctx, async (trx) => (await loadTask(ctx, trx, ctx.params.codPratica!)).t);
    try {
      await transitionCddTask(await processDeps(), {
        codAzienda: tenantOf(ctx), taskId: t.id, actor: staffActor(ctx.state.user!), action: d.action, ...(parsed.data.nota ? { nota: parsed.data.nota } : {}),
      });
    } catch (err) {
      const refusal = refusalMessage(err);
      if (refusal && err instanceof HttpError) return renderReview(ctx, body, {}, err.status, refusal);
      throw err;
    }
    redirectWithFlash(ctx, `/cdd/${t.id}`, 'success', d.done);
  });
};
