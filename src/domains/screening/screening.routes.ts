import { randomUUID } from 'node:crypto';
import { STAFF_READ, STAFF_WRITE } from '../../kit/roles';
import { withTenant } from '../../db/tenant';

import { tenantOf } from '../../http/auth';
import type { Ctx as ApiCtxLike } from '../../http/render';
import { notFound } from '../../http/errors';
import { recordSearchAttributes } from '../../../temporal/search-attributes';
import {
  INLINE_BATCH_LIMIT, SCREENING_BATCH_RECORD_TYPE, SCREENING_BATCH_WORKFLOW_TYPE, screeningBatchProgressQuery, screeningBatchWorkflowId, type ScreeningBatchInput,
} from '../../../workflows/screening/screening.contract';
import type { RegisterRoutes } from '../../kit/area';
import { IMPORT_READERS, IMPORTERS, importListScope, importStatus, inImportScope, runHistory, startImport } from './screening.imports';
import { assignMatch, dashboard, listMatches, matchDetail, resolveMatch } from './screening.matches';
import {
  batchInlineResponse, batchProgressResponse, batchStartedResponse, dashboardResponse, importHistoryResponse, importStartedResponse, importStatusResponse,
  matchDetailResponse, matchListResponse, subjectScreeningResponse, walletScreeningResponse,
} from './screening.responses';
import { assignSchema, batchSchema, historyQuery, listMatchesQuery, resolveSchema, subjectSchema, walletSchema } from './screening.schemas';
import { screenStoredSubject, screenSubjects, screenWallet } from './screening.service';
import { staff } from '../../kit/access';

const tag = 'Screening';
const legacy = 'Sanctions (legacy)';

/** JSON API of screening: canonical /api/v1/screening and the legacy /api/sanctions names. */
export const registerScreeningRoutes: RegisterRoutes = (router, { deps }) => {
  const user = (ctx: ApiCtxLike) => ctx.state.user!;
  const tx = <T>(ctx: ApiCtxLike, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: user(ctx).username }, fn);

  router.api({
    method: 'POST', path: '/api/v1/screening/run', summary: 'Verifica un soggetto sulle liste', tag, access: staff(STAFF_WRITE), body: subjectSchema, response: subjectScreeningResponse,
    handler: async (ctx, { body }) => (await screenSubjects(deps.db, tenantOf(ctx), user(ctx).username, [body]))[0],
  });

  router.api({
    method: 'POST', path: '/api/v1/screening/wallet', summary: 'Verifica un indirizzo wallet', tag, access: staff(STAFF_WRITE), body: walletSchema, response: walletScreeningResponse,
    handler: async (ctx, { body }) => { tenantOf(ctx); return screenWallet(deps.db, body.address); },
  });

  router.api({
    method: 'POST', path: '/api/sanctions/screen/:cod_anagrafe', summary: 'Verifica il soggetto di un codice anagrafe', tag: legacy, access: staff(STAFF_WRITE), response: subjectScreeningResponse,
    handler: async (ctx, { params }) => {
      const r = await screenStoredSubject(deps.db, tenantOf(ctx), user(ctx).username, params.cod_anagrafe!);
      if (!r) throw notFound('Soggetto', 'm');
      return r;
    },
  });

  router.api({
    method: 'POST', path: '/api/sanctions/batch-screen', summary: 'Verifica massiva (oltre 50 soggetti in un workflow)', tag: legacy, access: staff(STAFF_WRITE), body: batchSchema, response: batchInlineResponse, otherResponses: { 202: batchStartedResponse },
    handler: async (ctx, { body }) => {
      const codAzienda = tenantOf(ctx);
      if (body.subjects.length <= INLINE_BATCH_LIMIT) {
        return { mode: 'inline', results: await screenSubjects(deps.db, codAzienda, user(ctx).username, body.subjects) };
      }
      const batchId = randomUUID();
      const workflowId = screeningBatchWorkflowId(codAzienda, batchId);
      const input: ScreeningBatchInput = { codAzienda, batchId, actor: user(ctx).username, subjects: body.subjects };
      await (await deps.temporal.get()).workflow.start(SCREENING_BATCH_WORKFLOW_TYPE, {
        workflowId, taskQueue: deps.temporal.taskQueue, args: [input],
        typedSearchAttributes: recordSearchAttributes({ codAzienda, recordType: SCREENING_BATCH_RECORD_TYPE, recordId: batchId, status: 'running' }),
      });
      ctx.status = 202;
      ctx.body = { mode: 'workflow', batch_id: batchId, total: body.subjects.length, workflow_id: workflowId, workflow_url: deps.temporal.webUiLink(workflowId) };
      return undefined;
    },
  });

  router.api({
    method: 'GET', path: '/api/sanctions/batch-screen/:batch_id', summary: 'Avanzamento di una verifica massiva', tag: legacy, access: staff(STAFF_READ), response: batchProgressResponse,
    handler: async (ctx, { params }) => {
      // The workflow id carries the tenant, so another tenant's batch is simply not found.
      const workflowId = screeningBatchWorkflowId(tenantOf(ctx), params.batch_id!);
      const handle = (await deps.temporal.get()).workflow.getHandle(workflowId);
      try {
        const progress = await handle.query(screeningBatchProgressQuery);
        return { batch_id: params.batch_id, ...progress, workflow_id: workflowId, workflow_url: deps.temporal.webUiLink(workflowId) };
      } catch (err) {
        if ((err as { name?: string }).name === 'WorkflowNotFoundError') throw notFound('Verifica massiva');
        throw err;
      }
    },
  });

  for (const [path, t, summary] of [['/api/v1/screening/matches', tag, 'Elenco delle corrispondenze'], ['/api/sanctions/hits', legacy, 'Elenco delle corrispondenze (legacy)']] as const) {
    router.api({
      method: 'GET', path, summary, tag: t, access: staff(STAFF_READ), query: listMatchesQuery, response: matchListResponse,
      handler: (ctx, { query }) => tx(ctx, (trx) => listMatches(trx, tenantOf(ctx), query, user(ctx).cod_utente)),
    });
  }

  router.api({
    method: 'GET', path: '/api/v1/screening/matches/:id', summary: 'Dettaglio di una corrispondenza, con il punteggio spiegato', tag, access: staff(STAFF_READ), response: matchDetailResponse,
    handler: (ctx, { params }) => matchDetail(deps, tenantOf(ctx), user(ctx), params.id!),
  });

  router.api({
    method: 'PUT', path: '/api/v1/screening/matches/:id/assegna', summary: 'Assegna una corrispondenza', tag, access: staff(STAFF_WRITE), body: assignSchema, response: matchDetailResponse,
    handler: (ctx, { body, params }) => assignMatch(deps, tenantOf(ctx), user(ctx), params.id!, body.assegnatario),
  });

  for (const [method, path, t, autoAssign] of [
    ['PUT', '/api/v1/screening/matches/:id/risolvi', tag, false],
    ['POST', '/api/v1/admin/screening/matches/:id/risolvi', tag, false],
    ['PUT', '/api/sanctions/hits/:id/resolve', legacy, true],
  ] as const) {
    router.api({
      method, path, summary: 'Risolve una corrispondenza (quattro occhi se configurato)', tag: t, access: staff(STAFF_WRITE), body: resolveSchema, response: matchDetailResponse,
      handler: (ctx, { body, params }) => resolveMatch(deps, tenantOf(ctx), user(ctx), params.id!, body, { autoAssign }),
    });
  }

  router.api({
    method: 'GET', path: '/api/v1/screening/dashboard', summary: 'Riepilogo dello screening', tag, access: staff(STAFF_READ), response: dashboardResponse,
    handler: (ctx) => tx(ctx, (trx) => dashboard(trx)),
  });

  for (const [path, t] of [['/api/v1/screening/import', tag], ['/api/sanctions/lists/import', legacy], ['/api/v1/admin/screening/imports/trigger', tag]] as const) {
    router.api({
      method: 'POST', path, summary: 'Avvia l\'importazione delle liste e la nuova verifica dei soggetti di ogni azienda (solo superamministratore)', tag: t, access: staff(IMPORTERS), status: 202, response: importStartedResponse,
      handler: (ctx) => startImport(deps, user(ctx)),
    });
  }

  router.api({
    method: 'GET', path: '/api/v1/screening/import/stato', summary: 'Stato dell\'ultima importazione e avanzamento della nuova verifica per azienda', tag, access: staff(IMPORT_READERS), response: importStatusResponse,
    handler: (ctx) => inImportScope(deps, ctx, (trx) => importStatus(deps, trx)),
  });

  router.api({
    method: 'GET', path: '/api/v1/screening/import/storico', summary: 'Storico delle importazioni', tag, access: staff(IMPORT_READERS), query: historyQuery, response: importHistoryResponse,
    handler: (ctx, { query }) => inImportScope(deps, ctx, (trx) => runHistory(deps, trx, importListScope(ctx), query)),
  });
};
