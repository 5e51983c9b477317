import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { ValidationError } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { rolesFor } from '../../../kit/process';
import { alertMachine } from '../../../../workflows/monitoring-alert/monitoring-alert.machine';
import { listMovements, listMovementsQuery, SEGNO_LABELS } from '../../movements';
import { getCustomer, openRelationshipsOf } from '../../records';
import { TIPOLOGIA_LABELS } from '../monitoring.labels';
import { TIPOLOGIE } from '../monitoring.typologies';
import { createAlertSchema } from './alerts.schemas';
import { createManualAlert } from './alerts.service';

const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An alert made by hand (/alert/nuovo): the analyst names the customer, sees the customer's
 * movements (newest first, narrowed by dates), ticks the ones behind the alert, and says why.
 * Two plain forms: a GET that shows the customer's movements, a POST that raises the alert.
 */
export const registerAlertNewPage: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  const renderForm = async (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) => {
    const cod = str(values.cod_anagrafe);
    const dal = ISO_DAY.test(str(values.dal)) ? str(values.dal) : undefined;
    const al = ISO_DAY.test(str(values.al)) ? str(values.al) : undefined;
    const found = cod ? await tx(ctx, async (trx) => {
      const customer = await getCustomer(trx, cod);
      if (!customer) return undefined;
      const q = listMovementsQuery.parse({ cod_anagrafe: cod, ...(dal ? { dal } : {}), ...(al ? { al } : {}), limit: 100 });
      return { customer, movements: (await listMovements(trx, tenantOf(ctx), q)).items, rapporti: await openRelationshipsOf(trx, cod) };
    }) : undefined;
    // An operation is named by its place among the ticked ones: its message goes above the list.
    const lookupErrors = Object.fromEntries(Object.entries(errors).map(([k, m]) => [/^movimenti\.\d+$/.test(k) ? 'movimenti' : k, m]));
    if (cod && !found && !lookupErrors.cod_anagrafe) lookupErrors.cod_anagrafe = 'Cliente non trovato in questa azienda';
    const rapporti = [...new Set([...(found?.rapporti ?? []), ...(found?.movements ?? []).map((m) => m.cod_rapporto)])].sort();
    render(ctx, views, 'alert/nuovo.njk', {
      values: { punteggio: '50', ...values, dal: dal ?? '', al: al ?? '' }, errors: lookupErrors, picked: asList(values.movimenti),
      customer: found?.customer ?? null, movements: found?.movements ?? [], segno: SEGNO_LABELS,
      options: {
        tipologia: [{ value: '', label: 'Scegli…' }, ...TIPOLOGIE.map((t) => ({ value: t, label: TIPOLOGIA_LABELS[t] }))],
        rapporto: [{ value: '', label: 'Nessun rapporto in particolare' }, ...rapporti.map((r) => ({ value: r, label: r }))],
      },
    }, { status });
  };

  router.get('/alert/nuovo', staff(rolesFor(alertMachine, 'assign')), (ctx) => renderForm(ctx, ctx.query as Record<string, unknown>));

  router.post('/alert/nuovo', staff(rolesFor(alertMachine, 'assign')), async (ctx) => {
    const body = formBody(ctx);
    const input = {
      cod_anagrafe: body.cod_anagrafe, cod_rapporto: body.cod_rapporto ?? '', tipologia: body.tipologia, punteggio: body.punteggio, motivazione: body.motivazione,
      movimenti: asList(body.movimenti), finestra_da: body.finestra_da ?? '', finestra_a: body.finestra_a ?? '',
    };
    const parsed = createAlertSchema.safeParse(input);
    if (!parsed.success) return renderForm(ctx, body, fieldErrors(parsed.error), 422);
    let id: string;
    try {
      ({ id } = await createManualAlert(deps, tenantOf(ctx), ctx.state.user!, parsed.data));
    } catch (err) {
      if (err instanceof ValidationError) {
        return renderForm(ctx, body, Object.fromEntries(err.errors.map((e) => [e.path || '_form', e.message])), 422);
      }
      throw err;
    }
    redirectWithFlash(ctx, `/alert/${id}`, 'success', 'Alert inserito');
  });
};
