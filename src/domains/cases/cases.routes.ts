import { STAFF_READ, type Role } from '../../kit/roles';
import { withTenant } from '../../db/tenant';

import { tenantOf } from '../../http/auth';
import type { RegisterRoutes } from '../../kit/area';
import { listCases } from './cases.repo';
import {
  caseDetailResponse, caseEventSchema, caseWriteResponse, caseListResponse, closeCaseSchema, completeClosureSchema, createCaseSchema,
  escalateCaseSchema, listCasesQuery, reopenCaseSchema,
} from './cases.schemas';
import { applyTransition, caseDetail, openCase } from './cases.service';
import { staff } from '../../kit/access';
import { rolesFor } from '../../kit/process';
import { caseMachine } from '../../../workflows/case/case.machine';

const WRITERS: Role[] = ['co', 'analyst', 'sos', 'admin'];
const tag = 'Casi';

/** JSON API of cases: reads from PostgreSQL, every change through the case workflow. */
export const registerCaseRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/cases', summary: 'Elenco dei casi', tag, access: staff(STAFF_READ), query: listCasesQuery, response: caseListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listCases(trx, tenantOf(ctx), query, ctx.state.user!.cod_utente)),
  });

  router.api({
    method: 'POST', path: '/api/cases', summary: 'Apre un caso', tag, access: staff(WRITERS), body: createCaseSchema, response: caseWriteResponse, status: 201,
    handler: async (ctx, { body }) => {
      const tenant = tenantOf(ctx);
      const { caseId, view } = await openCase(deps, tenant, ctx.state.user!, body);
      ctx.set('Location', `/api/cases/${caseId}`);
      return view;
    },
  });

  router.api({
    method: 'GET', path: '/api/cases/:id', summary: 'Dettaglio di un caso', tag, access: staff(STAFF_READ), response: caseDetailResponse,
    handler: (ctx, { params }) => caseDetail(deps, tenantOf(ctx), ctx.state.user!, params.id!),
  });

  router.api({
    method: 'PUT', path: '/api/cases/:id/close', summary: 'Chiede la chiusura (esito e motivazione)', tag, access: staff(rolesFor(caseMachine, 'close')), body: closeCaseSchema, response: caseWriteResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'close', outcome: body.esito, reason: body.motivazione }),
  });

  router.api({
    method: 'POST', path: '/api/cases/:id/complete-closure', summary: 'Conferma la chiusura (quattro occhi)', tag, access: staff(rolesFor(caseMachine, 'complete-closure')), body: completeClosureSchema, response: caseWriteResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'complete-closure', reason: body.motivazione }),
  });

  router.api({
    method: 'PUT', path: '/api/cases/:id/escalate', summary: 'Escala il caso', tag, access: staff(rolesFor(caseMachine, 'escalate')), body: escalateCaseSchema, response: caseWriteResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'escalate', reason: body.motivazione }),
  });

  router.api({
    method: 'POST', path: '/api/cases/:id/reopen', summary: 'Riapre un caso in chiusura', tag, access: staff(rolesFor(caseMachine, 'reopen')), body: reopenCaseSchema, response: caseWriteResponse,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'reopen', reason: body.motivazione }),
  });

  router.api({
    method: 'POST', path: '/api/cases/:id/events', summary: 'Aggiunge un evento al caso', tag, access: staff(rolesFor(caseMachine, 'add-event')), body: caseEventSchema, response: caseWriteResponse, status: 201,
    handler: (ctx, { body, params }) => applyTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'add-event', event: { tipo: body.tipo, testo: body.testo } }),
  });
};

