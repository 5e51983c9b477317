import { dossierMachine, DOSSIER_ACTIONS, type DossierAction } from '../../../workflows/dossier/dossier.machine';
import { DOSSIER_SECTIONS, type DossierSection } from '../../../workflows/dossier/dossier.sections';
import { withTenant } from '../../db/tenant';
import { hasRole, tenantOf } from '../../http/auth';
import { HttpError, ValidationError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { fullNamesByUsername } from '../../kit/users';
import { getCustomer } from '../records';
import { DOSSIER_GENERATORS, DOSSIER_READERS } from './dossier.access';
import { DOSSIER_AZIONE_LABELS, DOSSIER_SECTION_LABELS, DOSSIER_STATO_LABELS, DOSSIER_STATO_TONES } from './dossier.labels';
import { listDossiers } from './dossier.repo';
import { sendDownload } from './dossier.routes';
import { downloadQuery, generateDossierSchema, listDossiersQuery } from './dossier.schemas';
import { dossierDetail, downloadDossier, downloadUrl, generateDossier, transitionDossier } from './dossier.service';

const labels = { stato: DOSSIER_STATO_LABELS, statoTone: DOSSIER_STATO_TONES, azione: DOSSIER_AZIONE_LABELS, sezione: DOSSIER_SECTION_LABELS };
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});
const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
const sectionOptions = (chosen: readonly string[]) => DOSSIER_SECTIONS.map((s) => ({ value: s, label: DOSSIER_SECTION_LABELS[s], checked: chosen.includes(s), required: s === 'identita' }));

/** Staff pages of customer dossiers (docs/dossier.md). Without JavaScript every action is a form: post, redirect, flash. */
export const registerDossierPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.get('/dossier', staff(DOSSIER_READERS), async (ctx) => {
    const parsed = listDossiersQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : listDossiersQuery.parse({});
    const result = await tx(ctx, (trx) => listDossiers(trx, tenantOf(ctx), q));
    render(ctx, views, 'dossier/list.njk', {
      result, labels, query: { stato: q.stato, cod_anagrafe: q.cod_anagrafe, q: q.q }, filters: { stato: q.stato ?? '', q: q.q ?? '', cod_anagrafe: q.cod_anagrafe ?? '' },
      invalid: parsed.success ? null : 'Filtri non validi: mostro tutti i fascicoli',
    });
  });

  const renderBuilder = async (ctx: Ctx, cod: string, chosen: readonly string[], errors: Record<string, string> = {}, status = 200) => {
    const customer = await tx(ctx, (trx) => getCustomer(trx, cod));
    if (!customer) throw new HttpError(404, 'NOT_FOUND', 'Cliente non trovato');
    render(ctx, views, 'dossier/builder.njk', { customer, sections: sectionOptions(chosen), errors }, { status });
  };

  router.get('/dossier/builder/:codAnagrafe', staff(DOSSIER_GENERATORS), (ctx) => renderBuilder(ctx, ctx.params.codAnagrafe!, DOSSIER_SECTIONS));

  router.post('/dossier/generate', staff(DOSSIER_GENERATORS), async (ctx) => {
    const body = formBody(ctx);
    const cod = typeof body.cod_anagrafe === 'string' ? body.cod_anagrafe.trim() : '';
    const chosen = asList(body.sezioni);
    const parsed = generateDossierSchema.safeParse({ cod_anagrafe: cod, sezioni: chosen });
    if (!cod) throw new HttpError(404, 'NOT_FOUND', 'Cliente non trovato');
    if (!parsed.success) return renderBuilder(ctx, cod, chosen, { sezioni: parsed.error.issues[0]!.message }, 422);
    try {
      const view = await generateDossier(deps, tenantOf(ctx), ctx.state.user!, parsed.data);
      redirectWithFlash(ctx, `/dossier/${view.id}`, 'success', `Fascicolo generato: ${view.pagine} pagine`);
    } catch (err) {
      if (err instanceof ValidationError && err.errors[0]?.path === 'cod_anagrafe') throw new HttpError(404, 'NOT_FOUND', 'Cliente non trovato');
      throw err;
    }
  });

  router.get('/dossier/download/:codAnagrafe', staff(DOSSIER_READERS), async (ctx) => {
    const parsed = downloadQuery.safeParse(ctx.query);
    if (!parsed.success) throw new HttpError(404, 'NOT_FOUND', 'Fascicolo non trovato');
    sendDownload(ctx, await downloadDossier(deps, tenantOf(ctx), ctx.state.user!, ctx.params.codAnagrafe!, parsed.data));
  });

  router.get('/dossier/:id', staff(DOSSIER_READERS), async (ctx) => {
    const d = await dossierDetail(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    const diagram = await stateDiagramView(dossierMachine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: DOSSIER_STATO_LABELS, actions: DOSSIER_AZIONE_LABELS }, title: 'Diagramma degli stati del fascicolo',
    });
    const names = await tx(ctx, (trx) => fullNamesByUsername(trx, [...d.events.map((e) => e.actor), d.created_by, d.signed_by]));
    const actions = d.allowed_actions.map((a) => ({
      action: a, label: DOSSIER_AZIONE_LABELS[a as DossierAction], url: `/dossier/${d.id}/azione/${a}`, variant: a === 'archive' ? 'secondary' : 'primary',
      ...(a === 'archive' ? { confirm: { title: 'Archiviare il fascicolo?', text: 'Un fascicolo archiviato resta scaricabile ma non si può più firmare.', confirmLabel: 'Sì, archivia' } } : {}),
    }));
    render(ctx, views, 'dossier/detail.njk', {
      d, labels, diagram, actions, names, workflow: d.workflow, pageDownload: downloadUrl(d, false),
      timelineItems: d.events.map((e) => ({ at: e.created_at, actor: names[e.actor] ?? e.actor, title: e.testo })),
      sezioni: (d.sezioni as DossierSection[]).map((s) => DOSSIER_SECTION_LABELS[s] ?? s),
      canGenerate: hasRole(ctx.state.user, DOSSIER_GENERATORS),
    });
  });

  router.post('/dossier/:id/azione/:action', staff(DOSSIER_READERS), async (ctx) => {
    const action = ctx.params.action as DossierAction;
    if (!(DOSSIER_ACTIONS as readonly string[]).includes(action)) throw new HttpError(404, 'NOT_FOUND', 'Azione sconosciuta');
    const back = `/dossier/${encodeURIComponent(ctx.params.id!)}`;
    try {
      const view = await transitionDossier(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, { action });
      // Signing goes straight to the ceremony: the compliance officer signs it now.
      if (action === 'sign' && view.signing_url) return ctx.redirect(view.signing_url);
    } catch (err) {
      if (err instanceof HttpError && err.status !== 404) return redirectWithFlash(ctx, back, 'danger', err.detail ?? err.title);
      throw err;
    }
    redirectWithFlash(ctx, back, 'success', `${DOSSIER_AZIONE_LABELS[action]}: fatto`);
  });
};
