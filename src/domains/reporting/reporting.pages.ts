import { REPORT_ESITI, REPORT_TIPI } from '../../../workflows/reporting/reporting.contract';
import { REPORT_GENERATORS, REPORT_STATES, reportMachine } from '../../../workflows/reporting/reporting.machine';
import { hasRole, tenantOf } from '../../http/auth';
import { HttpError, notFound } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { isUuid } from '../../kit/ids';
import type { ReportTransitionArgs } from '../../../workflows/reporting/reporting.contract';
import { REPORT_READERS } from './reporting.access';
import { reportCsv, reportFileName, reportXlsx } from './reporting.export';
import { reportToFiling } from './reporting.filing';
import {
  REPORT_AZIONE_LABELS, REPORT_ESITO_LABELS, REPORT_STATO_LABELS, REPORT_STATO_TONES, REPORT_TIPO_LABELS, RUOLO_LABELS, SEGNO_LABELS,
} from './reporting.labels';
import { lineOperations, listReports, reportLines } from './reporting.repo';
import { esitoFormSchema, generateSchema, listReportsQuery, submitSchema } from './reporting.schemas';
import { generateReports, reportDetail, reportTx, requireReport, transitionReport } from './reporting.service';
import { appendAudit } from '../audit';

const labels = {
  tipo: REPORT_TIPO_LABELS, stato: REPORT_STATO_LABELS, statoTone: REPORT_STATO_TONES, azione: REPORT_AZIONE_LABELS,
  esito: REPORT_ESITO_LABELS, segno: SEGNO_LABELS, ruolo: RUOLO_LABELS,
};
const GENERATORS = [...REPORT_GENERATORS];
/** Lines shown on the detail page; the exports carry them all. */
const LINES_ON_PAGE = 100;
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const tipoOptions = REPORT_TIPI.map((t) => ({ value: t, label: REPORT_TIPO_LABELS[t] }));

/** The last month that has ended: what the form proposes. */
function lastMonth(): string {
  const d = new Date();
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Staff pages of the regulatory reports (docs/reporting.md). Without JavaScript every action is a form: post, redirect, flash. */
export const registerReportingPages: RegisterRoutes = (router, { deps, views }) => {
  const user = (ctx: Ctx) => ctx.state.user!;

  router.get('/reporting', staff(REPORT_READERS), async (ctx) => {
    const parsed = listReportsQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listReportsQuery.parse({});
    const result = await reportTx(deps, tenantOf(ctx), user(ctx))((trx) => listReports(trx, tenantOf(ctx), q));
    render(ctx, views, 'reporting/list.njk', {
      result, labels, query: ctx.query, stati: REPORT_STATES, canGenerate: hasRole(user(ctx), GENERATORS),
      filters: { tipo: q.tipo ?? '', stato: q.stato ?? '', periodo: q.periodo ?? '', overdue: q.overdue === undefined ? '' : String(q.overdue), sort: q.sort ?? '' },
      invalid: parsed.success ? null : 'Filtri non validi: mostrate tutte le segnalazioni',
    });
  });

  const renderForm = (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) =>
    render(ctx, views, 'reporting/genera.njk', { values, errors, tipoOptions }, { status });

  router.get('/reporting/genera', staff(GENERATORS), (ctx) => renderForm(ctx, { tipo: 'comunicazione_oggettiva', dal: lastMonth(), al: '' }));

  router.post('/reporting/genera', staff(GENERATORS), async (ctx) => {
    const body = formBody(ctx);
    const input = { tipo: body.tipo, dal: body.dal ?? '', al: body.al ?? '' };
    const parsed = generateSchema.safeParse(input);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      // The form has no single-month field: a missing month belongs next to "dal".
      if (errors.periodo) { errors.dal ??= errors.periodo; delete errors.periodo; }
      return renderForm(ctx, body, errors, 422);
    }
    try {
      const items = await generateReports(deps, tenantOf(ctx), user(ctx), parsed.data);
      if (items.length === 1) return redirectWithFlash(ctx, `/reporting/${items[0]!.id}`, 'success', 'Generazione avviata');
      redirectWithFlash(ctx, `/reporting?tipo=${parsed.data.tipo}`, 'success', `Generazione avviata per ${items.length} mesi`);
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return renderForm(ctx, body, { dal: err.detail ?? err.title }, 409);
      throw err;
    }
  });

  router.get('/reporting/:id', staff(REPORT_READERS), async (ctx) => {
    const r = await reportDetail(deps, tenantOf(ctx), user(ctx), ctx.params.id!);
    const { lines, operations } = await reportTx(deps, tenantOf(ctx), user(ctx))(async (trx) => {
      const l = await reportLines(trx, r.id, LINES_ON_PAGE);
      return { lines: l, operations: await lineOperations(trx, r.id, l.map((x) => x.id), 50) };
    });
    const byLine = new Map<string, typeof operations>();
    for (const o of operations) byLine.set(o.line_id, [...(byLine.get(o.line_id) ?? []), o]);
    const diagram = await stateDiagramView(reportMachine, {
      current: r.stato, allowed: r.allowed_actions, labels: { states: REPORT_STATO_LABELS, actions: REPORT_AZIONE_LABELS }, title: 'Diagramma degli stati della segnalazione',
    });
    const pending = r.submissions.find((s) => s.esito === 'in_attesa') ?? null;
    render(ctx, views, 'reporting/detail.njk', {
      r, labels, diagram, pending, esiti: REPORT_ESITI.map((e) => ({ value: e, label: REPORT_ESITO_LABELS[e] })),
      lines: lines.map((l) => ({ ...l, operazioni: byLine.get(l.id) ?? [] })), moreLines: r.righe > lines.length,
      canFiling: hasRole(user(ctx), GENERATORS) && !r.filing_id && r.stato !== 'generating' && r.stato !== 'failed',
      generatedByMe: r.generated_by === user(ctx).cod_utente,
    });
  });

  const exportRoute = (ext: 'csv' | 'xlsx') => router.get(`/reporting/:id/${ext}`, staff(REPORT_READERS), async (ctx) => {
    const row = await requireReport(deps, tenantOf(ctx), user(ctx), ctx.params.id!);
    if (row.stato === 'generating' || row.stato === 'failed') throw new HttpError(409, 'INVALID_TRANSITION', 'La segnalazione non è generata', 'Non ci sono righe da esportare', { state: row.stato, allowed_actions: [] });
    const lines = await reportTx(deps, tenantOf(ctx), user(ctx))(async (trx) => {
      const l = await reportLines(trx, row.id);
      // Downloading names customers' cash: who took it is recorded.
      await appendAudit(trx, { codAzienda: tenantOf(ctx), actor: user(ctx).username, action: 'reporting.export', entityType: 'reporting', entityId: row.id, data: { formato: ext, righe: l.length } });
      return l;
    });
    ctx.set('Content-Disposition', `attachment; filename="${reportFileName(row, ext)}"`);
    ctx.set('Cache-Control', 'no-store');
    if (ext === 'csv') { ctx.type = 'text/csv; charset=utf-8'; ctx.body = reportCsv(row, lines); return; }
    ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    ctx.body = await reportXlsx(row, lines);
  });
  exportRoute('csv');
  exportRoute('xlsx');

  /** One page action: run the transition, come back to the report with a message. */
  const act = async (ctx: Ctx, args: Omit<ReportTransitionArgs, 'actor'>, done: string) => {
    const back = `/reporting/${encodeURIComponent(ctx.params.id!)}`;
    try {
      await transitionReport(deps, tenantOf(ctx), user(ctx), ctx.params.id!, args);
    } catch (err) {
      if (err instanceof HttpError && err.status !== 404) return redirectWithFlash(ctx, back, 'danger', err.detail ?? err.title);
      throw err;
    }
    redirectWithFlash(ctx, back, 'success', done);
  };

  router.post('/reporting/:id/approva', staff(rolesFor(reportMachine, 'approve')), (ctx) => act(ctx, { action: 'approve' }, 'Segnalazione approvata'));

  router.post('/reporting/:id/invio', staff(rolesFor(reportMachine, 'submit')), async (ctx) => {
    const parsed = submitSchema.safeParse({ riferimento: formBody(ctx).riferimento ?? '' });
    if (!parsed.success) return redirectWithFlash(ctx, `/reporting/${encodeURIComponent(ctx.params.id!)}`, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
    await act(ctx, { action: 'submit', ...(parsed.data.riferimento ? { riferimento: parsed.data.riferimento } : {}) }, 'Invio registrato: in attesa di esito');
  });

  router.post('/reporting/:id/invio/:sub_id/esito', staff(rolesFor(reportMachine, 'complete-submission')), async (ctx) => {
    const back = `/reporting/${encodeURIComponent(ctx.params.id!)}`;
    if (!isUuid(ctx.params.sub_id)) throw notFound('Invio', 'm');
    const b = formBody(ctx);
    const parsed = esitoFormSchema.safeParse({ esito: b.esito, protocollo: b.protocollo ?? '', note: b.note ?? '' });
    if (!parsed.success) return redirectWithFlash(ctx, back, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
    await act(ctx, {
      action: 'complete-submission', submissionId: ctx.params.sub_id, esito: parsed.data.esito,
      ...(parsed.data.protocollo ? { protocollo: parsed.data.protocollo } : {}), ...(parsed.data.note ? { note: parsed.data.note } : {}),
    }, parsed.data.esito === 'accettata' ? 'Esito registrato: segnalazione completata' : 'Esito registrato: invio scartato, la segnalazione torna approvata');
  });

  router.post('/reporting/:id/filing', staff(GENERATORS), async (ctx) => {
    const back = `/reporting/${encodeURIComponent(ctx.params.id!)}`;
    try {
      const { filing_id } = await reportToFiling(deps, tenantOf(ctx), user(ctx), ctx.params.id!);
      redirectWithFlash(ctx, `/filing/${filing_id}`, 'success', 'Bozza di filing creata dalla segnalazione');
    } catch (err) {
      if (err instanceof HttpError && err.status !== 404) return redirectWithFlash(ctx, back, 'danger', err.detail ?? err.title);
      throw err;
    }
  });
};
