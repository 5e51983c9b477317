import { REPORT_GENERATORS, reportMachine } from '../../../workflows/reporting/reporting.machine';
import { z } from 'zod';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { REPORT_READERS } from './reporting.access';
import { listReports } from './reporting.repo';
import {
  completeSubmissionSchema, generateResponse, generateSchema, listReportsQuery, reportListResponse, reportWriteResponse, submitSchema,
} from './reporting.schemas';
import { generateReports, reportDetail, reportTx, transitionReport } from './reporting.service';

const tag = 'Segnalazioni periodiche (comunicazioni oggettive, S.AR.A.)';
const GENERATORS = [...REPORT_GENERATORS];
const emptyBody = z.object({}).strict().optional();

/** JSON API of the regulatory reports generated from the movements (docs/reporting.md). */
export const registerReportingRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'POST', path: '/api/reporting/generate', tag, status: 202, access: staff(GENERATORS), body: generateSchema, response: generateResponse,
    summary: 'Genera dai movimenti una segnalazione per mese (periodo, oppure dal/al: al massimo 24 mesi), ciascuna un processo durevole con avanzamento; 409 se un mese ha già la sua',
    handler: async (ctx, { body }) => ({ items: await generateReports(deps, tenantOf(ctx), ctx.state.user!, body) }),
  });

  router.api({
    method: 'GET', path: '/api/reporting/reports', tag, access: staff(REPORT_READERS), query: listReportsQuery, response: reportListResponse,
    summary: 'Elenco delle segnalazioni generate (filtri: tipo, stato, periodo, overdue)',
    handler: (ctx, { query }) => reportTx(deps, tenantOf(ctx), ctx.state.user!)((trx) => listReports(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'GET', path: '/api/reporting/reports/:id', tag, access: staff(REPORT_READERS), response: reportWriteResponse,
    summary: 'Dettaglio di una segnalazione con i suoi invii e le azioni consentite',
    handler: (ctx, { params }) => reportDetail(deps, tenantOf(ctx), ctx.state.user!, params.id!),
  });

  router.api({
    method: 'POST', path: '/api/reporting/reports/:id/approve', tag, access: staff(rolesFor(reportMachine, 'approve')), body: emptyBody, response: reportWriteResponse,
    summary: 'Approva (un responsabile diverso da chi ha chiesto la generazione: 403 altrimenti)',
    handler: (ctx, { params }) => transitionReport(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'approve' }),
  });

  router.api({
    method: 'POST', path: '/api/reporting/reports/:id/submit', tag, access: staff(rolesFor(reportMachine, 'submit')), body: submitSchema.optional(), response: reportWriteResponse,
    summary: 'Registra l\'invio alla UIF (riferimento del portale facoltativo): nasce un invio in attesa di esito',
    handler: (ctx, { params, body }) => transitionReport(deps, tenantOf(ctx), ctx.state.user!, params.id!, { action: 'submit', ...(body?.riferimento ? { riferimento: body.riferimento } : {}) }),
  });

  router.api({
    method: 'POST', path: '/api/reporting/reports/:id/complete-submission', tag, access: staff(rolesFor(reportMachine, 'complete-submission')), body: completeSubmissionSchema, response: reportWriteResponse,
    summary: 'Registra l\'esito di un invio: accettata completa la segnalazione, scartata la riporta ad approvata per un nuovo invio',
    handler: (ctx, { params, body }) => transitionReport(deps, tenantOf(ctx), ctx.state.user!, params.id!, {
      action: 'complete-submission', submissionId: body.submission_id, esito: body.esito,
      ...(body.protocollo ? { protocollo: body.protocollo } : {}), ...(body.note ? { note: body.note } : {}),
    }),
  });
};
