import { tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { staff } from '../../kit/access';
import { staffActor } from '../../kit/actor';
import type { AppServices, RegisterRoutes } from '../../kit/area';
import { EVIDENZA_TIPO_LABELS, STATO_LABELS } from './cdd.labels';
import { allowedFor, cddPageKit, formBody, PAGE_LABELS, peopleNames, refusalMessage } from './cdd.page-context';
import { answersFromForm, fieldName, questionViews } from './cdd.page-questionnaire';
import { saveTaskQuestionnaire, taskQuestionnaire } from './cdd.page-questionnaire-store';
import { EXECUTORS } from './cdd.page-task';
import { cddEvidence, type CddTaskRow } from './cdd-task.repo';
import { transitionCddTask } from './cdd-task.commands';

/** The question a validator's error names: `risposte.<id>`, `<id>` or the form's own name. */
const questionOf = (path: string) => path.replace(/^risposte\./, '').replace(/^q_/, '');

/** Why the form is read-only now, in words. */
function readOnlyReason(t: CddTaskRow, allowed: string[]): string {
  if (t.stato === 'open') return allowed.includes('start') ? 'Avvia la verifica dalla sua pagina per compilare il questionario.' : 'La verifica non è ancora stata avviata.';
  if (t.stato === 'pending_review') return 'La verifica è in revisione: il questionario si modifica solo se il revisore la rimanda all\'operatore.';
  return `La verifica è nello stato «${STATO_LABELS[t.stato]}»: il questionario non si modifica più.`;
}

/**
 * The execute form: the task's questionnaire drawn from its template (the questions that apply
 * to the customer's subject type), the answers checked by the questionnaire's validator with the
 * message next to each question; "Salva la bozza" keeps what is typed, "Salva e invia in
 * revisione" saves, completes the questionnaire and sends the task to review. The evidence
 * upload sits on the same page (cdd.page-evidence.ts).
 */
export interface ExecuteRenderOptions {
  typed?: Record<string, unknown>;
  errors?: Record<string, string>;
  status?: number;
  /** The evidence form after a refused upload: what was typed and the messages. */
  evidence?: { values: Record<string, unknown>; errors: Record<string, string> };
}

/** Draws the execute page of the task named by the route (:id or :codPratica). */
export function executeRenderer(services: Pick<AppServices, 'deps' | 'views'>) {
  const { views } = services;
  const { tx, loadTask } = cddPageKit(services);
  return async (ctx: Ctx, opts: ExecuteRenderOptions = {}) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.id ?? ctx.params.codPratica!);
      // One after the other: a transaction's queries share one connection.
      const q = await taskQuestionnaire(trx, t.id, customer.tipo_soggetto);
      const evidence = await cddEvidence(trx, t.id);
      return { t, customer, q, evidence, names: await peopleNames(trx, evidence.map((e) => e.created_by)) };
    });
    const allowed = allowedFor(ctx, data.t);
    const editable = isEditable(ctx, data.t);
    const questions = questionViews(data.q.questions, data.q.row?.risposte ?? {}, opts.typed, opts.errors);
    // The summary names the question, unless the message already does ("Risposta obbligatoria: Professione").
    const summary = questions.filter((q) => q.error)
      .map((q) => ({ href: `#f-${q.name}`, text: q.error!.includes(q.etichetta) ? q.error! : `${q.etichetta}: ${q.error}` }));
    if (opts.errors?._form) summary.unshift({ href: '#form-questionario', text: opts.errors._form });
    render(ctx, views, 'cdd/esegui.njk', {
      t: data.t, customer: data.customer, evidence: data.evidence, names: data.names, labels: PAGE_LABELS,
      template: data.q.template, questions, summary, editable, canSubmit: editable,
      questionnaire: data.q.row, readOnlyReason: readOnlyReason(data.t, allowed),
      canAddEvidence: editable,
      evidenceValues: opts.evidence?.values ?? {}, evidenceErrors: opts.evidence?.errors ?? {},
      options: { evidenza: [{ value: '', label: 'Scegli…' }, ...Object.entries(EVIDENZA_TIPO_LABELS).map(([value, label]) => ({ value, label }))] },
    }, { status: opts.status ?? 200 });
  };
}

/** The task may take answers and evidence now from this user: being worked, and the user may send it to review. */
export const isEditable = (ctx: Ctx, t: CddTaskRow) => t.stato === 'in_progress' && allowedFor(ctx, t).includes('review');

export const registerCddExecutePages: RegisterRoutes = (router, services) => {
  const { tx, loadTask, processDeps } = cddPageKit(services);
  const executors = staff(EXECUTORS);
  const renderExecute = executeRenderer(services);

  router.get('/cdd/:id/esegui', executors, (ctx) => renderExecute(ctx));

  router.post('/cdd/:id/esegui', executors, async (ctx) => {
    const body = formBody(ctx);
    const submit = body.azione === 'invia';
    const { t, questions } = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.id!);
      return { t, questions: (await taskQuestionnaire(trx, t.id, customer.tipo_soggetto)).questions };
    });
    const typed = Object.fromEntries(questions.map((q) => [fieldName(q.id), body[fieldName(q.id)] ?? '']));
    // The answers change only while the task is being worked, by those who may send it to review.
    if (!isEditable(ctx, t)) {
      return renderExecute(ctx, { typed, errors: { _form: readOnlyReason(t, allowedFor(ctx, t)) }, status: 409 });
    }
    const codAzienda = tenantOf(ctx);
    const user = ctx.state.user!;
    try {
      // Saved (and, to send it, completed) in one transaction; then the task moves to review through its workflow.
      await tx(ctx, (trx) => saveTaskQuestionnaire(trx, { codAzienda, actor: user.username, t, risposte: answersFromForm(questions, body), complete: submit }));
      if (submit) await transitionCddTask(await processDeps(), { codAzienda, taskId: t.id, actor: staffActor(user), action: 'review' });
    } catch (err) {
      if (err instanceof ValidationError) {
        const errors: Record<string, string> = {};
        for (const e of err.errors) errors[questionOf(e.path) || '_form'] ??= e.message;
        return renderExecute(ctx, { typed, errors, status: 422 });
      }
      const refusal = refusalMessage(err);
      if (refusal && err instanceof HttpError) return renderExecute(ctx, { typed, errors: { _form: refusal.message }, status: err.status });
      throw err;
    }
    if (submit) return redirectWithFlash(ctx, `/cdd/${t.id}`, 'success', 'Questionario completato e verifica inviata in revisione');
    redirectWithFlash(ctx, `/cdd/${t.id}/esegui`, 'success', 'Bozza del questionario salvata');
  });
};
