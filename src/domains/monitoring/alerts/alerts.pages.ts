import type { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { hasRole, tenantOf } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { stateDiagramView } from '../../../http/state-diagram';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { assignableUsers, userNames } from '../../../kit/users';
import { linksFor } from '../../../kit/record-links';
import { CASE_PRIORITA } from '../../../../workflows/case/case.contract';
import { alertMachine, ALERT_STATES, DISPOSIZIONI, ORIGINI } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { ALERT_DELETERS } from '../monitoring.access';
import {
  AZIONE_LABELS, DISPOSIZIONE_LABELS, DISPOSIZIONE_TONES, ORIGINE_LABELS, REJECTION_MESSAGES, STATO_LABELS, STATO_TONES, TIPOLOGIA_LABELS,
} from '../monitoring.labels';
import { TIPOLOGIE } from '../monitoring.typologies';
import { assignAlert, closeAlert, DELETABLE, deleteAlert, machineFor, reopenAlert } from './alerts.commands';
import { escalateAlert, priorityForScore } from './alerts.escalate';
import { listAlerts } from './alerts.repo';
import { assignAlertSchema, closeAlertSchema, deleteAlertSchema, escalateAlertSchema, listAlertsQuery, reopenAlertSchema } from './alerts.schemas';
import { alertDetail } from './alerts.service';
import { alertTimeline } from './alerts.timeline';
import { evidenceRows } from './alerts.evidence';
import { TRACE_LABELS } from '../evaluation/evaluation.labels';
import { traceByCode } from '../evaluation/trace';

export const alertLabels = {
  stato: STATO_LABELS, statoTone: STATO_TONES, disposizione: DISPOSIZIONE_LABELS, disposizioneTone: DISPOSIZIONE_TONES, origine: ORIGINE_LABELS, tipologia: TIPOLOGIA_LABELS,
  priorita: { bassa: 'Bassa', media: 'Media', alta: 'Alta', critica: 'Critica' } as Record<string, string>,
};
const opts = (values: readonly string[], l: Record<string, string>, placeholder?: string) =>
  [...(placeholder !== undefined ? [{ value: '', label: placeholder }] : []), ...values.map((v) => ({ value: v, label: l[v] ?? v }))];
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const WRITERS = rolesFor(alertMachine, 'assign');

/** What the detail page re-renders with: a form's values and errors (which panel to keep open), or a refusal. */
interface FormState { form?: 'assegna' | 'chiudi' | 'escala' | 'riapri' | 'elimina'; values?: Record<string, unknown>; errors?: Record<string, string>; refusal?: string; status?: number }

/**
 * The alert pages (/alert): the list with its htmx table (/partials/alert-table), one alert with
 * everything behind it, and one POST per step. A refused step comes back on the alert's page with
 * the reason (409, 403) or with the message next to the field (422).
 */
export const registerAlertPages: RegisterRoutes = (router, { deps, views, areas }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  /** The list's data; the KYT page is the same list kept to the alerts raised on crypto transfers. */
  const listData = async (ctx: Ctx, kyt = false) => {
    // An unreadable filter shows the whole list, as the other list pages do.
    const parsed = listAlertsQuery.safeParse(ctx.query);
    const q = { ...(parsed.success ? parsed.data : listAlertsQuery.parse({})), ...(kyt ? { origine: 'kyt' as const } : {}) };
    const { result, names } = await tx(ctx, async (trx) => {
      const page = await listAlerts(trx, tenantOf(ctx), q, ctx.state.user!.cod_utente);
      return { result: page, names: await userNames(trx, page.items.map((a) => a.assegnatario)) };
    });
    const filters = {
      q: q.q ?? '', stato: q.stato ?? '', tipologia: q.tipologia ?? '', cod_regola: q.cod_regola ?? '', cod_anagrafe: q.cod_anagrafe ?? '',
      assegnatario: q.assegnatario ?? '', origine: q.origine ?? '', dal: q.dal ?? '', al: q.al ?? '', aperti: q.aperti === undefined ? '' : String(q.aperti), sort: q.sort,
    };
    const exportQuery = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '').map(([k, v]): [string, string] => [k, String(v)])).toString();
    return {
      result, names, filters, exportQuery, labels: alertLabels, canCreate: !kyt && hasRole(ctx.state.user, WRITERS), kyt, base: kyt ? '/kyt/alerts' : '/alert',
      options: { stato: opts(ALERT_STATES, STATO_LABELS, 'Tutti'), tipologia: opts(TIPOLOGIE, TIPOLOGIA_LABELS, 'Tutte'), origine: opts(ORIGINI, ORIGINE_LABELS, 'Tutte') },
    };
  };

  router.get('/alert', staff(STAFF_READ), async (ctx) => {
    render(ctx, views, 'alert/list.njk', await listData(ctx), { fragment: 'alert/_table.njk' });
  });

  /** The KYT alerts: the alert list of the crypto transfers (origine kyt), each opened on /alert/:id under the KYT machine. */
  router.get('/kyt/alerts', staff(STAFF_READ), async (ctx) => {
    render(ctx, views, 'alert/list.njk', await listData(ctx, true), { fragment: 'alert/_table.njk' });
  });

  /** The list's table alone (the filter form's htmx swap); the page's own address goes into the browser's history. */
  router.get('/partials/alert-table', staff(STAFF_READ), async (ctx) => {
    const data = await listData(ctx);
    ctx.set('HX-Push-Url', `/alert${data.exportQuery ? `?${data.exportQuery}` : ''}`);
    render(ctx, views, 'alert/_table.njk', data);
  });

  const showDetail = async (ctx: Ctx, id: string, f: FormState = {}) => {
    const d = await alertDetail(deps, tenantOf(ctx), ctx.state.user!, id);
    const tenant = tenantOf(ctx);
    const { users, names, timelineItems, trace } = await tx(ctx, async (trx) => {
      const n = await userNames(trx, [d.assegnatario, d.assigned_by, d.chiusura_richiesta_da, d.closed_by, d.escalated_by,
        ...d.audit.map((a: { data?: Record<string, unknown> | null }) => a.data?.assegnatario as string | undefined)]);
      // The decision behind the alert (its latest hit's): every rule and the values it read, on the alert's own page.
      const t = d.cod_decisione ? await traceByCode(trx, tenant, d.cod_decisione) : undefined;
      return { users: await assignableUsers(trx, tenant), names: n, timelineItems: await alertTimeline(trx, d.audit, n), trace: t ?? null };
    });
    const machine = machineFor(d);
    const diagram = await stateDiagramView(machine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: STATO_LABELS, actions: AZIONE_LABELS },
      title: d.origine === 'kyt' ? 'Diagramma degli stati dell\'alert KYT' : 'Diagramma degli stati dell\'alert',
    });
    const allowed = new Set(d.allowed_actions);
    const me = ctx.state.user!.cod_utente;
    render(ctx, views, 'alert/detail.njk', {
      a: d, names, diagram, timelineItems, trace, labels: { ...alertLabels, ...TRACE_LABELS }, evidenza: evidenceRows(d.evidenza),
      can: {
        assign: allowed.has('assign'), close: allowed.has('close') || allowed.has('propose-closure'), confirm: allowed.has('confirm-closure'),
        reopen: allowed.has('reopen'), escalate: allowed.has('escalate'), delete: hasRole(ctx.state.user, ALERT_DELETERS) && DELETABLE.includes(d.stato),
      },
      waitingForOther: d.stato === 'closing' && !allowed.has('confirm-closure'),
      proposedByMe: d.chiusura_richiesta_da === me,
      hitsAfterDecision: Boolean((d.closed_at || d.escalated_at) && new Date(d.ultimo_riscontro) > new Date((d.closed_at ?? d.escalated_at)!)),
      options: {
        assegnatario: users.map((u: { cod_utente: string; nome: string; cognome: string; username: string }) => ({ value: u.cod_utente, label: `${u.cognome} ${u.nome} (${u.username})` })),
        disposizione: opts(DISPOSIZIONI, DISPOSIZIONE_LABELS, 'Scegli…'),
        priorita: opts(CASE_PRIORITA, alertLabels.priorita),
      },
      defaults: { assegnatario: d.assegnatario ?? me, priorita: priorityForScore(d.punteggio), disposizione: d.stato === 'closing' ? d.disposizione : '' },
      form: f.form ?? null, values: f.values ?? {}, errors: f.errors ?? {}, refusal: f.refusal ?? null,
      links: linksFor(areas, { kind: 'alert', id: d.id, cod_alert: d.cod_alert, stato: d.stato, disposizione: d.disposizione ?? null }, ctx.state.user!),
    }, { status: f.status ?? 200 });
  };

  router.get('/alert/:id', staff(STAFF_READ), (ctx) => showDetail(ctx, ctx.params.id!));

  /** One step of the alert from its page: the form checked, the step taken, back to the alert with a message. */
  const step = <S extends z.ZodType>(path: NonNullable<FormState['form']>, roles: Parameters<typeof staff>[0], schema: S,
    run: (ctx: Ctx, id: string, v: z.infer<S>) => Promise<string>) =>
    router.post(`/alert/:id/${path}`, staff(roles), async (ctx) => {
      const id = ctx.params.id!;
      const body = formBody(ctx);
      const parsed = schema.safeParse(path === 'assegna' ? { assegnatario: body.assegnatario || ctx.state.user!.cod_utente } : body);
      if (!parsed.success) return showDetail(ctx, id, { form: path, values: body, errors: fieldErrors(parsed.error), status: 422 });
      let done: string;
      try {
        done = await run(ctx, id, parsed.data);
      } catch (err) {
        if (err instanceof ValidationError) {
          return showDetail(ctx, id, { form: path, values: body, errors: Object.fromEntries(err.errors.map((e) => [e.path || '_form', e.message])), status: 422 });
        }
        // A missing alert stays a 404 page; a refused step is explained on the alert itself.
        if (err instanceof HttpError && err.status !== 404 && err.status < 500) {
          return showDetail(ctx, id, { form: path, values: body, refusal: REJECTION_MESSAGES[err.code] ?? err.detail ?? err.title, status: err.status });
        }
        throw err;
      }
      redirectWithFlash(ctx, ctx.path.replace(/\/[^/]+$/, ''), 'success', done);
    });

  step('assegna', rolesFor(alertMachine, 'assign'), assignAlertSchema, async (ctx, id, v) => {
    await assignAlert(deps, tenantOf(ctx), ctx.state.user!, id, v.assegnatario);
    return v.assegnatario === ctx.state.user!.cod_utente ? 'Alert preso in carico' : 'Alert assegnato';
  });
  step('chiudi', rolesFor(alertMachine, 'close', 'propose-closure', 'confirm-closure'), closeAlertSchema, async (ctx, id, v) => {
    const r = await closeAlert(deps, tenantOf(ctx), ctx.state.user!, id, v);
    if (r.outcome === 'closing') return 'Chiusura proposta: serve la conferma di un responsabile antiriciclaggio o di un delegato SOS diverso da te';
    return r.sos_suggerita
      ? 'Alert chiuso come sospetto: valuta una segnalazione di operazione sospetta (i delegati SOS sono stati avvisati)'
      : 'Alert chiuso';
  });
  step('riapri', rolesFor(alertMachine, 'reopen'), reopenAlertSchema, async (ctx, id, v) => {
    await reopenAlert(deps, tenantOf(ctx), ctx.state.user!, id, v.motivazione);
    return 'Chiusura respinta: l\'alert torna in lavorazione';
  });
  step('escala', rolesFor(alertMachine, 'escalate'), escalateAlertSchema, async (ctx, id, v) => {
    await escalateAlert(deps, tenantOf(ctx), ctx.state.user!, id, v);
    return 'Alert escalato: è stato aperto un caso d\'indagine';
  });
  router.post('/alert/:id/elimina', staff(ALERT_DELETERS), async (ctx) => {
    const id = ctx.params.id!;
    const body = formBody(ctx);
    const parsed = deleteAlertSchema.safeParse(body);
    if (!parsed.success) return showDetail(ctx, id, { form: 'elimina', values: body, errors: fieldErrors(parsed.error), status: 422 });
    try {
      await deleteAlert(deps, tenantOf(ctx), ctx.state.user!, id, parsed.data.motivazione);
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return showDetail(ctx, id, { form: 'elimina', values: body, refusal: REJECTION_MESSAGES[err.code] ?? err.detail, status: 409 });
      throw err;
    }
    redirectWithFlash(ctx, '/alert', 'success', 'Alert eliminato: resta nel registro di audit');
  });
};
