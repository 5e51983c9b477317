import type { Knex } from 'knex';
import { z } from 'zod';
import { travelRuleMachine, type TravelRuleAction } from '../../../../workflows/travel-rule/travel-rule.machine';
import { TRAVEL_RULE_HOLD_DAYS } from '../../../../workflows/travel-rule/travel-rule.contract';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { stateDiagramView } from '../../../http/state-diagram';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { STAFF_READ } from '../../../kit/roles';
import { auditTimeline } from '../../../kit/timeline';
import { userNames } from '../../../kit/users';
import { readIvms101 } from './ivms101.read';
import { decideTransfer, requireTransfer, transitionTransfer } from './travel-rule.commands';
import { cryptoAmount, TRAVEL_RULE_LABELS } from './travel-rule.labels';
import { listTransfers, transferAudit } from './travel-rule.repo';
import { completeTransferSchema, decisionSchema, listTransfersQuery } from './travel-rule.schemas';
import { selfHostedAddress, transferDetail } from './travel-rule.view';

const labels = TRAVEL_RULE_LABELS;
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const DAY_MS = 86_400_000;

/** Which form a problem belongs to, so its errors are drawn next to that form's fields. */
type FormName = 'decisione' | 'integrazione' | 'azioni';
interface PageProblem { form: FormName; errors?: Record<string, string>; ivmsErrors?: { path: string; message: string }[]; message?: string; values?: Record<string, unknown> }

/** /admin/travel-rule: the transfers and their decisions. Without JavaScript every action is a form: post, redirect, flash. */
export const registerTravelRulePages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: (trx: Knex.Transaction) => Promise<T>) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);
  const deciders = rolesFor(travelRuleMachine, 'approve', 'hold', 'return', 'reject');

  router.get('/admin/travel-rule', staff(STAFF_READ), async (ctx) => {
    const parsed = listTransfersQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listTransfersQuery.parse({});
    const result = await tx(ctx, (trx) => listTransfers(trx, tenantOf(ctx), q));
    const filters = { q: q.q ?? '', stato: q.stato ?? '', direzione: q.direzione ?? '', tipo_wallet: q.tipo_wallet ?? '', sort: q.sort };
    render(ctx, views, 'travel-rule/list.njk', { result, filters, labels, amount: cryptoAmount, invalid: !parsed.success }, { fragment: 'travel-rule/_table.njk' });
  });

  const renderDetail = async (ctx: Ctx, cod: string, problem?: PageProblem, status = 200) => {
    const row = await requireTransfer(deps.db, tenantOf(ctx), cod);
    const actor = staffActor(ctx.state.user!);
    const { d, names, timelineItems } = await tx(ctx, async (trx) => {
      const detail = await transferDetail(trx, deps.temporal, row, actor);
      const audit = await transferAudit(trx, tenantOf(ctx), row.id);
      return {
        d: detail,
        names: await userNames(trx, [row.created_by, row.screened_by, row.decided_by, ...detail.decisioni.map((x: { decided_by: string }) => x.decided_by)]),
        timelineItems: await auditTimeline(trx, audit, { states: labels.stato, detail: (a) => (a.data?.motivo ? [`Motivo: ${String(a.data.motivo)}`] : []) }),
      };
    });
    // The decisions this user may take now: the rules' (ammesse) and the machine's for their roles.
    const decisionActions: Record<string, TravelRuleAction> = { approved: 'approve', held: 'hold', returned: 'return', rejected: 'reject' };
    const decisioni = d.decisioni_ammesse.filter((x) => d.allowed_actions.includes(decisionActions[x]!));
    // The diagram and its "possible now" line show what the rules allow too, not only the machine.
    const ruled = new Set(Object.values(decisionActions));
    const allowedNow = d.allowed_actions.filter((a) => !ruled.has(a) || decisioni.some((x) => decisionActions[x] === a));
    const diagram = await stateDiagramView(travelRuleMachine, {
      current: row.stato, allowed: allowedNow, labels: { states: labels.stato, actions: labels.azione }, title: 'Diagramma degli stati del trasferimento',
    });
    const heldUntil = row.stato === 'held' && row.decided_at ? new Date(new Date(row.decided_at).getTime() + TRAVEL_RULE_HOLD_DAYS * DAY_MS) : null;
    render(ctx, views, 'travel-rule/detail.njk', {
      t: d, amount: cryptoAmount, ivms: readIvms101(row.ivms101), ivmsJson: JSON.stringify(row.ivms101, null, 2), names, timelineItems, diagram, labels, decisioni, heldUntil,
      decisioniOptions: [{ value: '', label: 'Scegli…' }, ...decisioni.map((x) => ({ value: x, label: labels.decisione[x] }))],
      indirizzoAutogestito: selfHostedAddress(row), problem: problem ?? null, canDecide: ctx.state.user!.ruoli.some((r) => (deciders as string[]).includes(r)),
    }, { status });
  };

  router.get('/admin/travel-rule/:cod_transazione', staff(STAFF_READ), (ctx) => renderDetail(ctx, ctx.params.cod_transazione!));

  /** One page action: a refusal comes back on the detail page with its status, errors next to the fields. */
  const action = <S extends z.ZodType>(path: string, roles: ReturnType<typeof rolesFor>, form: FormName, schema: S, run: (v: z.infer<S>, ctx: Ctx) => Promise<unknown>, done: string) =>
    router.post(`/admin/travel-rule/:cod_transazione/${path}`, staff(roles), async (ctx) => {
      const cod = ctx.params.cod_transazione!;
      const body = formBody(ctx);
      const parsed = schema.safeParse(body);
      if (!parsed.success) return renderDetail(ctx, cod, { form, errors: fieldErrors(parsed.error), values: body }, 422);
      try {
        await run(parsed.data, ctx);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status === 404 || err.status >= 500) throw err;
        if (err instanceof ValidationError) {
          const ivmsErrors = err.errors.filter((e) => e.path.startsWith('/ivms101'));
          const errors = Object.fromEntries(err.errors.filter((e) => !e.path.startsWith('/ivms101')).map((e) => [e.path, e.message]));
          if (ivmsErrors.length) errors.ivms101 = 'Il messaggio IVMS101 non è conforme allo schema: correggi i campi elencati';
          return renderDetail(ctx, cod, { form, errors, ivmsErrors, values: body }, err.status);
        }
        return renderDetail(ctx, cod, { form: 'azioni', message: err.detail ?? err.title, values: body }, err.status);
      }
      redirectWithFlash(ctx, `/admin/travel-rule/${encodeURIComponent(cod)}`, 'success', done);
    });

  const actor = (ctx: Ctx) => ({ codAzienda: tenantOf(ctx), actor: staffActor(ctx.state.user!), codTransazione: ctx.params.cod_transazione! });

  action('screen', rolesFor(travelRuleMachine, 'screen'), 'azioni', decisionSchema.pick({}), (_v, ctx) => transitionTransfer(deps, { ...actor(ctx), action: 'screen' }),
    'Screening eseguito: regole valutate');
  action('decisione', deciders, 'decisione', decisionSchema, (v, ctx) => decideTransfer(deps, { ...actor(ctx), decisione: v.decisione, motivo: v.motivo }), 'Decisione registrata');
  action('integrazione', rolesFor(travelRuleMachine, 'complete'), 'integrazione', integrationForm, async (v, ctx) => transitionTransfer(deps, {
    ...actor(ctx), action: 'complete', ivms101: v.ivms101 as Record<string, unknown>, ...(v.prova_controllo !== undefined ? { prova_controllo: v.prova_controllo } : {}),
    ...(v.indirizzo_originatore !== undefined ? { indirizzo_originatore: v.indirizzo_originatore } : {}),
  }), 'Dati integrati e screening ripetuto: il trasferimento può essere deciso di nuovo');
};

/**
 * The completion form: the IVMS101 payload as JSON text, the signature of the proof of control
 * (the message is the one the page shows) and the originator's self-hosted address, turned into
 * the API's shape and checked by the same schema (text that is not JSON stays text, and is refused
 * as "not a JSON object").
 */
const integrationForm = z.preprocess((raw) => {
  const body = (raw ?? {}) as Record<string, unknown>;
  const s = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : '');
  let ivms101: unknown = s('ivms101') || undefined;
  try { if (typeof ivms101 === 'string') ivms101 = JSON.parse(ivms101); } catch { /* left as text: refused below */ }
  return {
    ivms101, ...(s('firma') ? { prova_controllo: { messaggio: s('messaggio'), firma: s('firma') } } : {}),
    ...(s('indirizzo_originatore') ? { indirizzo_originatore: s('indirizzo_originatore') } : {}),
  };
}, completeTransferSchema);
