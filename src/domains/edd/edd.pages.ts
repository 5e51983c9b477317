import type { z } from 'zod';
import { withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { render, redirectWithFlash, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import { staffActor } from '../../kit/actor';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { newRecordId } from '../../kit/request-context';
import { STAFF_READ } from '../../kit/roles';
import { assignableUsers, userNames } from '../../kit/users';
import { todayInRome } from '../records';
import { EDD_MOTIVI, EDD_STEP_TIPI, type EddMotivo, type EddTransitionArgs } from '../../../workflows/edd/edd.contract';
import { eddMachine, type EddAction } from '../../../workflows/edd/edd.machine';
import {
  AZIONE_LABELS, CLASSE_RISCHIO_LABELS, MOTIVO_LABELS, REJECTION_MESSAGES, STATO_LABELS, STATO_TONES, STEP_STATO_LABELS, STEP_STATO_TONES, STEP_TIPO_LABELS,
} from './edd.labels';
import { customerNames, customerOf, listEdd, stepCounts } from './edd.repo';
import { closeSchema, completeStepSchema, createEddSchema, eddStepSchema, listEddQuery, rejectSchema, submitSchema, supervisorSchema } from './edd.schemas';
import { applyEddTransition, eddDetail, openEddCase } from './edd.service';
import { motiviForCustomer, STANDARD_STEPS, standardStepsFor } from './edd.steps';
import { eddTimeline } from './edd.timeline';

const labels = { classe: CLASSE_RISCHIO_LABELS, stato: STATO_LABELS, statoTone: STATO_TONES, motivo: MOTIVO_LABELS, stepTipo: STEP_TIPO_LABELS, stepStato: STEP_STATO_LABELS, stepStatoTone: STEP_STATO_TONES };
const opts = (values: readonly string[], l: Record<string, string>, placeholder?: string) =>
  [...(placeholder !== undefined ? [{ value: '', label: placeholder }] : []), ...values.map((v) => ({ value: v, label: l[v] ?? v }))];
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === '' ? [] : [String(v)]);

/** What a refused action shows on the page: the problem's own message, or the process's wording of its code. */
const refusal = (err: HttpError) => REJECTION_MESSAGES[err.code] ?? err.detail ?? err.title;

/** Where the form of each action has its errors shown (the detail page re-rendered next to the field). */
type FormName = 'step' | 'completa' | 'respingi' | 'chiudi' | 'azioni';
interface PageProblem { form: FormName; stepId?: string; errors?: Record<string, string>; message?: string; values?: Record<string, unknown> }

/** Staff pages for EDD cases. Without JavaScript every action is a form: post, redirect, flash; a refusal re-renders the case. */
export const registerEddPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);
  const writers = rolesFor(eddMachine, 'aggiungi-step');

  router.get('/edd', staff(STAFF_READ), async (ctx) => {
    const parsed = listEddQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listEddQuery.parse({});
    const tenant = tenantOf(ctx);
    const { result, customers, counts } = await tx(ctx, async (trx) => {
      const page = await listEdd(trx, tenant, q, ctx.state.user!.cod_utente);
      return { result: page, customers: await customerNames(trx, tenant, page.items.map((e) => e.cod_anagrafe)), counts: await stepCounts(trx, page.items.map((e) => e.id)) };
    });
    const filters = {
      q: q.q ?? '', stato: q.stato ?? '', motivo: q.motivo ?? '', cod_anagrafe: q.cod_anagrafe ?? '', aperti: q.aperti === undefined ? '' : String(q.aperti),
      da_approvare: q.da_approvare ? 'true' : '', sort: q.sort,
    };
    render(ctx, views, 'edd/list.njk', { result, customers, counts, filters, labels, canCreate: hasRole(ctx.state.user, writers), invalid: !parsed.success }, { fragment: 'edd/_table.njk' });
  });

  const renderNew = async (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) => {
    const cod = typeof values.cod_anagrafe === 'string' ? values.cod_anagrafe.trim() : '';
    const customer = cod ? await tx(ctx, (trx) => customerOf(trx, tenantOf(ctx), cod)) : undefined;
    if (cod && !customer && !errors.cod_anagrafe) errors = { ...errors, cod_anagrafe: 'Cliente non trovato in anagrafe' };
    // First visit for a customer: its own reasons ticked and the measures they call for; after a post, what was sent.
    const posted = status !== 200;
    const proposed = customer ? motiviForCustomer(customer) : [];
    const motivi = posted ? asList(values.motivi) : proposed;
    // Reasons ticked but no measure: propose the measures of those reasons (the page has no script to do it as they are ticked).
    const known = motivi.filter((m): m is EddMotivo => (EDD_MOTIVI as readonly string[]).includes(m));
    const sentMisure = posted ? asList(values.misure) : [];
    const misure = sentMisure.length ? sentMisure : standardStepsFor(known).map((s) => s.tipo);
    render(ctx, views, 'edd/new.njk', {
      values: { ...values, cod_anagrafe: cod }, errors, customer, motivi, misure, labels,
      motiviOptions: EDD_MOTIVI.map((m) => ({ value: m, label: MOTIVO_LABELS[m] })),
      misureOptions: Object.values(STANDARD_STEPS).map((s) => ({ value: s.tipo, label: STEP_TIPO_LABELS[s.tipo], titolo: s.titolo, descrizione: s.descrizione })),
    }, { status });
  };

  router.get('/edd/nuovo', staff(writers), (ctx) => renderNew(ctx, { cod_anagrafe: typeof ctx.query.cod_anagrafe === 'string' ? ctx.query.cod_anagrafe : '', cdd_pratica_id: ctx.query.cdd_pratica_id ?? '' }));

  router.post('/edd/nuovo', staff(writers), async (ctx) => {
    // An unticked checkbox group sends nothing: for this form that is an empty choice, not "use the defaults".
    const body = { motivi: '', misure: '', ...formBody(ctx) };
    const parsed = createEddSchema.safeParse(body);
    if (!parsed.success) return renderNew(ctx, body, fieldErrors(parsed.error), 422);
    let eddId: string;
    try {
      ({ eddId } = await openEddCase(deps, {
        codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codAnagrafe: parsed.data.cod_anagrafe, motivi: parsed.data.motivi,
        descrizione: parsed.data.descrizione, misure: parsed.data.misure, cddPraticaId: parsed.data.cdd_pratica_id,
      }));
    } catch (err) {
      if (err instanceof ValidationError) return renderNew(ctx, body, Object.fromEntries(err.errors.map((e) => [e.path, e.message])), 422);
      throw err;
    }
    redirectWithFlash(ctx, `/edd/${eddId}`, 'success', 'Verifica rafforzata aperta con le misure proposte');
  });

  const renderDetail = async (ctx: Ctx, id: string, problem?: PageProblem, status = 200) => {
    const d = await eddDetail(deps, tenantOf(ctx), ctx.state.user!, id);
    const [names, users, timelineItems] = await tx(ctx, async (trx) => [
      await userNames(trx, [d.opened_by, d.submitted_by, d.approved_by, d.closed_by, ...d.steps.flatMap((s) => [s.assegnatario, s.completed_by])]),
      await assignableUsers(trx, tenantOf(ctx)),
      await eddTimeline(trx, d.audit),
    ] as const);
    const diagram = await stateDiagramView(eddMachine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: STATO_LABELS, actions: AZIONE_LABELS }, title: 'Diagramma degli stati della verifica rafforzata',
    });
    const openSteps = d.steps.filter((s) => s.stato === 'aperto').length;
    // An open measure past its due date (calendar dates compared in Rome, as the page shows them).
    const today = todayInRome();
    const lateSteps = d.steps.filter((s) => s.stato === 'aperto' && s.scadenza && String(s.scadenza) < today).map((s) => s.id);
    const options = {
      tipo: opts(EDD_STEP_TIPI, STEP_TIPO_LABELS, 'Scegli…'),
      assegnatario: [{ value: '', label: 'Nessuno' }, ...users.map((u: { cod_utente: string; nome: string; cognome: string; username: string }) => ({ value: u.cod_utente, label: `${u.cognome} ${u.nome} (${u.username})` }))],
    };
    render(ctx, views, 'edd/detail.njk', {
      e: d, steps: d.steps, customer: d.customer, allowed: d.allowed_actions, openSteps, lateSteps, diagram, timelineItems, names, labels, options,
      workflow: d.workflow, problem: problem ?? null, me: ctx.state.user!.cod_utente,
    }, { status });
  };

  router.get('/edd/:id', staff(STAFF_READ), (ctx) => renderDetail(ctx, ctx.params.id!));

  /** One page action: validate the form, run the transition, come back with a message; a refusal is shown on the case with its status. */
  const action = <S extends z.ZodType>(path: string, machineAction: EddAction, form: FormName, schema: S,
    toArgs: (v: z.infer<S>, ctx: Ctx) => Omit<EddTransitionArgs, 'actor'>, done: string) =>
    router.post(`/edd/:id/${path}`, staff(rolesFor(eddMachine, machineAction)), async (ctx) => {
      const id = ctx.params.id!;
      const stepId = ctx.params.step_id;
      const body = formBody(ctx);
      const parsed = schema.safeParse(body);
      if (!parsed.success) return renderDetail(ctx, id, { form, stepId, errors: fieldErrors(parsed.error), values: body }, 422);
      try {
        await applyEddTransition(deps, tenantOf(ctx), ctx.state.user!, id, toArgs(parsed.data, ctx));
      } catch (err) {
        if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
        const errors = err instanceof ValidationError ? Object.fromEntries(err.errors.map((x) => [x.path === 'reason' ? 'motivazione' : x.path, x.message])) : undefined;
        return renderDetail(ctx, id, { form: errors ? form : 'azioni', stepId, errors, values: body, message: errors ? undefined : refusal(err) }, err.status);
      }
      redirectWithFlash(ctx, `/edd/${encodeURIComponent(id)}`, 'success', done);
    });

  action('step', 'aggiungi-step', 'step', eddStepSchema, (v) => ({ action: 'aggiungi-step', step: { id: newRecordId(), ...v } }), 'Misura aggiunta');
  action('step/:step_id/completa', 'completa-step', 'completa', completeStepSchema,
    (v, ctx) => ({ action: 'completa-step', step_id: ctx.params.step_id!, esito: v.esito, riferimento_evidenza: v.riferimento_evidenza ?? null }), 'Misura completata');
  action('approva', 'approva', 'azioni', submitSchema, () => ({ action: 'approva' }), 'Verifica inviata in approvazione: serve l\'approvazione di un responsabile antiriciclaggio diverso da te');
  action('approva-supervisore', 'approva-supervisore', 'azioni', supervisorSchema, () => ({ action: 'approva-supervisore' }), 'Verifica rafforzata approvata');
  action('respingi', 'respingi', 'respingi', rejectSchema, (v) => ({ action: 'respingi', reason: v.motivazione }), 'Verifica respinta: torna aperta per le integrazioni');
  action('chiudi', 'chiudi', 'chiudi', closeSchema, (v) => ({ action: 'chiudi', ...(v.nota ? { reason: v.nota } : {}) }), 'Verifica rafforzata chiusa');
};
