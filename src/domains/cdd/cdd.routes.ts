import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { staffActor } from '../../kit/actor';
import { rolesFor } from '../../kit/process';
import { STAFF_READ } from '../../kit/roles';
import { cddTaskMachine } from '../../../workflows/cdd/cdd-task.machine';
import { abstainCdd, initiateCdd, transitionCddTask } from './cdd-task.commands';
import {
  abstentionSchema, cddHistoryResponse, cddTaskDetailResponse, cddTaskResponse, cddTasksListResponse, completeCddSchema, initiateCddResponse, initiateCddSchema,
  listCddTasksQuery, listSchedulesQuery, schedulesListResponse, transitionCddSchema,
} from './cdd.schemas';
import { cddDeps, cddHistory, cddTaskDetail, cddTaskView, listCddSchedules, listCddTasks } from './cdd.service';

const tag = 'Adeguata verifica';
/** Who opens a task: the people who work them. */
const INITIATORS = rolesFor(cddTaskMachine, 'start');

/** JSON API of the CDD task: reads from PostgreSQL, every change through the task's workflow. */
export const registerCddRoutes: RegisterRoutes = (router, { deps }) => {
  const tx = (ctx: Parameters<typeof tenantOf>[0]) => <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
    withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.api({
    method: 'POST', path: '/api/cdd/initiate/:cod_anagrafe', summary: 'Avvia l\'adeguata verifica di un cliente (o restituisce la pratica già aperta)', tag,
    access: staff(INITIATORS), body: initiateCddSchema, response: initiateCddResponse, status: 201, otherResponses: { 200: initiateCddResponse },
    handler: async (ctx, { params, body }) => {
      const user = ctx.state.user!;
      const r = await initiateCdd(await cddDeps(deps), {
        codAzienda: tenantOf(ctx), actor: staffActor(user), codAnagrafe: params.cod_anagrafe!, motivo: body.motivo, ...(body.nota ? { nota: body.nota } : {}),
      });
      ctx.set('Location', `/api/cdd/tasks/${r.task.id}`);
      const view = { ...cddTaskView(deps, user, r.task), creata: r.created };
      if (r.created) return view;
      // The customer's open task: 200, nothing was created.
      ctx.status = 200;
      ctx.body = view;
      return undefined;
    },
  });

  router.api({
    method: 'GET', path: '/api/cdd/tasks', summary: 'Elenco delle pratiche di adeguata verifica', tag, access: staff(STAFF_READ),
    query: listCddTasksQuery, response: cddTasksListResponse,
    handler: (ctx, { query }) => tx(ctx)((trx) => listCddTasks(trx, tenantOf(ctx), query, ctx.state.user!.cod_utente)),
  });

  router.api({
    method: 'GET', path: '/api/cdd/tasks/:id', summary: 'Una pratica (per id o codice CDD-000001) con evidenze, questionari e traccia di audit', tag, access: staff(STAFF_READ),
    response: cddTaskDetailResponse,
    handler: (ctx, { params }) => tx(ctx)((trx) => cddTaskDetail(deps, trx, ctx.state.user!, params.id!)),
  });

  router.api({
    method: 'PUT', path: '/api/cdd/tasks/:id/transition', summary: 'Esegue un\'azione sulla pratica (start, add-note, review, send-back, abstain, delete, complete)', tag,
    access: staff(rolesFor(cddTaskMachine, ...cddTaskMachine.transitions.map((t) => t.action))), body: transitionCddSchema, response: cddTaskResponse,
    handler: async (ctx, { params, body }) => {
      const user = ctx.state.user!;
      const record = await transitionCddTask(await cddDeps(deps), {
        codAzienda: tenantOf(ctx), taskId: params.id!, actor: staffActor(user), action: body.azione, ...(body.nota ? { nota: body.nota } : {}),
      });
      return cddTaskView(deps, user, record);
    },
  });

  router.api({
    method: 'POST', path: '/api/cdd/tasks/:id/complete', summary: 'Completa la pratica in revisione (quattro occhi; questionario completato; EDD approvata se rafforzata)', tag,
    access: staff(rolesFor(cddTaskMachine, 'complete')), body: completeCddSchema, response: cddTaskResponse,
    handler: async (ctx, { params, body }) => {
      const user = ctx.state.user!;
      const record = await transitionCddTask(await cddDeps(deps), {
        codAzienda: tenantOf(ctx), taskId: params.id!, actor: staffActor(user), action: 'complete', ...(body.nota ? { nota: body.nota } : {}),
      });
      return cddTaskView(deps, user, record);
    },
  });

  router.api({
    method: 'POST', path: '/api/cdd/abstention/:cod_anagrafe', summary: 'Registra l\'astensione (art. 42) e propone una SOS al delegato', tag,
    access: staff(rolesFor(cddTaskMachine, 'abstain')), body: abstentionSchema, response: cddTaskResponse,
    handler: async (ctx, { params, body }) => {
      const user = ctx.state.user!;
      const record = await abstainCdd(await cddDeps(deps), { codAzienda: tenantOf(ctx), actor: staffActor(user), codAnagrafe: params.cod_anagrafe!, motivazione: body.motivazione });
      return cddTaskView(deps, user, record);
    },
  });

  router.api({
    method: 'GET', path: '/api/cdd/history/:cod_anagrafe', summary: 'Storico delle pratiche di adeguata verifica di un cliente', tag, access: staff(STAFF_READ),
    response: cddHistoryResponse,
    handler: (ctx, { params }) => tx(ctx)((trx) => cddHistory(trx, params.cod_anagrafe!)),
  });

  router.api({
    method: 'GET', path: '/api/cdd/schedules', summary: 'Verifiche periodiche in scadenza e scadute', tag, access: staff(STAFF_READ),
    query: listSchedulesQuery, response: schedulesListResponse,
    handler: (ctx, { query }) => tx(ctx)((trx) => listCddSchedules(trx, tenantOf(ctx), query)),
  });
};
