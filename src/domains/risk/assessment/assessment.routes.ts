import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ, STAFF_WRITE } from '../../../kit/roles';
import type { MachineActor } from '../../../../workflows/lib/machine';
import { riskAssessmentMachine, type RiskAssessmentUserAction } from '../../../../workflows/risk/risk-assessment.machine';
import { assessmentAllowedActions, startAssessment, transitionAssessment, type TransitionInput } from './assessment.commands';
import { openCaseFromAssessment } from './assessment.case';
import { explainAssessment } from './assessment.explain';
import { assessmentHistory, getAssessment, listAssessments, type AssessmentRow } from './assessment.repo';
import {
  assessmentListResponse, assessmentViewSchema, calculateSchema, emptySchema, explainabilityResponse, historyResponse, listAssessmentsQuery,
  noteSchema, openCaseResponse, openCaseSchema, overrideSchema, startAssessmentSchema,
} from './assessment.schemas';

const tag = 'Rischio: valutazioni';
/** Who may open an investigation case (the cases area's own writers). */
const CASE_OPENERS = STAFF_WRITE;

/** The row as the API answers it: what this user may do now and the workflow behind it. */
export const assessmentView = (deps: Pick<Deps, 'temporal'>, row: AssessmentRow, actor: MachineActor) => ({
  ...row, allowed_actions: assessmentAllowedActions(row, actor), workflow: { id: row.workflow_id, url: deps.temporal.webUiLink(row.workflow_id) },
});

/** Assessments (docs/risk-assessments.md): reads from PostgreSQL, every change through the assessment's workflow. */
export const registerAssessmentRoutes: RegisterRoutes = (router, { deps }) => {
  const read = <T>(ctx: { state: { user?: { username: string } } } & object, codAzienda: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
    withTenant(deps.db, { codAzienda, actor: ctx.state.user!.username }, fn);
  const requireRow = async (ctx: Parameters<typeof read>[0], codAzienda: string, cod: string) => {
    const row = await read(ctx, codAzienda, (trx) => getAssessment(trx, codAzienda, cod));
    if (!row) throw notFound('Valutazione', 'f');
    return row;
  };
  const starters = rolesFor(riskAssessmentMachine, 'calculate');

  router.api({
    method: 'GET', path: '/api/risk/assessments', summary: 'Elenco delle valutazioni del rischio', tag, access: staff(STAFF_READ), query: listAssessmentsQuery, response: assessmentListResponse,
    handler: (ctx, { query }) => read(ctx, tenantOf(ctx), (trx) => listAssessments(trx, tenantOf(ctx), query, ctx.state.user!.cod_utente)),
  });

  router.api({
    method: 'POST', path: '/api/risk/assessments', summary: 'Avvia la valutazione del rischio di un cliente (risponde a calcolo fatto)', tag,
    access: staff(starters), body: startAssessmentSchema, response: assessmentViewSchema, status: 201,
    handler: async (ctx, { body }) => {
      const actor = staffActor(ctx.state.user!);
      const row = await startAssessment(deps, { codAzienda: tenantOf(ctx), actor, codAnagrafe: body.cod_anagrafe, motivo: body.motivo, riferimento: body.riferimento ?? null });
      ctx.set('Location', `/api/risk/assessments/${row.cod_valutazione}`);
      return assessmentView(deps, row, actor);
    },
  });

  router.api({
    method: 'POST', path: '/api/risk/calculate/:cod_anagrafe', summary: 'Calcola ora il rischio di un cliente (nuova valutazione, attende il calcolo)', tag,
    access: staff(starters), body: calculateSchema, response: assessmentViewSchema, status: 201,
    handler: async (ctx, { body, params }) => {
      const actor = staffActor(ctx.state.user!);
      // The customer is the path: one that is not the tenant's is not found.
      const customer = await read(ctx, tenantOf(ctx), (trx) => trx('anagrafe').where({ cod_azienda: tenantOf(ctx), cod_anagrafe: params.cod_anagrafe! }).first('cod_anagrafe'));
      if (!customer) throw notFound('Cliente', 'm');
      const row = await startAssessment(deps, { codAzienda: tenantOf(ctx), actor, codAnagrafe: params.cod_anagrafe!, motivo: 'manuale', riferimento: body.riferimento ?? null });
      ctx.set('Location', `/api/risk/assessments/${row.cod_valutazione}`);
      return assessmentView(deps, row, actor);
    },
  });

  router.api({
    method: 'GET', path: '/api/risk/assessments/:cod_valutazione', summary: 'Dettaglio di una valutazione del rischio', tag, access: staff(STAFF_READ), response: assessmentViewSchema,
    handler: async (ctx, { params }) => assessmentView(deps, await requireRow(ctx, tenantOf(ctx), params.cod_valutazione!), staffActor(ctx.state.user!)),
  });

  router.api({
    method: 'GET', path: '/api/risk/assessments/:cod_valutazione/explainability', summary: 'Spiegazione del punteggio: contributi, dati letti, regole, soglie e pavimento', tag,
    access: staff(STAFF_READ), response: explainabilityResponse,
    handler: async (ctx, { params }) => explainAssessment(await requireRow(ctx, tenantOf(ctx), params.cod_valutazione!)),
  });

  const transition = <B extends typeof overrideSchema | typeof noteSchema | typeof emptySchema>(p: { path: string; summary: string; action: RiskAssessmentUserAction; body: B }) =>
    router.api({
      method: 'POST', path: `/api/risk/assessments/:cod_valutazione/${p.path}`, summary: p.summary, tag,
      access: staff(rolesFor(riskAssessmentMachine, p.action)), body: p.body, response: assessmentViewSchema,
      handler: async (ctx, { body, params }) => {
        const actor = staffActor(ctx.state.user!);
        const row = await transitionAssessment(deps, { codAzienda: tenantOf(ctx), actor, codValutazione: params.cod_valutazione!, azione: p.action, input: body as TransitionInput });
        return assessmentView(deps, row, actor);
      },
    });
  transition({ path: 'override', summary: 'Modifica la classe (nuova classe, motivo, scadenza facoltativa): attende la conferma di un altro responsabile', action: 'override', body: overrideSchema });
  transition({ path: 'complete-override', summary: 'Conferma la modifica della classe (quattro occhi): la classe entra in vigore', action: 'complete-override', body: emptySchema });
  transition({ path: 'release', summary: 'Rilascia la valutazione: la sua classe diventa quella del cliente', action: 'release', body: noteSchema });
  transition({ path: 'archive', summary: 'Archivia la valutazione', action: 'archive', body: noteSchema });

  router.api({
    method: 'GET', path: '/api/risk/history/:cod_anagrafe', summary: 'Storia del rischio di un cliente: i calcoli e le valutazioni', tag, access: staff(STAFF_READ), response: historyResponse,
    handler: (ctx, { params }) => read(ctx, tenantOf(ctx), async (trx) => {
      const customer = await trx('anagrafe').where({ cod_azienda: tenantOf(ctx), cod_anagrafe: params.cod_anagrafe! }).first('cod_anagrafe');
      if (!customer) throw notFound('Cliente', 'm');
      return assessmentHistory(trx, tenantOf(ctx), params.cod_anagrafe!);
    }),
  });

  router.api({
    method: 'POST', path: '/api/risk/cases/open-from-assessment', summary: 'Apre un caso di indagine dalla valutazione (una seconda richiesta risponde lo stesso caso)', tag,
    access: staff(CASE_OPENERS), body: openCaseSchema, response: openCaseResponse, status: 201, otherResponses: { 200: openCaseResponse },
    handler: async (ctx, { body }) => {
      const r = await openCaseFromAssessment(deps, { codAzienda: tenantOf(ctx), user: ctx.state.user!, codValutazione: body.cod_valutazione, field: 'cod_valutazione', titolo: body.titolo, descrizione: body.descrizione, priorita: body.priorita });
      ctx.set('Location', `/api/cases/${r.cod_caso}`);
      if (r.created) return r;
      // The case this assessment already opened: answered, not opened again.
      ctx.status = 200;
      ctx.body = r;
      return undefined;
    },
  });
};
