import { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { GroupCommit } from '../../../kit/group-commit';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ, type Role } from '../../../kit/roles';
import { kytAlertMachine } from '../../../../workflows/monitoring-alert/kyt-alert.machine';
import { escalateAlert } from '../alerts/alerts.escalate';
import { findAlert } from '../alerts/alerts.repo';
import { traceByCode } from '../evaluation/trace';
import { decisionTraceResponse } from '../evaluation/trace.schemas';
import { submitKytRequests } from './kyt.commands';
import { kytAlertOfDecision, listKytEvents } from './kyt.repo';
import {
  escalateKytSchema, kytEventListResponse, listKytEventsQuery, MAX_KYT_EVENTS_PER_REQUEST, submitKytEventsResponse, submitKytEventsSchema, type KytEventInput,
} from './kyt.schemas';

/** Who sends KYT events: the operators and the compliance officer (or the tenant's systems signed in as one). */
const KYT_WRITERS: Role[] = ['analyst', 'co', 'admin'];
const tag = 'KYT';

const tx = <T>(deps: Parameters<RegisterRoutes>[1]['deps'], ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

/** The KYT escalation of a decision: the alert it raised (or added to) becomes a case, as any alert's escalation. */
export async function escalateKytDecision(deps: Parameters<RegisterRoutes>[1]['deps'], ctx: Ctx, codDecisione: string, body: z.infer<typeof escalateKytSchema>) {
  const codAzienda = tenantOf(ctx);
  const alert = await tx(deps, ctx, (trx) => kytAlertOfDecision(trx, codAzienda, codDecisione));
  if (!alert) throw notFound('Alert KYT di questa decisione', 'm');
  const r = await escalateAlert(deps, codAzienda, ctx.state.user!, alert.id, body);
  const row = await tx(deps, ctx, (trx) => findAlert(trx, codAzienda, r.id));
  return { cod_decisione: codDecisione, alert: { id: row!.id, cod_alert: row!.cod_alert, stato: row!.stato }, caso: { id: r.cod_caso, url: `/casi/${r.cod_caso}` } };
}

export const registerKytRoutes: RegisterRoutes = (router, { deps }) => {
  interface Submit { codAzienda: string; actor: string; eventi: readonly KytEventInput[] }
  // Requests of one tenant and user that arrive while one of theirs is being written share the next transaction and its commit.
  const submits = new GroupCommit((_key, batch: readonly Submit[]) => submitKytRequests(deps, batch[0]!.codAzienda, batch[0]!.actor, batch.map((s) => s.eventi)),
    { maxSize: MAX_KYT_EVENTS_PER_REQUEST, sizeOf: (s) => s.eventi.length });
  router.api({
    method: 'GET', path: '/api/kyt/events', summary: 'Elenco degli eventi KYT (trasferimenti di cripto-attività dei clienti), per cliente, blockchain e periodo', tag,
    access: staff(STAFF_READ), query: listKytEventsQuery, response: kytEventListResponse,
    handler: (ctx, { query }) => tx(deps, ctx, (trx) => listKytEvents(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/kyt/events',
    summary: 'Registra uno o più eventi KYT ({ eventi: [...] }, fino a 500) e risponde con la decisione del monitoraggio su ciascuno; idempotente per blockchain, hash e direzione',
    tag, access: staff(KYT_WRITERS), body: submitKytEventsSchema, response: submitKytEventsResponse, status: 201,
    otherResponses: { 200: submitKytEventsResponse },
    handler: async (ctx, { body }) => {
      const who = { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username };
      const result = await submits.submit(`${who.codAzienda}\n${who.actor}`, { ...who, eventi: body.eventi });
      if (result.inseriti > 0) return result;
      ctx.status = 200;
      ctx.body = result;
      return undefined;
    },
  });

  router.api({
    method: 'POST', path: '/api/kyt/alerts/:codDecisione/escalate', summary: 'Escala l\'alert KYT di una decisione: apre un caso d\'indagine (lo stesso caso se ripetuta)', tag,
    access: staff(rolesFor(kytAlertMachine, 'escalate')), body: escalateKytSchema,
    response: z.object({ cod_decisione: z.string(), alert: z.object({ id: z.string(), cod_alert: z.string(), stato: z.string() }), caso: z.object({ id: z.string(), url: z.string() }) }),
    handler: (ctx, { body, params }) => escalateKytDecision(deps, ctx, params.codDecisione!, body),
  });

  router.api({
    method: 'GET', path: '/api/engine/evidence/:codDecisione', summary: 'Le evidenze di una decisione: ogni regola, se è scattata, i valori letti, le versioni di regole e liste', tag: 'Motore decisionale',
    access: staff(STAFF_READ), response: decisionTraceResponse,
    handler: async (ctx, { params }) => {
      const trace = await tx(deps, ctx, (trx) => traceByCode(trx, tenantOf(ctx), params.codDecisione!));
      if (!trace) throw notFound('Decisione');
      return trace;
    },
  });
};
