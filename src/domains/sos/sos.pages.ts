import { hasRole, tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { SOS_STATES, sosMachine, type SosAction } from '../../../workflows/sos/sos.machine';
import {
  SOS_AZIONE_LABELS, SOS_DIREZIONE_LABELS, SOS_ORIGINE_LABELS, SOS_RUOLO_LABELS, SOS_STATO_LABELS, SOS_STATO_TONES, SOS_TIPO_LABELS,
} from './sos.labels';
import { SOS_AUDIT_ACTIONS } from './sos.audit';
import { SOS_ACCESS } from './sos.routes';
import { SOS_FILERS } from './sos.access';
import { createFilingFromSos, sosFilingSchema, sosFilings } from './sos.filing';
import { FILING_STATO_LABELS } from '../filing';
import { completeTransmissionSchema, createSosSchema, listSosQuery, sosTransitionSchema } from './sos.schemas';
import { applySosTransition, createSos, listSos, sosAllowedFor, sosDb, sosDetail } from './sos.service';
import { fenomeniSos } from './sos.codes';
import { SEGNO_LABELS } from '../movements';

const labels = {
  stato: SOS_STATO_LABELS, statoTone: SOS_STATO_TONES, origine: SOS_ORIGINE_LABELS, tipo: SOS_TIPO_LABELS, ruolo: SOS_RUOLO_LABELS,
  direzione: SOS_DIREZIONE_LABELS, azione: SOS_AZIONE_LABELS, audit: SOS_AUDIT_ACTIONS, segno: SEGNO_LABELS as Record<string, string>,
};
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/** Why a transition was refused, in the words of the page. */
const REFUSED: Record<string, string> = {
  INVALID_TRANSITION: 'Azione non consentita nello stato attuale della segnalazione',
  FORBIDDEN: 'Non hai il ruolo per questa azione',
  MISSING_FIELDS: 'Compila i campi richiesti (motivazione o protocollo UIF)',
};

/** Staff pages of suspicious-transaction reports (docs/sos.md). Every page reads under the caller's principal. */
export const registerSosPages: RegisterRoutes = (router, { deps, views }) => {
  router.get('/sos', staff(SOS_ACCESS), async (ctx) => {
    // An unreadable filter shows the whole list, as the other list pages do.
    const parsed = listSosQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listSosQuery.parse({});
    const result = await listSos(deps, tenantOf(ctx), ctx.state.user!, q);
    const filters = {
      q: q.q ?? '', stato: q.stato ?? '', tipo: q.tipo ?? '', cod_anagrafe: q.cod_anagrafe ?? '', dal: q.dal ?? '', al: q.al ?? '', sort: q.sort,
    };
    const exportQuery = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '')).toString();
    const stati = [{ value: '', label: 'Tutti' }, ...SOS_STATES.map((s) => ({ value: s, label: SOS_STATO_LABELS[s] }))];
    const tipi = [{ value: '', label: 'Tutti' }, ...Object.entries(SOS_TIPO_LABELS).map(([value, label]) => ({ value, label }))];
    render(ctx, views, 'sos/list.njk', { result, labels, filters, exportQuery, stati, tipi });
  });

  const renderNew = (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) =>
    render(ctx, views, 'sos/new.njk', {
      values, errors,
      origini: Object.entries(SOS_ORIGINE_LABELS).map(([value, label]) => ({ value, label })),
    }, { status });

  router.get('/sos/nuova', staff(SOS_ACCESS), (ctx) => renderNew(ctx, {
    origine: typeof ctx.query.origine === 'string' ? ctx.query.origine : 'manuale',
    origine_ref: typeof ctx.query.origine_ref === 'string' ? ctx.query.origine_ref : '',
    cod_anagrafe: typeof ctx.query.cod_anagrafe === 'string' ? ctx.query.cod_anagrafe : '',
  }));

  router.post('/sos/nuova', staff(SOS_ACCESS), async (ctx) => {
    const body = formBody(ctx);
    const parsed = createSosSchema.safeParse(body);
    if (!parsed.success) return renderNew(ctx, body, fieldErrors(parsed.error), 422);
    try {
      const { sosId } = await createSos(deps, tenantOf(ctx), ctx.state.user!, parsed.data);
      redirectWithFlash(ctx, `/sos/${sosId}`, 'success', 'Segnalazione creata in bozza');
    } catch (err) {
      if (err instanceof ValidationError) return renderNew(ctx, body, Object.fromEntries(err.errors.map((e) => [e.path, e.message])), 422);
      throw err;
    }
  });

  router.get('/sos/:id', staff(SOS_ACCESS), async (ctx) => {
    const d = await sosDetail(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    const allowed = sosAllowedFor(d.row, ctx.state.user!);
    const diagram = await stateDiagramView(sosMachine, {
      current: d.row.stato, allowed, labels: { states: SOS_STATO_LABELS, actions: SOS_AZIONE_LABELS }, title: 'Diagramma degli stati della segnalazione',
    });
    const fenomeni = new Map(fenomeniSos().map((f) => [f.codice, f.descrizione]));
    const soggetti = new Map(d.content.soggetti.map((s) => [s.id, s.nominativo]));
    const filings = await sosDb(deps, tenantOf(ctx), ctx.state.user!)((trx) => sosFilings(trx, d.row.id));
    const canFile = hasRole(ctx.state.user, SOS_FILERS) && ['transmitted', 'closed'].includes(d.row.stato) && !filings.some((f) => f.stato !== 'archived');
    render(ctx, views, 'sos/detail.njk', {
      filings, canFile, filingStato: FILING_STATO_LABELS,
      s: d.row, d, allowed, diagram, labels, fenomeni: Object.fromEntries(fenomeni), soggetti: Object.fromEntries(soggetti),
      simple: allowed.filter((a) => a === 'submit' || a === 'evaluate' || a === 'to_transmit' || a === 'close'),
      workflow: { id: d.row.workflow_id, url: deps.temporal.webUiLink(d.row.workflow_id) },
    });
  });

  router.post('/sos/:id/filing', staff(SOS_FILERS), async (ctx) => {
    const back = `/sos/${encodeURIComponent(ctx.params.id!)}`;
    const parsed = sosFilingSchema.safeParse(formBody(ctx));
    if (!parsed.success) return redirectWithFlash(ctx, back, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
    try {
      const made = await createFilingFromSos(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, parsed.data);
      redirectWithFlash(ctx, `/filing/${made.filingId}`, 'success', 'Filing goAML creato in bozza dalla segnalazione: completalo, classificalo e validalo');
    } catch (err) {
      if (err instanceof ValidationError) return redirectWithFlash(ctx, back, 'danger', err.errors.map((e) => e.message).join(' '));
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, back, 'danger', err.detail ?? err.title);
      throw err;
    }
  });

  router.post('/sos/:id/transizione', staff(SOS_ACCESS), async (ctx) => {
    const back = `/sos/${encodeURIComponent(ctx.params.id!)}`;
    const body = formBody(ctx);
    const isTransmission = body.action === 'complete-transmission';
    const parsed = isTransmission ? completeTransmissionSchema.safeParse(body) : sosTransitionSchema.safeParse(body);
    if (!parsed.success) return redirectWithFlash(ctx, back, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
    const v = parsed.data as { action?: SosAction; motivazione?: string; protocollo?: string };
    try {
      await applySosTransition(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, isTransmission
        ? { action: 'complete-transmission', protocollo: v.protocollo! }
        : { action: v.action!, ...(v.motivazione ? { reason: v.motivazione } : {}) });
    } catch (err) {
      if (err instanceof HttpError && err.status !== 404 && REFUSED[err.code]) return redirectWithFlash(ctx, back, 'danger', REFUSED[err.code]!);
      throw err;
    }
    redirectWithFlash(ctx, back, 'success', `Fatto: ${SOS_AZIONE_LABELS[isTransmission ? 'complete-transmission' : v.action!]}`);
  });
};
