import { linksFor } from '../../kit/record-links';
import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { testo } from '../../http/text-field';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { staffActor } from '../../kit/actor';
import { STAFF_READ } from '../../kit/roles';
import { cddTaskMachine, type CddTaskAction } from '../../../workflows/cdd/cdd-task.machine';
import { AZIONE_LABELS, STATO_LABELS } from './cdd.labels';
import { allowedFor, cddPageKit, formBody, isOverdue, PAGE_LABELS, peopleNames } from './cdd.page-context';
import { questionnaireSummary } from './cdd.page-questionnaire-store';
import { cddTimeline } from './cdd.page-timeline';
import { cddEvidence, cddTaskAudit } from './cdd-task.repo';
import { transitionCddTask } from './cdd-task.commands';
import { eddCasesForCustomer, EDD_STATO_LABELS, EDD_STATO_TONES } from '../edd';

/** The steps a person takes from the task's page (the others have their own page: execute, review). */
const nota = z.object({ nota: testo({ max: 5_000, multiline: true, vuoto: 'Scrivi la nota' }) });
const abstainForm = z.object({ nota: testo({ max: 5_000, multiline: true, vuoto: 'Indica la motivazione dell\'astensione' }) });
const deleteForm = z.object({ motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica il motivo dell\'eliminazione' }) });

/** The roles that fill in the questionnaire: those that may start the task or send it to review. */
export const EXECUTORS = rolesFor(cddTaskMachine, 'start', 'review');

/**
 * The CDD task's page (summary, level and reasons, questionnaire status, evidence, timeline, the
 * state diagram and the workflow link, the buttons the machine allows this user) and its simple
 * steps: start, add a note, abstain (art. 42), delete (a task opened by mistake). Each step is a
 * form: post, then back to the task with a message.
 */
export const registerCddTaskPages: RegisterRoutes = (router, services) => {
  const { deps, views } = services;
  const { tx, loadTask, act, processDeps } = cddPageKit(services);

  router.get('/cdd/:id', staff(STAFF_READ), async (ctx) => {
    const data = await tx(ctx, async (trx) => {
      const { t, customer } = await loadTask(ctx, trx, ctx.params.id!);
      // One after the other: a transaction is one connection, which runs one query at a time (pg refuses overlapping ones).
      const audit = await cddTaskAudit(trx, t.id);
      const evidence = await cddEvidence(trx, t.id);
      const questionnaire = await questionnaireSummary(trx, t, customer.tipo_soggetto);
      const names = await peopleNames(trx, [t.created_by, t.assegnatario, t.started_by, t.review_requested_by_username, t.completed_by_username, ...evidence.map((e) => e.created_by)]);
      const timelineItems = await cddTimeline(trx, audit);
      // An enhanced task completes on an EDD case approved since it opened: the page shows the customer's cases.
      const edd = t.edd_richiesta ? (await eddCasesForCustomer(trx, t.cod_anagrafe)).slice(0, 5) : [];
      return { t, customer, evidence, questionnaire, names, timelineItems, edd };
    });
    const allowed = allowedFor(ctx, data.t);
    const diagram = await stateDiagramView(cddTaskMachine, {
      current: data.t.stato, allowed, labels: { states: STATO_LABELS, actions: AZIONE_LABELS }, title: 'Diagramma degli stati della verifica',
    });
    const simpleActions = allowed.filter((a) => a === 'start').map((a) => ({
      action: a, label: AZIONE_LABELS[a], url: `/cdd/${data.t.id}/avvia`, variant: 'primary',
    }));
    render(ctx, views, 'cdd/detail.njk', {
      ...data, allowed, eddLabels: EDD_STATO_LABELS, eddTones: EDD_STATO_TONES,
      eddApproved: data.edd.some((c) => c.approved_at && new Date(c.approved_at).getTime() >= new Date(data.t.created_at).getTime()), simpleActions, diagram, labels: PAGE_LABELS, overdue: isOverdue(data.t),
      // The questionnaire is filled in while the task is being worked, by those who work it.
      canExecute: data.t.stato === 'in_progress' && allowed.includes('review'),
      workflow: { id: data.t.workflow_id, url: deps.temporal.webUiLink(data.t.workflow_id) },
      links: linksFor(services.areas, { kind: 'cdd', id: data.t.id, stato: data.t.stato, cod_anagrafe: data.t.cod_anagrafe }, ctx.state.user!),
    });
  });

  /** One step of the machine from the task's page: the form's fields checked here, the step by the workflow. */
  const step = <S extends z.ZodType<{ nota?: string; motivazione?: string }>>(path: string, action: CddTaskAction, schema: S, done: string) =>
    router.post(`/cdd/:id/${path}`, staff(rolesFor(cddTaskMachine, action)), async (ctx: Ctx) => {
      const back = `/cdd/${encodeURIComponent(ctx.params.id!)}`;
      const parsed = schema.safeParse(formBody(ctx));
      if (!parsed.success) return redirectWithFlash(ctx, back, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
      const t = await tx(ctx, async (trx) => (await loadTask(ctx, trx, ctx.params.id!)).t);
      const text = parsed.data.nota ?? parsed.data.motivazione;
      // Once started, the next thing to do is the questionnaire.
      const next = action === 'start' ? `/cdd/${t.id}/esegui` : `/cdd/${t.id}`;
      await act(ctx, { back: `/cdd/${t.id}`, next, done }, async () => transitionCddTask(await processDeps(), {
        codAzienda: tenantOf(ctx), taskId: t.id, actor: staffActor(ctx.state.user!), action, ...(text ? { nota: text } : {}),
      }));
    });

  step('avvia', 'start', z.object({}), 'Verifica avviata: compila il questionario');
  step('nota', 'add-note', nota, 'Nota aggiunta');
  step('astensione', 'abstain', abstainForm, 'Astensione registrata: il delegato SOS è stato avvisato');
  step('elimina', 'delete', deleteForm, 'Verifica eliminata');
};
