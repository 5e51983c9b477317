import type { Knex } from 'knex';
import { travelRuleMachine } from '../../../../workflows/travel-rule/travel-rule.machine';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import type { ApiCtx } from '../../../http/api-route';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { decideTransfer, recordTransfer, requireTransfer, transitionTransfer } from './travel-rule.commands';
import { listTransfers } from './travel-rule.repo';
import {
  completeTransferSchema, decisionSchema, listTransfersQuery, recordTransferSchema, screenSchema, transferDetailSchema, transferListResponse, transferViewSchema,
} from './travel-rule.schemas';
import { transferDetail, transferView } from './travel-rule.view';

const tag = 'Travel rule';

/** Travel-rule transfers (docs/travel-rule.md): reads from PostgreSQL, every change through the transfer's workflow. */
export const registerTravelRuleRoutes: RegisterRoutes = (router, { deps }) => {
  const read = <T>(ctx: ApiCtx, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);
  const view = (ctx: ApiCtx, row: Awaited<ReturnType<typeof requireTransfer>>) => read(ctx, (trx) => transferView(trx, deps.temporal, row, staffActor(ctx.state.user!)));
  const recorders = rolesFor(travelRuleMachine, 'screen');
  const deciders = rolesFor(travelRuleMachine, 'approve', 'hold', 'return', 'reject');

  router.api({
    method: 'GET', path: '/api/v1/travel-rule/transazioni', summary: 'Elenco dei trasferimenti di cripto-attività (travel rule)', tag,
    access: staff(STAFF_READ), query: listTransfersQuery, response: transferListResponse,
    handler: (ctx, { query }) => read(ctx, (trx) => listTransfers(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/v1/travel-rule/transazioni',
    summary: 'Registra un trasferimento con i dati IVMS101 di ordinante e beneficiario (validati sullo schema; idempotente su riferimento_esterno)', tag,
    access: staff(recorders), body: recordTransferSchema, response: transferViewSchema, status: 201, otherResponses: { 200: transferViewSchema },
    handler: async (ctx, { body }) => {
      const { record, created } = await recordTransfer(deps, { codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), input: body });
      ctx.set('Location', `/api/v1/travel-rule/transazioni/${record.cod_transazione}`);
      const answer = await view(ctx, record);
      if (created) return answer;
      // The same transfer recorded before (same reference and data): answered, not recorded again.
      ctx.status = 200;
      ctx.body = answer;
      return undefined;
    },
  });

  router.api({
    method: 'GET', path: '/api/v1/travel-rule/transazioni/:cod_transazione', summary: 'Dettaglio di un trasferimento: dati IVMS101, screening, regole e decisioni', tag,
    access: staff(STAFF_READ), response: transferDetailSchema,
    handler: async (ctx, { params }) => {
      const row = await requireTransfer(deps.db, tenantOf(ctx), params.cod_transazione!);
      return read(ctx, (trx) => transferDetail(trx, deps.temporal, row, staffActor(ctx.state.user!)));
    },
  });

  router.api({
    method: 'POST', path: '/api/v1/travel-rule/transazioni/:cod_transazione/screen', summary: 'Screening dei nomi (liste sanzioni) e degli indirizzi (indirizzi sanzionati), con la valutazione delle regole', tag,
    access: staff(recorders), body: screenSchema, response: transferViewSchema,
    handler: async (ctx, { params }) => view(ctx, await transitionTransfer(deps, {
      codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codTransazione: params.cod_transazione!, action: 'screen',
    })),
  });

  const decide = (method: 'PUT' | 'POST', path: string, summary: string) => router.api({
    method, path, summary, tag, access: staff(deciders), body: decisionSchema, response: transferViewSchema,
    handler: async (ctx, { body, params }) => view(ctx, await decideTransfer(deps, {
      codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codTransazione: params.cod_transazione!, decisione: body.decisione, motivo: body.motivo,
    })),
  });
  decide('PUT', '/api/v1/travel-rule/transazioni/:cod_transazione/decisione',
    'Decide il trasferimento (approved, held, returned, rejected; motivo obbligatorio tranne per approved): le regole ammettono la loro proposta o una decisione più severa');
  decide('POST', '/api/v1/admin/travel-rule/:cod_transazione/decisione', 'Decisione sul trasferimento dalla console di amministrazione (come PUT .../decisione)');

  router.api({
    method: 'POST', path: '/api/v1/travel-rule/transazioni/:cod_transazione/integrazione',
    summary: 'Integra un trasferimento sospeso con i dati mancanti (messaggio IVMS101 completo, prova di controllo): torna ricevuto ed è verificato di nuovo', tag,
    access: staff(rolesFor(travelRuleMachine, 'complete')), body: completeTransferSchema, response: transferViewSchema,
    handler: async (ctx, { body, params }) => view(ctx, await transitionTransfer(deps, {
      codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codTransazione: params.cod_transazione!, action: 'complete',
      ivms101: body.ivms101 as Record<string, unknown>,
      ...(body.prova_controllo !== undefined ? { prova_controllo: body.prova_controllo } : {}),
      ...(body.indirizzo_originatore !== undefined ? { indirizzo_originatore: body.indirizzo_originatore } : {}),
    })),
  });
};
