import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { userNamesByUsername } from '../../../kit/users';
import { RULE_EDITORS } from '../monitoring.access';
import { STATO_RUN_LABELS, STATO_RUN_TONES, TIPO_RUN_LABELS } from '../evaluation/evaluation.labels';
import { cancelRun, lastClosedDay, startDaily, startReplay } from './runs.commands';
import { listRuns } from './runs.repo';
import { runDetail } from './runs.routes';
import { ruleVersionData } from './runs.backtest';
import { listRunsQuery, startDailySchema, startReplaySchema } from './runs.schemas';

const BASE = '/monitoraggio/esecuzioni';
const labels = { tipo: TIPO_RUN_LABELS, stato: STATO_RUN_LABELS, tone: STATO_RUN_TONES };
const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) => Object.fromEntries(e.issues.map((i) => [String(i.path[0] ?? 'form'), i.message]));

/**
 * /monitoraggio/esecuzioni: the runs of the monitoring engine (daily batches, replays, backtests)
 * with their progress, the replay of a stored period and the daily batch of a day again; one run
 * with its progress refreshed by htmx while it runs, and for a backtest its chart and customers.
 */
export const registerRunPages: RegisterRoutes = (router, { deps, views }) => {
  const canRun = (ctx: Ctx) => ctx.state.user!.ruoli.some((r) => RULE_EDITORS.includes(r));

  const listPage = async (ctx: Ctx, form: Record<string, string> = {}, errors: Record<string, string> = {}, status = 200) => {
    const parsed = listRunsQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listRunsQuery.parse({});
    const result = await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listRuns(trx, tenantOf(ctx), q));
    const ieri = lastClosedDay();
    render(ctx, views, 'monitoring/runs.njk', {
      result, query: ctx.query, filters: { tipo: typeof ctx.query.tipo === 'string' ? ctx.query.tipo : '' }, labels, canRun: canRun(ctx), errors,
      form: { dal: form.dal ?? '', al: form.al ?? ieri, giorno: form.giorno ?? ieri }, ieri,
    }, { status });
  };

  router.get(BASE, staff(STAFF_READ), (ctx) => listPage(ctx));

  const body = (ctx: Ctx) => (ctx.request as unknown as { body?: Record<string, string> }).body ?? {};

  router.post(`${BASE}/replay`, staff(RULE_EDITORS), async (ctx) => {
    const raw = body(ctx);
    const form = { dal: raw.dal ?? '', al: raw.al ?? '' };
    const parsed = startReplaySchema.safeParse(form);
    if (!parsed.success) return listPage(ctx, form, issues(parsed.error), 422);
    try {
      const run = await startReplay(deps, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, ...parsed.data });
      redirectWithFlash(ctx, `${BASE}/${run.id}`, 'success', 'Riesecuzione dello storico avviata');
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return listPage(ctx, form, { replay: err.detail ?? err.message }, 409);
      throw err;
    }
  });

  router.post(`${BASE}/giornaliera`, staff(RULE_EDITORS), async (ctx) => {
    const raw = body(ctx);
    const form = { giorno: raw.giorno ?? '' };
    const parsed = startDailySchema.safeParse(form);
    if (!parsed.success) return listPage(ctx, form, issues(parsed.error), 422);
    try {
      await startDaily(deps, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, giorno: parsed.data.giorno });
      redirectWithFlash(ctx, BASE, 'success', 'Elaborazione giornaliera avviata: compare qui appena pianificata');
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return listPage(ctx, form, { giorno: err.detail ?? err.message }, 409);
      throw err;
    }
  });

  router.get(`${BASE}/:id`, staff(STAFF_READ), async (ctx) => {
    const run = await runDetail(deps, ctx, ctx.params.id!);
    const chart = run.backtest ? {
      // A day a bar reads up to two months; a longer period reads as lines.
      kind: run.backtest.per_giorno.giorni.length > 62 ? 'line' : 'bar',
      categories: run.backtest.per_giorno.giorni.map((g) => `${g.slice(8, 10)}/${g.slice(5, 7)}/${g.slice(0, 4)}`),
      series: [
        { name: 'Bozza', data: run.backtest.per_giorno.bozza, tone: 'orange' },
        ...(run.attiva_id ? [{ name: 'Versione in vigore', data: run.backtest.per_giorno.attiva, tone: 'blue' }] : []),
      ],
    } : null;
    const polled = ctx.query.frammento === 'avanzamento';
    // A backtest's page names the rule and version it tried, not only "a draft".
    const regola = run.tipo === 'backtest' && run.versione_id && !polled
      ? await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => ruleVersionData(trx, tenantOf(ctx), run.versione_id!))
      : undefined;
    // The progress polls itself; what a run shows once ended (a backtest's comparison, chart and
    // customers) is outside it, so the poll that sees the end reloads the whole page.
    if (polled && run.stato !== 'running') ctx.set('HX-Refresh', 'true');
    const names = await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => userNamesByUsername(trx, [run.avviata_da]));
    render(ctx, views, 'monitoring/run.njk', { run, chart, regola, labels, names, canRun: canRun(ctx), workflowUrl: deps.temporal.webUiLink(run.workflow_id) },
      { fragment: polled ? 'monitoring/_run-progress.njk' : undefined });
  });

  router.post(`${BASE}/:id/annulla`, staff(RULE_EDITORS), async (ctx) => {
    try {
      await cancelRun(deps, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, id: ctx.params.id! });
      redirectWithFlash(ctx, `${BASE}/${ctx.params.id}`, 'success', 'Elaborazione annullata: quanto già fatto resta');
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, `${BASE}/${ctx.params.id}`, 'warning', err.detail ?? err.message);
      throw err;
    }
  });
};
