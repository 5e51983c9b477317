import { ValidationError, HttpError } from '../../http/errors';
import { tenantOf, hasRole } from '../../http/auth';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { withTenant } from '../../db/tenant';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { rolesFor } from '../../kit/process';
import { fullNamesByUsername } from '../../kit/users';
import type { FilingTransitionArgs } from '../../../workflows/filing/filing.contract';
import { filingMachine, FILING_ACTIONS, type FilingAction } from '../../../workflows/filing/filing.machine';
import { FILING_READERS } from './filing.access';
import { FILING_AZIONE_LABELS, FILING_FINDING_LABELS, FILING_STATO_LABELS, FILING_STATO_TONES, FILING_TIPO_LABELS } from './filing.labels';
import { listFilings, workbench } from './filing.repo';
import { receiveReturnFile } from './filing.return-upload';
import { classifyFilingSchema, createFilingSchema, listFilingsQuery, recordSubmissionSchema, rejectSchema } from './filing.schemas';
import { applyFilingTransition, createFiling, filingDetail, followUpFiling, requireFiling, reportOf } from './filing.service';
import { loadJurisdiction } from './goaml/jurisdiction-loader';
import { contentRows, FILING_OPTIONS, WAITING_FOR } from './filing.view-model';
import { contentSections, placeOf } from './filing.content-labels';

const labels = { stato: FILING_STATO_LABELS, statoTone: FILING_STATO_TONES, tipo: FILING_TIPO_LABELS, azione: FILING_AZIONE_LABELS, finding: FILING_FINDING_LABELS };
const PREPARERS = rolesFor(filingMachine, 'edit');
/** Actions a button does alone; the others have their own form on the detail page. */
const SIMPLE: FilingAction[] = ['validate', 'mark-ready', 'submit-for-approval', 'approve', 'sign', 'complete-signing', 'render-package', 'follow-up', 'archive'];
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/** Reads the composer's JSON content field: a message for the field when it is not a JSON object. */
function parseContent(raw: unknown): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string } {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) return { ok: true, value: undefined };
  try {
    const v = JSON.parse(text) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, message: 'Il contenuto deve essere un oggetto JSON (il report goAML)' };
    return { ok: true, value: v as Record<string, unknown> };
  } catch {
    return { ok: false, message: 'JSON non valido: controlla virgole e virgolette' };
  }
}

/** Staff pages for filings (docs/filing.md). Without JavaScript every action is a form: post, redirect, flash. */
export const registerFilingPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, principal: { user: ctx.state.user!.cod_utente, roles: ctx.state.user!.ruoli } }, fn);

  router.get('/filing', staff(FILING_READERS), async (ctx) => {
    const parsed = listFilingsQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listFilingsQuery.parse({});
    const result = await tx(ctx, (trx) => listFilings(trx, tenantOf(ctx), q));
    const filters = { q: q.q ?? '', stato: q.stato ?? '', tipo: q.tipo ?? '', cod_anagrafe: q.cod_anagrafe ?? '', dal: q.dal ?? '', al: q.al ?? '', sort: q.sort };
    const exportQuery = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '')).toString();
    render(ctx, views, 'filing/list.njk', { result, labels, filters, exportQuery, canCreate: hasRole(ctx.state.user, PREPARERS) });
  });

  const renderCompose = (ctx: Ctx, values: Record<string, unknown>, errors: Record<string, string> = {}, status = 200) =>
    render(ctx, views, 'filing/compose.njk', { values, errors, options: FILING_OPTIONS }, { status });

  router.get('/filing/compose', staff(PREPARERS), (ctx) => renderCompose(ctx, { tipo: 'str', content: '' }));

  router.post('/filing/compose', staff(PREPARERS), async (ctx) => {
    const body = formBody(ctx);
    const content = parseContent(body.content);
    const parsed = createFilingSchema.safeParse({ ...body, content: content.ok ? content.value : undefined });
    const errors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...(content.ok ? {} : { content: content.message }) };
    if (!parsed.success || !content.ok) return renderCompose(ctx, body, errors, 422);
    try {
      const { filingId } = await createFiling(deps, tenantOf(ctx), ctx.state.user!, parsed.data);
      redirectWithFlash(ctx, `/filing/${filingId}`, 'success', 'Segnalazione creata in bozza');
    } catch (err) {
      if (err instanceof ValidationError) return renderCompose(ctx, body, Object.fromEntries(err.errors.map((e) => [e.path.split('.')[0]!, e.message])), 422);
      throw err;
    }
  });

  router.get('/filing/workbench', staff(FILING_READERS), async (ctx) => {
    const w = await tx(ctx, (trx) => workbench(trx));
    const now = Date.now();
    const due = w.open.map((f) => ({ ...f, late: f.due_at ? new Date(f.due_at).getTime() < now : false, waiting: WAITING_FOR[f.stato] ?? '' }));
    render(ctx, views, 'filing/workbench.njk', { due, returned: w.returned, labels });
  });

  router.get('/filing/:id', staff(FILING_READERS), async (ctx) => {
    const d = await filingDetail(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    const diagram = await stateDiagramView(filingMachine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: FILING_STATO_LABELS, actions: FILING_AZIONE_LABELS }, title: 'Diagramma degli stati della segnalazione',
    });
    const names = await tx(ctx, (trx) => fullNamesByUsername(trx, d.events.map((e) => e.actor)));
    const timelineItems = d.events.map((e) => ({ at: e.created_at, actor: names[e.actor] ?? e.actor, title: FILING_AZIONE_LABELS[e.tipo as FilingAction] ?? (e.tipo === 'create' ? 'Creata' : e.tipo === 'due_soon' ? 'Scadenza vicina' : e.tipo === 'overdue' ? 'Scaduta' : e.tipo), text: e.testo }));
    const { rows, unplaced } = contentRows(d.content, [...d.findings, ...d.return_errors]);
    const simpleActions = d.allowed_actions.filter((a) => SIMPLE.includes(a as FilingAction)).map((a) => ({
      action: a, label: FILING_AZIONE_LABELS[a as FilingAction], url: `/filing/${d.id}/azione/${a}`, variant: a === 'approve' || a === 'render-package' ? 'primary' : 'secondary',
      ...(a === 'archive' ? { confirm: { title: 'Archiviare la segnalazione?', text: 'Una segnalazione archiviata non si può più modificare né riaprire.', confirmLabel: 'Sì, archivia' } } : {}),
    }));
    render(ctx, views, 'filing/detail.njk', {
      f: d, allowed: d.allowed_actions, simpleActions, diagram, timelineItems, rows, sections: contentSections(rows), unplaced, labels, options: FILING_OPTIONS,
      placeOf,
      contentJson: JSON.stringify(d.content, null, 2), workflow: d.workflow,
    });
  });

  /** One page action: run the transition, come back to the filing with a message (the findings stay on the page). */
  const act = async (ctx: Ctx, args: Omit<FilingTransitionArgs, 'actor'>, done: string) => {
    const back = `/filing/${encodeURIComponent(ctx.params.id!)}`;
    try {
      if (args.action === 'follow-up') {
        const r = await followUpFiling(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
        return redirectWithFlash(ctx, `/filing/${r.follow_up.id}`, 'success', 'Segnalazione di seguito creata in bozza');
      }
      await applyFilingTransition(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, args);
    } catch (err) {
      if (err instanceof HttpError && err.status !== 404) return redirectWithFlash(ctx, back, 'danger', err.status === 422 && err.code === 'VALIDATION_ERROR' && err.extra.findings ? 'La validazione non è superata: gli errori sono accanto ai campi' : (err.detail ?? err.title));
      throw err;
    }
    redirectWithFlash(ctx, back, 'success', done);
  };

  router.post('/filing/:id/azione/:action', staff(FILING_READERS), async (ctx) => {
    const action = ctx.params.action as FilingAction;
    if (!(FILING_ACTIONS as readonly string[]).includes(action) || !SIMPLE.includes(action)) throw new HttpError(404, 'NOT_FOUND', 'Azione sconosciuta');
    await act(ctx, { action }, `${FILING_AZIONE_LABELS[action]}: fatto`);
  });

  router.post('/filing/:id/modifica', staff(PREPARERS), async (ctx) => {
    const body = formBody(ctx);
    const content = parseContent(body.content);
    if (!content.ok) return redirectWithFlash(ctx, `/filing/${encodeURIComponent(ctx.params.id!)}`, 'danger', content.message);
    await act(ctx, { action: 'edit', ...(content.value ? { content: content.value } : {}) }, 'Contenuto salvato');
  });

  router.post('/filing/:id/classifica', staff(PREPARERS), async (ctx) => {
    const parsed = classifyFilingSchema.safeParse(formBody(ctx));
    if (!parsed.success) return redirectWithFlash(ctx, `/filing/${encodeURIComponent(ctx.params.id!)}`, 'danger', Object.values(fieldErrors(parsed.error)).join(' '));
    const b = parsed.data;
    await act(ctx, { action: 'classify', tipo: b.tipo, jurisdiction: b.jurisdiction, reportCode: b.report_code, ...(b.periodo_riferimento ? { periodo: b.periodo_riferimento } : {}) }, 'Segnalazione classificata');
  });

  router.post('/filing/:id/respingi', staff(rolesFor(filingMachine, 'reject')), async (ctx) => {
    const parsed = rejectSchema.safeParse(formBody(ctx));
    if (!parsed.success) return redirectWithFlash(ctx, `/filing/${encodeURIComponent(ctx.params.id!)}`, 'danger', 'Indica il motivo del respingimento');
    await act(ctx, { action: 'reject', reason: parsed.data.motivazione }, 'Segnalazione respinta in bozza');
  });

  router.post('/filing/:id/invio', staff(rolesFor(filingMachine, 'record-submission')), async (ctx) => {
    const parsed = recordSubmissionSchema.safeParse(formBody(ctx));
    if (!parsed.success) return redirectWithFlash(ctx, `/filing/${encodeURIComponent(ctx.params.id!)}`, 'danger', 'Indica il riferimento dell\'invio');
    await act(ctx, { action: 'record-submission', submissionRef: parsed.data.submission_ref }, 'Invio registrato');
  });

  router.post('/filing/:id/esito', staff(rolesFor(filingMachine, 'import-return')), async (ctx) => {
    const back = `/filing/${encodeURIComponent(ctx.params.id!)}`;
    const row = await requireFiling(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    let upload;
    try {
      upload = await receiveReturnFile(ctx);
    } catch (err) {
      if (err instanceof HttpError) return redirectWithFlash(ctx, back, 'danger', (err.extra.errors as { message: string }[] | undefined)?.[0]?.message ?? err.title);
      throw err;
    }
    const expected = reportOf(row, await loadJurisdiction(deps.config.goamlDataDir, row.jurisdiction ?? 'ae-goaml-5.0.2')).entity_reference;
    if (upload.parsed.entityReference !== expected) return redirectWithFlash(ctx, back, 'danger', `L'esito si riferisce a ${upload.parsed.entityReference}, non a questa segnalazione`);
    await act(ctx, { action: 'import-return', returnFile: { ...upload.parsed, fileName: upload.fileName, sha256: upload.sha256 } }, 'Esito importato');
  });
};
