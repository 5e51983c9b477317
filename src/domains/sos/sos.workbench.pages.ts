import { tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { SOS_EDITABLE_STATES, sosMachine } from '../../../workflows/sos/sos.machine';
import { missingRequired } from './sos.completeness';
import { SOS_RUOLO_LABELS, SOS_STATO_LABELS, SOS_STATO_TONES } from './sos.labels';
import { sosReadiness } from './sos.readiness';
import { SOS_ACCESS } from './sos.routes';
import { completeTransmissionSchema, listSosQuery } from './sos.schemas';
import { applySosTransition, listSos, requireSos, sosAllowedFor, sosDb, updateSosContent } from './sos.service';
import { contentFromSelection, investigationData, selectedOf } from './sos.workbench';
import { appendSosAudit } from './sos.audit';
import { ALERT_STATO_LABELS, DISPOSIZIONE_LABELS, TIPOLOGIA_LABELS } from '../monitoring';
import { SEGNO_LABELS } from '../movements';
import { CLASSE_RISCHIO_LABELS } from '../records';

const labels = {
  stato: SOS_STATO_LABELS, statoTone: SOS_STATO_TONES, ruolo: SOS_RUOLO_LABELS, segno: SEGNO_LABELS as Record<string, string>,
  alertStato: ALERT_STATO_LABELS as Record<string, string>, disposizione: DISPOSIZIONE_LABELS as Record<string, string>, tipologia: TIPOLOGIA_LABELS as Record<string, string>,
  classe: CLASSE_RISCHIO_LABELS as Record<string, string>,
};
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/**
 * The SOS workbench (docs/sos.md): the queue, the investigation view that fills a report from the
 * customer file, the completeness check with its rules, and the transmission. A report is named by
 * its id or its code (SOS-000001): the "fascicolo" of the spec's paths.
 */
export const registerSosWorkbench: RegisterRoutes = (router, { deps, views }) => {
  router.get('/sos/queue', staff(SOS_ACCESS), async (ctx) => {
    const user = ctx.state.user!;
    const delegate = user.ruoli.some((r) => r === 'sos' || r === 'co');
    // The delegate's queue: what waits for a decision, nearest evaluation term first; an analyst's: their drafts.
    const parsed = listSosQuery.safeParse({ sort: 'valutazione_scadenza', ...ctx.query });
    const q = parsed.success ? parsed.data : listSosQuery.parse({ sort: 'valutazione_scadenza' });
    const fixed = delegate ? { in_coda: true } : { stato: 'draft' as const, reporter: 'me' as const };
    const result = await listSos(deps, tenantOf(ctx), user, { ...q, ...fixed });
    render(ctx, views, 'sos/queue.njk', { result, labels, delegate, filters: { sort: q.sort } });
  });

  const renderInvestigation = async (ctx: Ctx, errors: Record<string, string> = {}, values?: Record<string, unknown>, status = 200) => {
    const tenant = tenantOf(ctx);
    const { row, data } = await sosDb(deps, tenant, ctx.state.user!)(async (trx) => {
      const found = await requireSos(trx, ctx.params.codFascicolo!);
      await appendSosAudit(trx, { codAzienda: tenant, sosId: found.id, actor: ctx.state.user!.username, action: 'sos.read', data: { view: 'investigation' } });
      return { row: found, data: await investigationData(trx, tenant, found) };
    });
    const selected = values ?? { ...selectedOf(data.content), descrizione: row.descrizione };
    render(ctx, views, 'sos/investigation.njk', {
      s: row, d: data, labels, errors, selected, editable: SOS_EDITABLE_STATES.includes(row.stato),
      has: (list: unknown, v: unknown) => (Array.isArray(list) ? list.map(String).includes(String(v)) : String(list ?? '') === String(v)),
    }, { status });
  };

  router.get('/sos/investigation/:codFascicolo', staff(SOS_ACCESS), (ctx) => renderInvestigation(ctx));

  router.post('/sos/investigation/:codFascicolo', staff(SOS_ACCESS), async (ctx) => {
    const tenant = tenantOf(ctx);
    const user = ctx.state.user!;
    const form = formBody(ctx);
    const descrizione = typeof form.descrizione === 'string' ? form.descrizione : '';
    if (descrizione.length > 20_000) return renderInvestigation(ctx, { descrizione: 'Massimo 20000 caratteri' }, form, 422);
    try {
      const { row, content } = await sosDb(deps, tenant, user)(async (trx) => {
        const found = await requireSos(trx, ctx.params.codFascicolo!);
        const data = await investigationData(trx, tenant, found);
        const customer = data.customer as { cod_anagrafe: string; denominazione: string; codice_fiscale: string | null };
        return { row: found, content: contentFromSelection(form, data, { cod_anagrafe: customer.cod_anagrafe, nominativo: customer.denominazione, codice_fiscale: customer.codice_fiscale }) };
      });
      await updateSosContent(deps, tenant, user, row.id, content, descrizione);
      redirectWithFlash(ctx, `/sos/${row.id}`, 'success', 'Contenuto della segnalazione aggiornato');
    } catch (err) {
      if (err instanceof ValidationError) return renderInvestigation(ctx, Object.fromEntries(err.errors.map((e) => [e.path.replace(/^content\./, ''), e.message])), form, 422);
      throw err;
    }
  });

  const readiness = (ctx: Ctx) => sosDb(deps, tenantOf(ctx), ctx.state.user!)(async (trx) => {
    const row = await requireSos(trx, ctx.params.codFascicolo!);
    await appendSosAudit(trx, { codAzienda: tenantOf(ctx), sosId: row.id, actor: ctx.state.user!.username, action: 'sos.read', data: { view: 'completeness' } });
    return { row, ...(await sosReadiness(trx, row)) };
  });

  router.get('/sos/completeness/:codFascicolo', staff(SOS_ACCESS), async (ctx) => {
    const r = await readiness(ctx);
    render(ctx, views, 'sos/completeness.njk', { s: r.row, items: r.items, xmlErrors: r.xmlErrors, missing: missingRequired(r.items), labels });
  });

  const renderTransmission = async (ctx: Ctx, errors: Record<string, string> = {}, status = 200) => {
    const r = await readiness(ctx);
    render(ctx, views, 'sos/transmission.njk', {
      s: r.row, items: r.items, missing: missingRequired(r.items), labels, errors,
      canTransmit: sosAllowedFor(r.row, ctx.state.user!).includes('complete-transmission'),
    }, { status });
  };

  router.get('/sos/transmission/:codFascicolo', staff(SOS_ACCESS), (ctx) => renderTransmission(ctx));

  router.post('/sos/transmission/:codFascicolo', staff(rolesFor(sosMachine, 'complete-transmission')), async (ctx) => {
    const parsed = completeTransmissionSchema.safeParse(formBody(ctx));
    if (!parsed.success) return renderTransmission(ctx, fieldErrors(parsed.error), 422);
    try {
      const done = await applySosTransition(deps, tenantOf(ctx), ctx.state.user!, ctx.params.codFascicolo!, { action: 'complete-transmission', protocollo: parsed.data.protocollo });
      redirectWithFlash(ctx, `/sos/${done.id}`, 'success', `Trasmissione registrata con protocollo UIF ${parsed.data.protocollo}`);
    } catch (err) {
      if (err instanceof HttpError && err.status !== 404 && err.status !== 503) {
        return renderTransmission(ctx, { protocollo: err.detail ?? err.title }, err.status === 403 ? 403 : err.status === 409 ? 409 : 422);
      }
      throw err;
    }
  });
};
