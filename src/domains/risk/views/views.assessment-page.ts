import type { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, notFound, ValidationError } from '../../../http/errors';
import { render, redirectWithFlash, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ, STAFF_WRITE } from '../../../kit/roles';
import { actorLabel, auditTimeline } from '../../../kit/timeline';
import { userNames } from '../../../kit/users';
import { riskAssessmentMachine, type RiskAssessmentUserAction } from '../../../../workflows/risk/risk-assessment.machine';
import {
  assessmentAllowedActions, assessmentAudit, assessmentDiagram, assessmentHistory, explainAssessment, getAssessment, openCaseFromAssessment,
  transitionAssessment, overrideSchema, type TransitionInput,
} from '../assessment';
import { REJECTION_MESSAGES } from '../assessment/assessment.labels';
import { emptySchema, noteSchema } from '../assessment/assessment.schemas';
import { CLASSI, type Classe } from '../risk.types';
import { contributionsWaterfall, scoreHistoryChart } from './views.assessment-charts';
import { CLASSE_LABELS, FAMIGLIA_LABELS, STATO_VALUTAZIONE_LABELS } from './views.labels';
import { labels } from './views.pages';

const CODE = /^VAL-[0-9]{6,}$/;
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

type FormName = 'modifica' | 'azioni';
interface PageProblem { form: FormName; errors?: Record<string, string>; message?: string; values?: Record<string, unknown> }

const numberIt = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });
/** A value a rule read, in words: yes/no, Italian numbers, lists joined. */
export function readValue(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'non disponibile';
  if (typeof v === 'boolean') return v ? 'sì' : 'no';
  if (typeof v === 'number') return numberIt.format(v);
  if (Array.isArray(v)) return v.length ? v.map(readValue).join(', ') : 'nessuno';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
export const LIVELLO_CDD_LABELS: Record<string, string> = { semplificata: 'Semplificata', ordinaria: 'Ordinaria', rafforzata: 'Rafforzata' };

/** What a refused action says on the page: the process's wording of its code, or the problem's own message. */
const refusal = (err: HttpError) => (REJECTION_MESSAGES as Record<string, string>)[err.code] ?? err.detail ?? err.title;

/**
 * One assessment's page (/rischio/VAL-000001) and its actions as forms: override (new class,
 * reason, optional expiry), confirm the override (four eyes), release, archive, open an
 * investigation case. Every action goes through the assessment's workflow (part ASSESS); a
 * refusal comes back on the page with the message, bad input next to its field.
 */
export const registerRiskAssessmentPage: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  const renderDetail = async (ctx: Ctx, cod: string, problem?: PageProblem, status = 200) => {
    const tenant = tenantOf(ctx);
    const actor = staffActor(ctx.state.user!);
    const data = await tx(ctx, async (trx) => {
      const row = await getAssessment(trx, tenant, cod);
      if (!row) return undefined;
      const customer = await trx('anagrafe').where({ cod_azienda: tenant, cod_anagrafe: row.cod_anagrafe }).first('cod_anagrafe', 'denominazione', 'tipo_soggetto', 'paese_residenza', 'stato');
      const history = await assessmentHistory(trx, tenant, row.cod_anagrafe);
      const audit = await assessmentAudit(trx, tenant, row.id);
      const timelineItems = await auditTimeline(trx, audit as never, { states: STATO_VALUTAZIONE_LABELS });
      const names = await userNames(trx, [row.override_by, row.override_confirmed_by, row.released_by, row.archived_by, row.created_by]);
      return { row, customer, history, timelineItems, names };
    });
    if (!data) throw notFound('Valutazione', 'f');
    const { row } = data;
    const allowed = assessmentAllowedActions(row, actor);
    const diagram = await assessmentDiagram(row, actor);
    const explain = explainAssessment(row);
    const waterfall = contributionsWaterfall(explain);
    const historyChart = scoreHistoryChart(data.history.punti, explain.soglie);
    // The confirm button shows to a compliance officer who proposed the override too: their click gets the four-eyes message.
    const ownOverride = row.stato === 'override_pending' && row.override_by === actor.id;
    const canOpenCase = ctx.state.user!.ruoli.some((r) => STAFF_WRITE.includes(r)) && row.stato !== 'draft';
    render(ctx, views, 'rischio/assessment.njk', {
      a: row, customer: data.customer, explain, livelli: LIVELLO_CDD_LABELS,
      contributi: explain.contributi.map((c) => ({ ...c, letti: (c.letti ?? []).map((l) => ({ path: l.path, testo: readValue(l.valore) })) })), waterfall, historyChart, history: data.history, timelineItems: data.timelineItems, names: data.names,
      // Who did each step as the timeline says it: a person's name, "Sistema" for the platform's own steps.
      chi: {
        override: actorLabel(row.override_by, data.names), confirmed: actorLabel(row.override_confirmed_by, data.names),
        released: actorLabel(row.released_by, data.names), archived: actorLabel(row.archived_by, data.names),
      },
      allowed, diagram, workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) }, labels, famiglie: FAMIGLIA_LABELS,
      classOptions: [{ value: '', label: 'Scegli…' }, ...CLASSI.map((c) => ({ value: c, label: CLASSE_LABELS[c] }))],
      ownOverride, showConfirm: allowed.includes('complete-override') || (ownOverride && rolesFor(riskAssessmentMachine, 'complete-override').some((r) => ctx.state.user!.ruoli.includes(r))),
      canOpenCase, problem: problem ?? null,
    }, { status });
  };

  router.get('/rischio/:cod', staff(STAFF_READ), async (ctx, next) => {
    // /rischio/<page> of the other parts (scenari, configurazione...) are not assessments: theirs to answer.
    if (!CODE.test(ctx.params.cod!)) return next();
    return renderDetail(ctx, ctx.params.cod!);
  });

  const action = <S extends z.ZodType>(path: string, azione: RiskAssessmentUserAction, form: FormName, schema: S, toInput: (v: z.infer<S>) => TransitionInput, done: string) =>
    router.post(`/rischio/:cod/${path}`, staff(rolesFor(riskAssessmentMachine, azione)), async (ctx) => {
      const cod = ctx.params.cod!;
      const body = formBody(ctx);
      const parsed = schema.safeParse(body);
      if (!parsed.success) return renderDetail(ctx, cod, { form, errors: fieldErrors(parsed.error), values: body }, 422);
      try {
        await transitionAssessment(deps, { codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codValutazione: cod, azione, input: toInput(parsed.data) });
      } catch (err) {
        if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
        const errors = err instanceof ValidationError ? Object.fromEntries(err.errors.map((x) => [x.path, x.message])) : undefined;
        return renderDetail(ctx, cod, { form: errors ? form : 'azioni', errors, values: body, message: errors ? undefined : refusal(err) }, err.status);
      }
      redirectWithFlash(ctx, `/rischio/${encodeURIComponent(cod)}`, 'success', done);
    });

  action('modifica', 'override', 'modifica', overrideSchema, (v) => ({ classe: v.classe as Classe, motivo: v.motivo, scadenza: v.scadenza }),
    'Modifica della classe registrata: serve la conferma di un responsabile antiriciclaggio diverso da te');
  action('conferma-modifica', 'complete-override', 'azioni', emptySchema, () => ({}), 'Modifica della classe confermata');
  action('rilascia', 'release', 'azioni', noteSchema, (v) => ({ nota: v.nota ?? null }), 'Valutazione rilasciata: la sua classe è ora quella del cliente');
  action('archivia', 'archive', 'azioni', noteSchema, (v) => ({ nota: v.nota ?? null }), 'Valutazione archiviata');

  router.post('/rischio/:cod/apri-caso', staff(STAFF_WRITE), async (ctx) => {
    const cod = ctx.params.cod!;
    try {
      const r = await openCaseFromAssessment(deps, { codAzienda: tenantOf(ctx), user: ctx.state.user!, codValutazione: cod });
      redirectWithFlash(ctx, `/casi/${encodeURIComponent(r.cod_caso)}`, 'success', r.created ? 'Caso di indagine aperto dalla valutazione' : 'La valutazione aveva già aperto questo caso');
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
      return renderDetail(ctx, cod, { form: 'azioni', message: refusal(err) }, err.status);
    }
  });
};
