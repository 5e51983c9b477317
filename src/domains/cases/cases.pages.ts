import { linksFor } from '../../kit/record-links';
import type { z } from 'zod';
import { STAFF_READ, type Role } from '../../kit/roles';
import { withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { isHtmx, redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { CASE_ESITI, CASE_EVENT_TIPI, CASE_PRIORITA, CASE_TIPI, type CaseTransitionArgs } from '../../../workflows/case/case.contract';
import { caseMachine, type CaseAction } from '../../../workflows/case/case.machine';
import type { RegisterRoutes } from '../../kit/area';
import {
  AZIONE_LABELS, ESITO_LABELS, EVENTO_LABELS, PRIORITA_LABELS, PRIORITA_TONES, REJECTION_MESSAGES, STATO_LABELS, STATO_TONES, TIPO_LABELS,
} from './cases.labels';
import { listCases, readSlaDaysByPriority } from './cases.repo';
import { assignableUsers, userNames } from '../../kit/users';
import { caseTimeline } from './cases.timeline';
import { caseEventSchema, closeCaseSchema, createCaseSchema, escalateCaseSchema, listCasesQuery, reopenCaseSchema, completeClosureSchema } from './cases.schemas';
import { applyTransition, caseDetail, openCase } from './cases.service';
import { staff } from '../../kit/access';
import { rolesFor } from '../../kit/process';
import { caseCharts } from './cases.charts';

const WRITERS: Role[] = ['co', 'analyst', 'sos', 'admin'];
const labels = { stato: STATO_LABELS, statoTone: STATO_TONES, tipo: TIPO_LABELS, priorita: PRIORITA_LABELS, prioritaTone: PRIORITA_TONES, esito: ESITO_LABELS };
const opts = (values: readonly string[], l: Record<string, string>, placeholder?: string) =>
  [...(placeholder !== undefined ? [{ value: '', label: placeholder }] : []), ...values.map((v) => ({ value: v, label: l[v] ?? v }))];

/**
 * Page actions that need no input: one button each (variants: views/macros/process.njk). The
 * others have their own form. Confirming the closure ends the case for good, so it asks first.
 */
const SIMPLE: Partial<Record<CaseAction, { path: string; variant: 'primary' | 'secondary'; confirm?: { title: string; text: string; confirmLabel: string } }>> = {
  'complete-closure': {
    path: 'completa-chiusura', variant: 'primary',
    confirm: {
      title: 'Confermare la chiusura del caso?',
      text: 'Il caso passa allo stato «Chiuso» con l\'esito e la motivazione di chi ha chiesto la chiusura. Un caso chiuso non si può riaprire.',
      confirmLabel: 'Sì, chiudi il caso',
    },
  },
  reopen: { path: 'riapri', variant: 'secondary' },
};

const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/** Staff pages for cases. Without JavaScript every action is a form: post, redirect, flash. */
export const registerCasePages: RegisterRoutes = (router, { deps, views, areas }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.get('/casi', staff(STAFF_READ), async (ctx) => {
    const parsed = listCasesQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listCasesQuery.parse({});
    // Who holds each case: one lookup of the page's assignees, outside the list's own query. The charts
    // count the whole tenant, not the filtered rows; an htmx filter swaps only the table, so it does not read them.
    const { result, names, charts } = await tx(ctx, async (trx) => {
      const page = await listCases(trx, tenantOf(ctx), q, ctx.state.user!.cod_utente);
      return {
        result: page,
        names: await userNames(trx, page.items.map((c) => c.assegnatario)),
        charts: isHtmx(ctx) ? undefined : await caseCharts(trx, tenantOf(ctx)),
      };
    });
    const filters = {
      q: q.q ?? '', stato: q.stato ?? '', priorita: q.priorita ?? '', overdue: q.overdue === undefined ? '' : String(q.overdue), sort: q.sort,
      assegnatario: q.assegnatario ?? '', aperti: q.aperti === undefined ? '' : String(q.aperti),
    };
    render(ctx, views, 'casi/list.njk', { result, names, filters, labels, charts, canCreate: hasRole(ctx.state.user, WRITERS) }, { fragment: 'casi/_table.njk' });
  });

  const renderNew = async (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) => {
    const tenant = tenantOf(ctx);
    const [users, slaDays] = await tx(ctx, async (trx) => [await assignableUsers(trx, tenant), await readSlaDaysByPriority(trx, tenant)] as const);
    const options = {
      tipo: opts(CASE_TIPI, TIPO_LABELS, 'Scegli…'),
      priorita: opts(CASE_PRIORITA, PRIORITA_LABELS, 'Scegli…'),
      assegnatario: [{ value: '', label: 'Nessuno' }, ...users.map((u: { cod_utente: string; nome: string; cognome: string; username: string }) => ({ value: u.cod_utente, label: `${u.cognome} ${u.nome} (${u.username})` }))],
    };
    render(ctx, views, 'casi/new.njk', { values, errors, options, slaDays, prioritaLabels: PRIORITA_LABELS }, { status });
  };

  router.get('/casi/nuovo', staff(WRITERS), (ctx) => renderNew(ctx, { priorita: 'media', tipo: 'indagine' }));

  router.post('/casi/nuovo', staff(WRITERS), async (ctx) => {
    const body = formBody(ctx);
    const parsed = createCaseSchema.safeParse(body);
    if (!parsed.success) return renderNew(ctx, body, fieldErrors(parsed.error), 422);
    let caseId: string;
    try {
      ({ caseId } = await openCase(deps, tenantOf(ctx), ctx.state.user!, parsed.data));
    } catch (err) {
      if (err instanceof ValidationError) return renderNew(ctx, body, Object.fromEntries(err.errors.map((e) => [e.path, e.message])), 422);
      throw err;
    }
    redirectWithFlash(ctx, `/casi/${caseId}`, 'success', 'Caso aperto');
  });

  router.get('/casi/:id', staff(STAFF_READ), async (ctx) => {
    const d = await caseDetail(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    const names = await tx(ctx, (trx) => userNames(trx, [d.opened_by, d.assegnatario, d.closing_requested_by, d.closed_by]));
    const diagram = await stateDiagramView(caseMachine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: STATO_LABELS, actions: AZIONE_LABELS }, title: 'Diagramma degli stati del caso',
    });
    const timelineItems = await tx(ctx, (trx) => caseTimeline(trx, d.audit, d.events));
    const simpleActions = d.allowed_actions.filter((a) => SIMPLE[a]).map((a) => ({
      action: a, label: AZIONE_LABELS[a], url: `/casi/${d.id}/${SIMPLE[a]!.path}`, variant: SIMPLE[a]!.variant, confirm: SIMPLE[a]!.confirm,
    }));
    const options = { esito: opts(CASE_ESITI, ESITO_LABELS, 'Scegli…'), evento: opts(CASE_EVENT_TIPI, EVENTO_LABELS) };
    render(ctx, views, 'casi/detail.njk', {
      c: d, allowed: d.allowed_actions, simpleActions, diagram, timelineItems, names, labels, options, workflow: d.workflow,
      links: linksFor(areas, { kind: 'case', id: d.id, stato: d.stato, cod_anagrafe: d.cod_anagrafe ?? null }, ctx.state.user!),
    });
  });

  /** One page action: validate the form, run the transition, come back with a message. */
  const action = <S extends z.ZodType>(path: string, schema: S, toArgs: (v: z.infer<S>) => Omit<CaseTransitionArgs, 'actor'>, done: string, machineAction: CaseAction) =>
    router.post(`/casi/:id/${path}`, staff(rolesFor(caseMachine, machineAction)), async (ctx) => {
      const back = `/casi/${encodeURIComponent(ctx.params.id!)}`;
      const parsed = schema.safeParse(formBody(ctx));
      if (!parsed.success) return redirectWithFlash(ctx, back, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
      try {
        await applyTransition(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, toArgs(parsed.data));
      } catch (err) {
        // A missing case stays a 404 page; a refused transition is explained on the case itself.
        if (err instanceof HttpError && err.status !== 404 && REJECTION_MESSAGES[err.code]) {
          return redirectWithFlash(ctx, back, 'danger', REJECTION_MESSAGES[err.code]!);
        }
        if (err instanceof HttpError && err.status === 422) return redirectWithFlash(ctx, back, 'danger', REJECTION_MESSAGES.MISSING_FIELDS!);
        throw err;
      }
      redirectWithFlash(ctx, back, 'success', done);
    });

  action('chiudi', closeCaseSchema, (v) => ({ action: 'close', outcome: v.esito, reason: v.motivazione }), 'Chiusura richiesta: serve la conferma di un responsabile antiriciclaggio', 'close');
  action('escala', escalateCaseSchema, (v) => ({ action: 'escalate', reason: v.motivazione }), 'Caso escalato', 'escalate');
  action('evento', caseEventSchema, (v) => ({ action: 'add-event', event: { tipo: v.tipo, testo: v.testo } }), 'Evento aggiunto', 'add-event');
  action('completa-chiusura', completeClosureSchema, (v) => ({ action: 'complete-closure', reason: v.motivazione }), 'Caso chiuso', 'complete-closure');
  action('riapri', reopenCaseSchema, (v) => ({ action: 'reopen', reason: v.motivazione }), 'Caso riaperto', 'reopen');
};
