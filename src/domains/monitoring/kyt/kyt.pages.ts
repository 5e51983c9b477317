import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, notFound } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { kytAlertMachine } from '../../../../workflows/monitoring-alert/kyt-alert.machine';
import { findAlert } from '../alerts/alerts.repo';
import { allowedFor } from '../alerts/alerts.service';
import { STATO_LABELS, STATO_TONES, TIPOLOGIA_LABELS } from '../monitoring.labels';
import { RISOLTO_DA_LABELS, TRACE_LABELS } from '../evaluation/evaluation.labels';
import { traceByCode, traceOfMovement } from '../evaluation/trace';
import { findKytEvent, kytAlertOfDecision } from './kyt.repo';
import { escalateKytDecision } from './kyt.routes';
import { escalateKytSchema } from './kyt.schemas';

export const kytPageLabels = { ...TRACE_LABELS, stato: STATO_LABELS, statoTone: STATO_TONES, tipologia: TIPOLOGIA_LABELS, risoltoDa: RISOLTO_DA_LABELS };

/**
 * The KYT pages (docs/monitoring.md, "KYT"): the KYT alerts, a decision's trace (any decision:
 * a KYT event's, a movement's, a closed day's) with the escalation of its KYT alert, an event, and
 * the fragment that shows a movement's decision on its page.
 */
export const registerKytPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  /** A decision's page: its trace, and (when it raised a KYT alert the user may escalate) the escalation form. */
  const decisionPage = async (ctx: Ctx, form: Record<string, string> = {}, errors: Record<string, string> = {}, status = 200) => {
    const code = ctx.params.codDecisione!;
    const codAzienda = tenantOf(ctx);
    const data = await tx(ctx, async (trx) => {
      const trace = await traceByCode(trx, codAzienda, code);
      if (!trace) return undefined;
      const ref = await kytAlertOfDecision(trx, codAzienda, code);
      const alert = ref ? await findAlert(trx, codAzienda, ref.id) : undefined;
      return { trace, alert: alert ?? null, allowed: alert ? allowedFor(alert, ctx.state.user!) : [] };
    });
    if (!data) throw notFound('Decisione');
    render(ctx, views, 'monitoring/kyt-decision.njk', { ...data, form, errors, labels: kytPageLabels }, { status });
  };

  router.get('/kyt/decision/:codDecisione', staff(STAFF_READ), (ctx) => decisionPage(ctx));

  router.post('/kyt/escalate/:codDecisione', staff(rolesFor(kytAlertMachine, 'escalate')), async (ctx) => {
    const raw = (ctx.request as unknown as { body?: Record<string, string> }).body ?? {};
    const parsed = escalateKytSchema.safeParse({ motivazione: raw.motivazione, priorita: raw.priorita ?? '' });
    const form = { motivazione: raw.motivazione ?? '', priorita: raw.priorita ?? '' };
    if (!parsed.success) return decisionPage(ctx, form, Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])), 422);
    try {
      const r = await escalateKytDecision(deps, ctx, ctx.params.codDecisione!, parsed.data);
      redirectWithFlash(ctx, `/casi/${r.caso.id}`, 'success', `Alert ${r.alert.cod_alert} escalato: è stato aperto il caso d'indagine`);
    } catch (err) {
      if (err instanceof HttpError && (err.status === 409 || err.status === 403)) return decisionPage(ctx, form, { escalation: err.detail ?? err.message }, err.status);
      throw err;
    }
  });

  router.get('/kyt/event/:codEvento', staff(STAFF_READ), async (ctx) => {
    const codAzienda = tenantOf(ctx);
    const data = await tx(ctx, async (trx) => {
      const evento = await findKytEvent(trx, codAzienda, ctx.params.codEvento!);
      if (!evento) return undefined;
      const cliente = await trx('anagrafe').where({ cod_azienda: codAzienda, cod_anagrafe: evento.cod_anagrafe }).first('cod_anagrafe', 'denominazione');
      const trace = evento.cod_decisione ? await traceByCode(trx, codAzienda, evento.cod_decisione) : undefined;
      return { evento, cliente, trace: trace ?? null };
    });
    if (!data) throw notFound('Evento KYT', 'm');
    render(ctx, views, 'monitoring/kyt-event.njk', { ...data, labels: kytPageLabels });
  });

  /** The movement's decision, as its page (/transazioni/:id) shows it: an htmx fragment, loaded on the page. */
  router.get('/transazioni/:id/decisione', staff(STAFF_READ), async (ctx) => {
    const id = ctx.params.id!;
    if (!isUuid(id)) throw notFound('Operazione');
    const codAzienda = tenantOf(ctx);
    const data = await tx(ctx, async (trx) => {
      const m = await trx('movimenti').where({ cod_azienda: codAzienda, id }).first('id', trx.raw('data_operazione::text as data_operazione'));
      if (!m) return undefined;
      return { movimento: m as { id: string; data_operazione: string }, trace: (await traceOfMovement(trx, codAzienda, id, m.data_operazione)) ?? null };
    });
    if (!data) throw notFound('Operazione');
    render(ctx, views, 'monitoring/_movement-decision.njk', { ...data, labels: kytPageLabels });
  });
};
