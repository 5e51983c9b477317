import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { STAFF_READ, type Role } from '../../kit/roles';
import { answersBody, createQuestionnaireBody, domandeQuery, domandeResponse, kycProfileResponse, questionnaireResponse } from './cdd.schemas';
import {
  createQuestionnaire, getQuestionnaire, kycProfile, questionnaireView, questionsForSubject, saveQuestionnaireAnswers, submitKycProfile,
} from './kyc.service';
import { notFound } from '../../http/errors';

const tag = 'Questionari KYC';
/** Who fills in a questionnaire: the people who work the due diligence. */
const WRITERS: Role[] = ['co', 'analyst', 'admin'];

/** The KYC questionnaire API: the active template's questions, questionnaires per customer, answers checked against their template. */
export const registerKycRoutes: RegisterRoutes = (router, { deps }) => {
  const tx = (ctx: Parameters<typeof tenantOf>[0]) => <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
    withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.api({
    method: 'GET', path: '/api/kyc/domande', summary: 'Le domande del questionario attivo per un tipo di soggetto', tag, access: staff(STAFF_READ),
    query: domandeQuery, response: domandeResponse,
    handler: (ctx, { query }) => tx(ctx)((trx) => questionsForSubject(trx, query.tipo_soggetto)),
  });

  router.api({
    method: 'GET', path: '/api/kyc/anagrafe/:cod_anagrafe', summary: 'Profilo KYC del cliente (le ultime risposte)', tag, access: staff(STAFF_READ),
    response: kycProfileResponse,
    handler: (ctx, { params }) => tx(ctx)((trx) => kycProfile(trx, params.cod_anagrafe!)),
  });

  router.api({
    method: 'POST', path: '/api/kyc/anagrafe/:cod_anagrafe', summary: 'Invia le risposte KYC del cliente (tutte le domande obbligatorie)', tag, access: staff(WRITERS),
    body: answersBody, response: questionnaireResponse, status: 201,
    handler: (ctx, { params, body }) => tx(ctx)(async (trx) => {
      const q = await submitKycProfile(trx, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, codAnagrafe: params.cod_anagrafe!, risposte: body.risposte });
      return questionnaireView(trx, q);
    }),
  });

  router.api({
    method: 'POST', path: '/api/v1/questionari', summary: 'Crea un questionario dal modello attivo per un cliente (e la sua pratica)', tag, access: staff(WRITERS),
    body: createQuestionnaireBody, response: questionnaireResponse, status: 201,
    handler: (ctx, { body }) => tx(ctx)(async (trx) => {
      const q = await createQuestionnaire(trx, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, codAnagrafe: body.cod_anagrafe, cddPratica: body.cdd_pratica ?? null });
      ctx.set('Location', `/api/v1/questionari/${q.cod_questionario}`);
      return questionnaireView(trx, q);
    }),
  });

  router.api({
    method: 'GET', path: '/api/v1/questionari/:cod_questionario', summary: 'Un questionario con le sue domande e risposte', tag, access: staff(STAFF_READ),
    response: questionnaireResponse,
    handler: (ctx, { params }) => tx(ctx)(async (trx) => {
      const q = await getQuestionnaire(trx, params.cod_questionario!);
      if (!q) throw notFound('Questionario', 'm');
      return questionnaireView(trx, q);
    }),
  });

  router.api({
    method: 'POST', path: '/api/v1/questionari/:cod_questionario/risposte', summary: 'Salva risposte (controllate sul modello del questionario)', tag, access: staff(WRITERS),
    body: answersBody, response: questionnaireResponse,
    handler: (ctx, { params, body }) => tx(ctx)(async (trx) => {
      const q = await saveQuestionnaireAnswers(trx, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, codQuestionario: params.cod_questionario!, risposte: body.risposte });
      return questionnaireView(trx, q);
    }),
  });

  router.api({
    method: 'PUT', path: '/api/v1/questionari/:cod_questionario/completa', summary: 'Completa il questionario (tutte le domande obbligatorie risposte)', tag, access: staff(WRITERS),
    response: questionnaireResponse,
    handler: (ctx, { params }) => tx(ctx)(async (trx) => {
      const q = await saveQuestionnaireAnswers(trx, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, codQuestionario: params.cod_questionario!, risposte: {}, complete: true });
      return questionnaireView(trx, q);
    }),
  });
};
