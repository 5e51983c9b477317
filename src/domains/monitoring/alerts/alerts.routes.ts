import { z } from 'zod';
import { tenantOf } from '../../../http/auth';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { alertMachine } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { ALERT_DELETERS } from '../monitoring.access';
import { assignAlert, closeAlert, deleteAlert, reopenAlert, tenantTx } from './alerts.commands';
import { escalateAlert } from './alerts.escalate';
import { listAlerts } from './alerts.repo';
import {
  alertDetailResponse, alertListResponse, assignAlertSchema, closeAlertSchema, createAlertSchema, deleteAlertSchema, escalateAlertSchema, listAlertsQuery, reopenAlertSchema,
} from './alerts.schemas';
import { alertDetail, createManualAlert } from './alerts.service';

const tag = 'Monitoraggio';
const detailWithAudit = alertDetailResponse.extend({
  audit: z.array(z.object({ seq: z.number().nullable(), action: z.string(), actor: z.string(), occurred_at: z.string(), data: z.record(z.string(), z.unknown()) })),
});
const closeResponse = detailWithAudit.extend({ esito_chiusura: z.enum(['closed', 'closing']) });
const escalateResponse = detailWithAudit;

/** JSON API of the alerts (docs/monitoring.md): list, one alert, and its table process's steps. */
export const registerAlertRoutes: RegisterRoutes = (router, { deps }) => {
  const user = (ctx: Ctx) => ctx.state.user!;
  const detail = (ctx: Ctx, id: string) => alertDetail(deps, tenantOf(ctx), user(ctx), id);

  router.api({
    method: 'GET', path: '/api/monitoring/alerts', summary: 'Elenco degli alert (filtri: stato, tipologia, regola, cliente, assegnatario, origine, periodo)', tag,
    access: staff(STAFF_READ), query: listAlertsQuery, response: alertListResponse,
    handler: (ctx, { query }) => tenantTx(deps, tenantOf(ctx), user(ctx), (trx) => listAlerts(trx, tenantOf(ctx), query, user(ctx).cod_utente)),
  });

  router.api({
    method: 'GET', path: '/api/kyt/alerts', summary: 'Elenco degli alert KYT (trasferimenti di cripto-attività): gli stessi filtri, origine sempre kyt', tag: 'KYT',
    access: staff(STAFF_READ), query: listAlertsQuery, response: alertListResponse,
    handler: (ctx, { query }) => tenantTx(deps, tenantOf(ctx), user(ctx), (trx) => listAlerts(trx, tenantOf(ctx), { ...query, origine: 'kyt' }, user(ctx).cod_utente)),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/alerts', summary: 'Inserisce a mano un alert su un cliente, con i movimenti che lo motivano', tag,
    access: staff(rolesFor(alertMachine, 'assign')), body: createAlertSchema, response: detailWithAudit, status: 201,
    handler: async (ctx, { body }) => {
      const raised = await createManualAlert(deps, tenantOf(ctx), user(ctx), body);
      ctx.set('Location', `/api/monitoring/alerts/${raised.id}`);
      return detail(ctx, raised.id);
    },
  });

  router.api({
    method: 'GET', path: '/api/monitoring/alerts/:id', summary: 'Dettaglio di un alert (per id o codice ALR-): evidenze, movimenti, riscontri, azioni possibili', tag,
    access: staff(STAFF_READ), response: detailWithAudit,
    handler: (ctx, { params }) => detail(ctx, params.id!),
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/alerts/:id/assign', summary: 'Assegna l\'alert', tag,
    access: staff(rolesFor(alertMachine, 'assign')), body: assignAlertSchema, response: detailWithAudit,
    handler: async (ctx, { body, params }) => detail(ctx, await assignAlert(deps, tenantOf(ctx), user(ctx), params.id!, body.assegnatario)),
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/alerts/:id/close',
    summary: 'Chiude l\'alert con una disposizione; archiviare un alert con punteggio dalla soglia in su richiede la conferma di una seconda persona (la stessa chiamata, da un\'altra persona)',
    tag, access: staff(rolesFor(alertMachine, 'close', 'propose-closure', 'confirm-closure')), body: closeAlertSchema, response: closeResponse,
    handler: async (ctx, { body, params }) => {
      const r = await closeAlert(deps, tenantOf(ctx), user(ctx), params.id!, body);
      return { ...await detail(ctx, r.id), esito_chiusura: r.outcome };
    },
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/alerts/:id/reopen', summary: 'Respinge (o ritira) la chiusura proposta: l\'alert torna in lavorazione', tag,
    access: staff(rolesFor(alertMachine, 'reopen')), body: reopenAlertSchema, response: detailWithAudit,
    handler: async (ctx, { body, params }) => detail(ctx, await reopenAlert(deps, tenantOf(ctx), user(ctx), params.id!, body.motivazione)),
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/alerts/:id/escalate', summary: 'Escala l\'alert: apre un caso d\'indagine (lo stesso caso se ripetuta) e lo collega', tag,
    access: staff(rolesFor(alertMachine, 'escalate')), body: escalateAlertSchema, response: escalateResponse,
    handler: async (ctx, { body, params }) => detail(ctx, (await escalateAlert(deps, tenantOf(ctx), user(ctx), params.id!, body)).id),
  });

  router.api({
    method: 'PUT', path: '/api/monitoring/alerts/:id/delete', summary: 'Elimina un alert nuovo o assegnato generato per errore (motivazione obbligatoria; resta nel registro di audit)', tag,
    access: staff(ALERT_DELETERS), body: deleteAlertSchema, response: z.object({ id: z.string(), eliminato: z.literal(true) }),
    handler: async (ctx, { body, params }) => ({ id: await deleteAlert(deps, tenantOf(ctx), user(ctx), params.id!, body.motivazione), eliminato: true as const }),
  });
};
