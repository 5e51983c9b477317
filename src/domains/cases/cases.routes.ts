import { STAFF_READ, type Role } from '../auth/roles';
import { withTenant } from '../../db/tenant';
import { apiRoute } from '../../http/api-route';
import { tenantOf } from '../../http/auth';
import type { RegisterRoutes } from '../index';
import { listCases } from './cases.repo';
import {
  caseDetailResponse, caseEventSchema, caseListResponse, closeCaseSchema, completeClosureSchema, createCaseSchema,
  escalateCaseSchema, listCasesQuery, reopenCaseSchema,
} from './cases.schemas';
import { applyTransition, caseDetail, openCase } from './cases.service';

const WRITERS: Role[] = ['co', 'analyst', 'sos', 'admin'];
const tag = 'Casi';

/** JSON API of cases: reads from PostgreSQL, every change through the case workflow. */
export const registerCaseRoutes: RegisterRoutes = (router, { deps, openapi }) => {
  apiRoute(router, openapi, {
    method: 'GET', path: '/api/cases', summary: 'Elenco dei casi', tag, roles: STAFF_READ, query: listCasesQuery, response: caseListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listCases(trx, query)),
  });

  apiRoute(router, openapi, {
    method: 'POST', path: '/api/cases', summary: 'Apre un caso', tag, roles: WRITERS, body: createCaseSchema, response: caseDetailResponse, status: 201,
    handler: async (ctx, { body }) => {
      const tenant = tenantOf(ctx);
      const { caseId } = await openCase(deps, tenant, ctx.state.user!, body);
      ctx.set('Location', `/api/cases/${caseId}`);
      return caseDetail(deps, tenant, ctx.state.user!, caseId);
    },
  });

  apiRoute(router, openapi, {
    method: 'GET', path: '/api/cases/:id', summary: 'Dettaglio di un caso', tag, roles: STAFF_READ, response: caseDetailResponse,
    handler: (ctx, { params }) => caseDetail(deps, tenantOf(ctx), ctx.state.user!, params.id!),
  });

  apiRoute(router, openapi, {
    method: 'PUT', path: '/api/cases/:id/close', summary: 'Chiede la chiusura (esito e motivazione)', tag, roles: WRITERS, body: closeCaseSchema, response: caseDetailResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'close', outcome: body.esito, reason: body.motivazione }),
  });

  apiRoute(router, openapi, {
    method: 'POST', path: '/api/cases/:id/complete-closure', summary: 'Conferma la chiusura (quattro occhi)', tag, roles: ['co'], body: completeClosureSchema, response: caseDetailResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'complete-closure', reason: body.motivazione }),
  });

  apiRoute(router, openapi, {
    method: 'PUT', path: '/api/cases/:id/escalate', summary: 'Escala il caso', tag, roles: WRITERS, body: escalateCaseSchema, response: caseDetailResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'escalate', reason: body.motivazione }),
  });

  apiRoute(router, openapi, {
    method: 'POST', path: '/api/cases/:id/reopen', summary: 'Riapre un caso in chiusura', tag, roles: WRITERS, body: reopenCaseSchema, response: caseDetailResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'reopen', reason: body.motivazione }),
  });

  apiRoute(router, openapi, {
    method: 'POST', path: '/api/cases/:id/events', summary: 'Aggiunge un evento al caso', tag, roles: WRITERS, body: caseEventSchema, response: caseDetailResponse, status: 201,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'add-event', event: { tipo: body.tipo, testo: body.testo } }),
  });
};

