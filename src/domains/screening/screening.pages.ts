import { STAFF_READ, STAFF_WRITE, type Role } from '../../kit/roles';
import { withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { matchMachine } from '../../../workflows/screening/screening.machine';
import { assignableUsers, userNames } from '../../kit/users';
import { auditTimeline, type AuditLike } from '../../kit/timeline';
import type { RegisterRoutes } from '../../kit/area';
import { IMPORT_READERS, IMPORTERS, importListScope, importStatus, inImportScope, latestRun, runHistory, startImport } from './screening.imports';
import {
  ESITO_LABELS, IMPORT_STATUS_LABELS, IMPORT_STATUS_TONES, LIST_STATUS_LABELS, MATCH_AZIONE_LABELS, MATCH_STATO_LABELS, MATCH_STATO_TONES,
  REJECTION_MESSAGES, RESCREEN_STATUS_LABELS, listaLabel, MATCH_STATO_PLURALE_LABELS, VOCE_TIPO_LABELS, RESCREEN_STATUS_TONES, TIPO_SOGGETTO_LABELS, TRIGGER_LABELS,
} from './screening.labels';
import { assignMatch, dashboard, deleteMatch, listMatches, matchDetail, resolveMatch } from './screening.matches';
import { assignSchema, historyQuery, listMatchesQuery, resolveSchema } from './screening.schemas';
import { staff } from '../../kit/access';
import { CHART_WEEKS, screeningCharts } from './screening.charts';

/** Who may delete a match: the route admits them and the page offers the button to them only. */
const DELETERS: Role[] = ['admin', 'co'];
const labels = {
  stato: MATCH_STATO_LABELS, statoTone: MATCH_STATO_TONES, esito: ESITO_LABELS, tipo: TIPO_SOGGETTO_LABELS,
  importStatus: IMPORT_STATUS_LABELS, importTone: IMPORT_STATUS_TONES, listStatus: LIST_STATUS_LABELS, trigger: TRIGGER_LABELS,
  rescreenStatus: RESCREEN_STATUS_LABELS, rescreenTone: RESCREEN_STATUS_TONES, lista: listaLabel, statoPlurale: MATCH_STATO_PLURALE_LABELS, schema: VOCE_TIPO_LABELS,
};
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/** Staff pages for screening. Without JavaScript every action is a form: post, redirect, flash. */
export const registerScreeningPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  const list = (base: string) => async (ctx: Ctx) => {
    const parsed = listMatchesQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listMatchesQuery.parse({});
    // Who holds each match: one lookup of the page's assignees, outside the list's own query.
    const { result, names } = await tx(ctx, async (trx) => {
      const page = await listMatches(trx, tenantOf(ctx), q, ctx.state.user!.cod_utente);
      return { result: page, names: await userNames(trx, page.items.map((m: { assegnatario?: string | null }) => m.assegnatario)) };
    });
    const lists = await tx(ctx, async (trx) => (await trx.raw('select distinct list_name from screening_list_versions order by list_name')).rows.map((r: { list_name: string }) => r.list_name) as string[]);
    const filters = {
      q: q.q ?? '', stato: q.stato ?? '', list: q.list ?? '', min_score: q.min_score === undefined ? '' : String(q.min_score),
      assegnatario: q.assegnatario ?? '', da_confermare: q.da_confermare === undefined ? '' : String(q.da_confermare),
    };
    render(ctx, views, 'screening/list.njk', { result, names, filters, labels, lists, base }, { fragment: 'screening/_table.njk' });
  };
  router.get('/screening', staff(STAFF_READ), list('/screening'));
  router.get('/admin/screening/matches', staff(STAFF_READ), list('/admin/screening/matches'));

  const showDetail = async (ctx: Ctx, base: string, values: Record<string, unknown> = {}, errors: Record<string, string> = {}, status = 200) => {
    const d = await matchDetail(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    const tenant = tenantOf(ctx);
    const users = await tx(ctx, (trx) => assignableUsers(trx, tenant));
    // One lookup for the people on the match and the assignees its timeline names.
    const names = await tx(ctx, (trx) => userNames(trx, [
      d.assegnatario, d.resolution_requested_by, d.resolved_by, ...d.audit.map((a: AuditLike) => a.data?.assegnatario as string | undefined),
    ]));
    const diagram = await stateDiagramView(matchMachine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: MATCH_STATO_LABELS, actions: MATCH_AZIONE_LABELS }, title: 'Diagramma degli stati della corrispondenza',
    });
    const timelineItems = await tx(ctx, (trx) => auditTimeline(trx, d.audit as AuditLike[], {
      states: MATCH_STATO_LABELS,
      outcomes: ESITO_LABELS,
      detail: (a) => (a.action === 'screening.match.assegna' && a.data?.assegnatario ? [`Assegnata a ${names[String(a.data.assegnatario)] ?? 'un utente non più attivo'}`] : []),
    }));
    const options = {
      esito: [{ value: '', label: 'Scegli…' }, ...Object.entries(ESITO_LABELS).map(([value, label]) => ({ value, label }))],
      assegnatario: users.map((u: { cod_utente: string; nome: string; cognome: string; username: string }) => ({ value: u.cod_utente, label: `${u.cognome} ${u.nome} (${u.username})` })),
    };
    render(ctx, views, 'screening/detail.njk', {
      m: d, base, names, diagram, timelineItems, labels, options, values, errors, canDelete: hasRole(ctx.state.user, DELETERS),
      me: ctx.state.user!.cod_utente,
    }, { status });
  };
  router.get('/screening/:id', staff(STAFF_READ), (ctx) => showDetail(ctx, '/screening'));
  router.get('/admin/screening/matches/:id', staff(STAFF_READ), (ctx) => showDetail(ctx, '/admin/screening/matches'));

  /** A refused action comes back to the match with the reason; a missing match stays a 404 page. */
  const explain = (ctx: Ctx, back: string, err: unknown) => {
    if (err instanceof HttpError && err.status !== 404 && REJECTION_MESSAGES[err.code]) return redirectWithFlash(ctx, back, 'danger', REJECTION_MESSAGES[err.code]!);
    if (err instanceof HttpError && err.status === 422) return redirectWithFlash(ctx, back, 'danger', String((err.extra.errors as { message: string }[] | undefined)?.[0]?.message ?? err.detail));
    throw err;
  };

  router.post('/screening/:id/risolvi', staff(STAFF_WRITE), async (ctx) => {
    const back = `/screening/${encodeURIComponent(ctx.params.id!)}`;
    const body = formBody(ctx);
    const parsed = resolveSchema.safeParse(body);
    if (!parsed.success) return showDetail(ctx, '/screening', body, fieldErrors(parsed.error), 422);
    try {
      const d = await resolveMatch(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, parsed.data);
      const pending = d.stato === 'assigned';
      redirectWithFlash(ctx, back, 'success', pending ? 'Risoluzione richiesta: serve la conferma di un secondo operatore' : 'Corrispondenza risolta');
    } catch (err) { explain(ctx, back, err); }
  });

  router.post('/screening/:id/assegna', staff(STAFF_WRITE), async (ctx) => {
    const back = `/screening/${encodeURIComponent(ctx.params.id!)}`;
    const body = formBody(ctx);
    const parsed = assignSchema.safeParse({ assegnatario: body.assegnatario || ctx.state.user!.cod_utente });
    if (!parsed.success) return showDetail(ctx, '/screening', body, fieldErrors(parsed.error), 422);
    try {
      await assignMatch(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, parsed.data.assegnatario);
      redirectWithFlash(ctx, back, 'success', 'Corrispondenza assegnata');
    } catch (err) { explain(ctx, back, err); }
  });

  router.post('/screening/:id/elimina', staff(DELETERS), async (ctx) => {
    await deleteMatch(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    redirectWithFlash(ctx, '/screening', 'success', 'Corrispondenza eliminata');
  });

  router.get('/admin/screening', staff(STAFF_READ), async (ctx) => {
    const d = await tx(ctx, (trx) => dashboard(trx));
    const run = await tx(ctx, (trx) => latestRun(deps, trx));
    const charts = await tx(ctx, (trx) => screeningCharts(trx, tenantOf(ctx)));
    const lists = d.lists.map((l) => ({ ...l, name: listaLabel(l.list_name), matches: d.by_list.find((x) => x.list_name === l.list_name)?.count ?? 0 }));
    render(ctx, views, 'screening/dashboard.njk', { d: { ...d, lists }, run, charts, chartWeeks: CHART_WEEKS, labels, canImport: hasRole(ctx.state.user, IMPORTERS) });
  });

  router.get('/admin/screening/import', staff(IMPORT_READERS), async (ctx) => {
    const { run, rescreen, history } = await inImportScope(deps, ctx, async (trx) => ({ ...await importStatus(deps, trx), history: await runHistory(deps, trx, importListScope(ctx), historyQuery.parse({})) }));
    const platform = hasRole(ctx.state.user, IMPORTERS);
    render(ctx, views, 'screening/import.njk', { run, rescreen, history, labels, canImport: platform, platform }, { fragment: 'screening/_import_progress.njk' });
  });

  router.post('/admin/screening/import', staff(IMPORTERS), async (ctx) => {
    try {
      await startImport(deps, ctx.state.user!);
    } catch (err) {
      if (err instanceof HttpError && err.code === 'IMPORT_RUNNING') return redirectWithFlash(ctx, '/admin/screening/import', 'warning', 'Un\'importazione è già in corso');
      throw err;
    }
    redirectWithFlash(ctx, '/admin/screening/import', 'success', 'Importazione delle liste avviata');
  });
};
