import { z } from 'zod';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import { staffActor } from '../../kit/actor';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { STAFF_READ } from '../../kit/roles';
import type { EddTransitionArgs } from '../../../workflows/edd/edd.contract';
import { eddMachine, type EddAction } from '../../../workflows/edd/edd.machine';
import { listEdd } from './edd.repo';
import {
  closeSchema, completeStepSchema, createEddSchema, eddDetailResponse, eddListResponse, eddStepSchema, eddWriteResponse, listEddQuery, rejectSchema,
} from './edd.schemas';
import { applyEddTransition, eddDetail, openEddCase } from './edd.service';

const tag = 'Verifica rafforzata';
const empty = z.object({});

/** JSON twins of the /edd pages: reads from PostgreSQL, every change through the EDD workflow. */
export const registerEddRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'GET', path: '/api/edd', summary: 'Elenco delle verifiche rafforzate', tag, access: staff(STAFF_READ), query: listEddQuery, response: eddListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listEdd(trx, tenantOf(ctx), query, ctx.state.user!.cod_utente)),
  });

  router.api({
    method: 'POST', path: '/api/edd', summary: 'Apre una verifica rafforzata per un cliente (misure standard per i motivi)', tag,
    access: staff(rolesFor(eddMachine, 'aggiungi-step')), body: createEddSchema, response: eddWriteResponse, status: 201,
    handler: async (ctx, { body }) => {
      const { eddId, view } = await openEddCase(deps, {
        codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codAnagrafe: body.cod_anagrafe, motivi: body.motivi,
        descrizione: body.descrizione, misure: body.misure, cddPraticaId: body.cdd_pratica_id,
      });
      ctx.set('Location', `/api/edd/${eddId}`);
      return view;
    },
  });

  router.api({
    method: 'GET', path: '/api/edd/:id', summary: 'Dettaglio di una verifica rafforzata con le sue misure', tag, access: staff(STAFF_READ), response: eddDetailResponse,
    handler: async (ctx, { params }) => {
      const { audit: _audit, customer: _customer, ...d } = await eddDetail(deps, tenantOf(ctx), ctx.state.user!, params.id!);
      return d;
    },
  });

  const transition = <B extends z.ZodType>(p: { path: string; summary: string; action: EddAction; body: B; status?: number;
    args: (body: z.infer<B>, params: Record<string, string | undefined>) => Omit<EddTransitionArgs, 'actor'> }) =>
    router.api({
      method: 'POST', path: `/api/edd/:id/${p.path}`, summary: p.summary, tag, access: staff(rolesFor(eddMachine, p.action)), body: p.body, response: eddWriteResponse,
      ...(p.status ? { status: p.status } : {}),
      handler: (ctx, { body, params }) => applyEddTransition(deps, tenantOf(ctx), ctx.state.user!, params.id!, p.args(body, params)),
    });

  transition({ path: 'step', summary: 'Aggiunge una misura rafforzata', action: 'aggiungi-step', body: eddStepSchema, status: 201, args: (b) => ({ action: 'aggiungi-step', step: { id: newRecordId(), ...b } }) });
  transition({ path: 'step/:step_id/completa', summary: 'Completa una misura (esito obbligatorio)', action: 'completa-step', body: completeStepSchema,
    args: (b, params) => ({ action: 'completa-step', step_id: params.step_id!, esito: b.esito, riferimento_evidenza: b.riferimento_evidenza ?? null }) });
  transition({ path: 'approva', summary: 'Invia in approvazione (rifiutato con misure aperte)', action: 'approva', body: empty, args: () => ({ action: 'approva' }) });
  transition({ path: 'approva-supervisore', summary: 'Approvazione del supervisore (quattro occhi)', action: 'approva-supervisore', body: empty, args: () => ({ action: 'approva-supervisore' }) });
  transition({ path: 'respingi', summary: 'Respinge la verifica (motivazione obbligatoria)', action: 'respingi', body: rejectSchema, args: (b) => ({ action: 'respingi', reason: b.motivazione }) });
  transition({ path: 'chiudi', summary: 'Chiude una verifica approvata', action: 'chiudi', body: closeSchema, args: (b) => ({ action: 'chiudi', ...(b.nota ? { reason: b.nota } : {}) }) });
};
