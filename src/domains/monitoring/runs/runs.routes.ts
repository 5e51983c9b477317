import { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { RULE_EDITORS } from '../monitoring.access';
import { backtestCustomers, backtestPerDay } from './runs.backtest';
import { cancelRun, loadRun, startDaily, startReplay } from './runs.commands';
import { listRuns } from './runs.repo';
import { listRunsQuery, runListResponse, runRecord, startDailySchema, startReplaySchema } from './runs.schemas';

const tag = 'Monitoraggio: elaborazioni';

const customerSide = z.object({ cod_anagrafe: z.string(), denominazione: z.string().nullable(), alert_bozza: z.number(), alert_attiva: z.number(), primo_giorno: z.string() });
export const runDetailResponse = runRecord.extend({
  backtest: z.object({
    per_giorno: z.object({ giorni: z.array(z.string()), bozza: z.array(z.number()), attiva: z.array(z.number()) }),
    solo_bozza: z.array(customerSide), solo_attiva: z.array(customerSide),
  }).nullable(),
});

/** A run with, for a backtest, its alerts per day and the customers only one side alerts. */
export async function runDetail(deps: Parameters<RegisterRoutes>[1]['deps'], ctx: Ctx, id: string) {
  const codAzienda = tenantOf(ctx);
  const run = await loadRun(deps, codAzienda, ctx.state.user!.username, id);
  if (run.tipo !== 'backtest') return { ...run, backtest: null };
  return withTenant(deps.db, { codAzienda, actor: ctx.state.user!.username }, async (trx) => ({
    ...run,
    backtest: { per_giorno: await backtestPerDay(trx, run), solo_bozza: await backtestCustomers(trx, run, 'solo_bozza'), solo_attiva: await backtestCustomers(trx, run, 'solo_attiva') },
  }));
}

/** JSON API of the monitoring runs: the daily batches, replays and backtests with their progress. */
export const registerRunRoutes: RegisterRoutes = (router, { deps }) => {
  const user = (ctx: Ctx) => ctx.state.user!;

  router.api({
    method: 'GET', path: '/api/monitoring/esecuzioni', summary: 'Le elaborazioni del monitoraggio (giornaliere, riesecuzioni, backtest), dalla più recente', tag,
    access: staff(STAFF_READ), query: listRunsQuery, response: runListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: user(ctx).username }, (trx) => listRuns(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'GET', path: '/api/monitoring/esecuzioni/:id', summary: 'Un\'elaborazione: avanzamento e riepilogo (per un backtest: alert per giorno e clienti segnalati da una sola versione)', tag,
    access: staff(STAFF_READ), response: runDetailResponse,
    handler: (ctx, { params }) => runDetail(deps, ctx, params.id!),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/esecuzioni/:id/annulla', summary: 'Ferma un\'elaborazione in corso (quanto già fatto resta)', tag,
    access: staff(RULE_EDITORS), response: runRecord,
    handler: (ctx, { params }) => cancelRun(deps, { codAzienda: tenantOf(ctx), actor: user(ctx).username, id: params.id! }),
  });

  router.api({
    method: 'POST', path: '/api/monitoring/replay',
    summary: 'Riesegue le regole in vigore su un periodo dello storico, giorno per giorno: gli alert con origine replay, datati al giorno in cui sarebbero nati', tag,
    access: staff(RULE_EDITORS), body: startReplaySchema, response: runRecord, status: 202,
    handler: async (ctx, { body }) => {
      const run = await startReplay(deps, { codAzienda: tenantOf(ctx), actor: user(ctx).username, ...body });
      ctx.set('Location', `/api/monitoring/esecuzioni/${run.id}`);
      return run;
    },
  });

  router.api({
    method: 'POST', path: '/api/monitoring/giornaliera', summary: 'Avvia (di nuovo) l\'elaborazione giornaliera di una giornata chiusa: quanto già deciso non si ripete', tag,
    access: staff(RULE_EDITORS), body: startDailySchema, response: z.object({ workflow_id: z.string() }), status: 202,
    handler: (ctx, { body }) => startDaily(deps, { codAzienda: tenantOf(ctx), actor: user(ctx).username, giorno: body.giorno }),
  });
};
