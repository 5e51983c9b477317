import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, notFound } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { userNamesByUsername } from '../../../kit/users';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { allowedActions } from '../../../../workflows/lib/machine';
import { RELEASE_ROLES, releaseMachine } from '../../../../workflows/monitoring-release/monitoring-release.machine';
import { staffActor } from '../../../kit/actor';
import { describeMonitoringCondition } from '../monitoring.conditions';
import { TIPOLOGIA_LABELS } from '../monitoring.labels';
import { STATO_RILASCIO_LABELS, STATO_RILASCIO_TONES, STATO_RUN_LABELS, STATO_RUN_TONES } from '../evaluation/evaluation.labels';
import { findRule, ruleDetail } from '../rules/rules.repo';
import { lastClosedDay, startBacktest, DEFAULT_BACKTEST_DAYS } from '../runs/runs.commands';
import { RUN_COLUMNS, type RunRow } from '../runs/runs.repo';
import { startBacktestSchema } from '../runs/runs.schemas';
import { addDays } from '../engine/engine.dates';
import { decideRelease, releaseView, requestRelease } from './release.commands';
import { approveReleaseSchema, rejectReleaseSchema, requestReleaseSchema } from './release.schemas';

const labels = { rilascio: STATO_RILASCIO_LABELS, rilascioTone: STATO_RILASCIO_TONES, run: STATO_RUN_LABELS, runTone: STATO_RUN_TONES, tipologia: TIPOLOGIA_LABELS };
const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) => Object.fromEntries(e.issues.map((i) => [String(i.path[0] ?? 'form'), i.message]));

/**
 * /monitoraggio/regole/:id/rilascio, the rule's release page: its draft's gates (backtest of this
 * exact draft, alert volume, a second person's approval), the backtests of the draft, and the
 * forms to backtest, ask for the release, approve it or refuse it. `:id` is the rule's id or code,
 * or the id of one of its versions (a backtest's page links with it).
 */
export const registerReleasePages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);
  const body = (ctx: Ctx) => (ctx.request as unknown as { body?: Record<string, string> }).body ?? {};

  /** The rule's id from the path (rule id, rule code, or a version id). */
  const ruleOf = (ctx: Ctx) => tx(ctx, async (trx) => {
    const codAzienda = tenantOf(ctx);
    const id = ctx.params.id!;
    const rule = await findRule(trx, codAzienda, id)
      ?? (isUuid(id) ? await trx('monitoring_regole_versioni').where({ cod_azienda: codAzienda, id }).first('regola_id')
        .then((v: { regola_id: string } | undefined) => (v ? findRule(trx, codAzienda, v.regola_id) : undefined)) : undefined);
    if (!rule) throw notFound('Regola');
    return rule;
  });

  const page = async (ctx: Ctx, form: Record<string, string> = {}, errors: Record<string, string> = {}, status = 200) => {
    const rule = await ruleOf(ctx);
    const codAzienda = tenantOf(ctx);
    const user = ctx.state.user!;
    const detail = (await tx(ctx, (trx) => ruleDetail(trx, codAzienda, rule.id)))!;
    const view = detail.bozza ? await releaseView(deps, codAzienda, user.username, detail.bozza.id) : null;
    const backtests = detail.bozza ? await tx(ctx, (trx) => trx('monitoring_esecuzioni').where({ cod_azienda: codAzienda, tipo: 'backtest', versione_id: detail.bozza!.id })
      .orderBy('created_at', 'desc').limit(10).select(RUN_COLUMNS(trx)) as Promise<RunRow[]>) : [];
    const describe = (c: unknown) => { try { return describeMonitoringCondition(c as never); } catch { return null; } };
    const allowed = view?.rilascio?.stato === 'in_attesa'
      ? allowedActions(releaseMachine, 'in_attesa', staffActor(user), { richiesto_da: view.rilascio.richiesto_da }) : [];
    const al = lastClosedDay();
    const names = await tx(ctx, (trx) => userNamesByUsername(trx, [view?.rilascio?.richiesto_da_username, view?.rilascio?.deciso_da, ...backtests.map((b) => b.avviata_da)]));
    render(ctx, views, 'monitoring/release.njk', {
      rule: detail, view, backtests, allowed, labels, errors, names,
      canEdit: user.ruoli.some((r) => (RELEASE_ROLES as readonly string[]).includes(r)),
      condizioni: { bozza: detail.bozza ? describe(detail.bozza.condizione) : null, attiva: detail.attiva ? describe(detail.attiva.condizione) : null },
      form: { dal: form.dal ?? addDays(al, -(DEFAULT_BACKTEST_DAYS - 1)), al: form.al ?? al, motivazione: form.motivazione ?? '', motivazione_rifiuto: form.motivazione_rifiuto ?? '' },
    }, { status });
  };

  const base = '/monitoraggio/regole/:id/rilascio';
  router.get(base, staff(STAFF_READ), (ctx) => page(ctx));

  const act = (fn: (ctx: Ctx, raw: Record<string, string>) => Promise<string>) => async (ctx: Ctx) => {
    const raw = body(ctx);
    try {
      const message = await fn(ctx, raw);
      redirectWithFlash(ctx, `/monitoraggio/regole/${ctx.params.id}/rilascio`, 'success', message);
    } catch (err) {
      if (err instanceof ValidationFormError) return page(ctx, raw, err.errors, 422);
      if (err instanceof HttpError && [403, 409].includes(err.status)) return page(ctx, raw, { form: err.detail ?? err.message }, err.status);
      throw err;
    }
  };

  router.post(`${base}/backtest`, staff([...RELEASE_ROLES]), act(async (ctx, raw) => {
    const parsed = startBacktestSchema.safeParse({ dal: raw.dal ?? '', al: raw.al ?? '' });
    if (!parsed.success) throw new ValidationFormError(issues(parsed.error));
    const rule = await ruleOf(ctx);
    await startBacktest(deps, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, rule: rule.id, ...parsed.data });
    return 'Backtest avviato: l\'avanzamento è qui sotto';
  }));

  router.post(`${base}/richiedi`, staff([...RELEASE_ROLES]), act(async (ctx, raw) => {
    const parsed = requestReleaseSchema.safeParse({ motivazione: raw.motivazione });
    if (!parsed.success) throw new ValidationFormError(issues(parsed.error));
    const rule = await ruleOf(ctx);
    await requestRelease(deps, tenantOf(ctx), ctx.state.user!, rule.id, parsed.data.motivazione);
    return 'Messa in vigore richiesta: la approva una persona diversa da te';
  }));

  router.post(`${base}/approva`, staff(rolesFor(releaseMachine, 'approva')), act(async (ctx, raw) => {
    const parsed = approveReleaseSchema.safeParse({ motivazione: raw.motivazione });
    if (!parsed.success) throw new ValidationFormError(issues(parsed.error));
    const rule = await ruleOf(ctx);
    await decideRelease(deps, tenantOf(ctx), ctx.state.user!, rule.id, 'approva', parsed.data.motivazione);
    return 'Bozza approvata: è la versione in vigore';
  }));

  router.post(`${base}/respingi`, staff(rolesFor(releaseMachine, 'respingi')), act(async (ctx, raw) => {
    const parsed = rejectReleaseSchema.safeParse({ motivazione: raw.motivazione_rifiuto });
    if (!parsed.success) throw new ValidationFormError({ motivazione_rifiuto: parsed.error.issues[0]!.message });
    const rule = await ruleOf(ctx);
    await decideRelease(deps, tenantOf(ctx), ctx.state.user!, rule.id, 'respingi', parsed.data.motivazione);
    return 'Richiesta di messa in vigore respinta';
  }));
};

class ValidationFormError extends Error {
  constructor(readonly errors: Record<string, string>) { super('form'); }
}
