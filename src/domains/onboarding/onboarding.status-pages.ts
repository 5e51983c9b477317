import type { AppServices } from '../../kit/area';
import { HttpError } from '../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../http/render';
import { EDITABLE_STATES } from '../../../workflows/onboarding/onboarding.machine';
import { errorSummary, zodErrors } from './onboarding.forms';
import { formBody, pageHelpers, publicTenant, str, tenantParam } from './onboarding.page-context';
import { requiredDocuments, startCaseSchema } from './onboarding.schemas';
import { completeSubmission, eraseCase, issueMagicLink, startCase } from './onboarding.service';
import { PUBLIC_LINK_ANSWER, requestLinkFromForm } from './onboarding.links';
import { STEP_TITLES, stepUrl } from './onboarding.steps';
import { applicationIssues, issueText } from './onboarding.wizard';
import { DOCUMENT_TYPES } from './onboarding.schemas';
import type { Routes } from '../../kit/routes';
import { PUBLIC } from '../../kit/access';

/** How the applicant sees the case's status (reviewers' working states are not told apart). */
export const STATO_CLIENTE: Record<string, { label: string; tone: string }> = {
  draft: { label: 'Bozza da completare', tone: 'secondary' },
  info_requested: { label: 'Informazioni richieste', tone: 'yellow' },
  submitted: { label: 'Inviata: firma delle dichiarazioni in attesa', tone: 'cyan' },
  in_review: { label: 'In revisione', tone: 'blue' },
  pending_second_approval: { label: 'In revisione', tone: 'blue' },
  approved: { label: 'Approvata', tone: 'green' },
  rejected: { label: 'Non accolta', tone: 'red' },
  expired: { label: 'Scaduta', tone: 'secondary' },
  erased: { label: 'Cancellata', tone: 'secondary' },
};

const START_LABELS = { email: 'Indirizzo e-mail', privacy: 'Informativa sul trattamento dei dati' };
const landingUrl = (codAzienda: string | undefined) => `/onboarding/${codAzienda ? `?azienda=${encodeURIComponent(codAzienda)}` : ''}`;
/** The documents the landing page lists, per subject type (the same rules submission applies). */
const documentsNeeded = () => (['persona_fisica', 'ditta_individuale', 'societa'] as const).map((t) => ({
  tipo: t, documenti: [...new Set(requiredDocuments(t, [{ id: 'x', nome: '', cognome: '' }]).map((d) => d.tipo === 'documento_identita' && d.riferimento !== 'soggetto' ? 'Documento d\'identità di ciascun titolare effettivo' : d.descrizione))],
}));

/**
 * The public pages around the wizard: the landing page (start a case, ask for a resume
 * link), the status page (what is missing, the signing link while the declarations wait
 * for a signature, the reviewer's request, erasure of a draft) and the completion page.
 */
export function registerOnboardingStatusPages(router: Routes, { deps, views }: AppServices) {
  const { load, noSession, closed, applicantPage } = pageHelpers(deps, views);

  const landing = async (ctx: Ctx, o: { values?: Record<string, string>; errors?: Record<string, string>; resumeValues?: Record<string, string>; resumeErrors?: Record<string, string>; status?: number; azienda?: string } = {}) => {
    const azienda = o.azienda ?? tenantParam(deps, ctx);
    const tenant = await publicTenant(deps, azienda);
    const current = await load(ctx);
    render(ctx, views, 'onboarding/landing.njk', {
      azienda, tenant, brand: tenant?.brand ?? null, current: current && current.view.stato !== 'expired' ? current.view : null, documentsNeeded: documentsNeeded(),
      values: o.values ?? {}, errors: o.errors ?? {}, summary: errorSummary(Object.fromEntries(Object.entries(o.errors ?? {}).filter(([k]) => k !== '_form')), START_LABELS), resumeValues: o.resumeValues ?? {}, resumeErrors: o.resumeErrors ?? {},
    }, { status: o.status ?? (tenant ? 200 : 404) });
  };

  router.get('/onboarding/', PUBLIC, (ctx) => landing(ctx));
  router.get('/onboarding', PUBLIC, (ctx) => ctx.redirect(`/onboarding/${ctx.querystring ? `?${ctx.querystring}` : ''}`));

  router.post('/onboarding/', PUBLIC, async (ctx) => {
    const body = formBody(ctx);
    const azienda = str(body.azienda) || undefined;
    const values = { email: str(body.email) ?? '', privacy: str(body.privacy) ?? '' };
    const parsed = startCaseSchema.safeParse({ email: values.email, privacy: values.privacy || 'false' });
    if (!parsed.success) return landing(ctx, { values, errors: zodErrors(parsed.error), status: 422, azienda });
    try {
      await startCase(deps, ctx, { email: parsed.data.email, cod_azienda: azienda });
    } catch (err) {
      if (err instanceof HttpError && (err.status === 404 || err.status === 403)) {
        return landing(ctx, { values, errors: { _form: err.status === 404 ? 'Questo modulo di richiesta non è disponibile.' : err.detail ?? 'Richieste online non disponibili.' }, status: err.status, azienda });
      }
      throw err;
    }
    redirectWithFlash(ctx, stepUrl(0), 'success', 'Richiesta aperta. Compila i passi: puoi salvare e riprendere quando vuoi.');
  });

  router.post('/onboarding/riprendi', PUBLIC, async (ctx) => {
    const body = formBody(ctx);
    const azienda = str(body.azienda) || undefined;
    const resumeValues = { email: str(body.email) ?? '' };
    const r = await requestLinkFromForm(deps, ctx, { email: resumeValues.email, cod_azienda: azienda });
    if (!r.ok) return landing(ctx, { resumeValues, resumeErrors: r.errors, status: r.status, azienda });
    redirectWithFlash(ctx, landingUrl(azienda), 'info', PUBLIC_LINK_ANSWER.detail);
  });

  router.get('/onboarding/stato', applicantPage, async (ctx) => {
    const l = await load(ctx);
    if (!l) return noSession(ctx);
    if (l.view.stato === 'expired' || l.view.stato === 'erased') return closed(ctx, l);
    const v = l.view;
    const editable = EDITABLE_STATES.includes(v.stato);
    const issues = editable ? applicationIssues(v).map((i) => ({ ...i, testo: issueText(v.tipo_soggetto, i), titolo: STEP_TITLES[i.step] ?? '', url: stepUrl(i.step) })) : [];
    const travelRuleToComplete = editable && v.travel_rule.stato === 'signed';
    const next = travelRuleToComplete ? 7 : issues.length ? Math.min(...issues.map((i) => i.step)) : 8;
    render(ctx, views, 'onboarding/stato.njk', {
      c: v, brand: l.brand, stato: STATO_CLIENTE[v.stato], editable, issues, nextUrl: stepUrl(next), travelRuleToComplete,
      canErase: v.allowed_actions.includes('erase'), errors: {}, documentLabels: DOCUMENT_TYPES,
      // A signed ceremony completes the submission by itself within moments: the page refreshes until it has.
      completing: v.stato === 'submitted' && v.dichiarazioni?.stato === 'signed',
      declarationsEnded: v.stato === 'submitted' && v.dichiarazioni?.stato === 'ended',
    }, { fragment: ctx.get('HX-Target') === 'stato-pratica' ? 'onboarding/_stato.njk' : undefined });
  });

  /** A resume link to the case's e-mail address (the same channel a stranger would use). */
  router.post('/onboarding/stato/link', applicantPage, async (ctx) => {
    const l = await load(ctx);
    if (!l) return noSession(ctx);
    try {
      await issueMagicLink(deps, ctx, { email: l.view.email ?? '', cod_azienda: l.row.cod_azienda });
    } catch (err) {
      if (err instanceof HttpError && err.status === 429) return redirectWithFlash(ctx, '/onboarding/stato', 'warning', err.detail ?? 'Troppe richieste: riprova più tardi.');
      throw err;
    }
    redirectWithFlash(ctx, '/onboarding/stato', 'success', `Ti abbiamo inviato il link per riprendere la richiesta all'indirizzo ${l.view.email}.`);
  });

  /** The declarations' signature again: the ceremony still waiting, or a fresh one if the last expired. */
  router.post('/onboarding/stato/firma', applicantPage, async (ctx) => {
    const l = await load(ctx);
    if (!l) return noSession(ctx);
    try {
      const r = await completeSubmission(deps, l.row);
      if (r.done) return ctx.redirect('/onboarding/completato');
      return ctx.redirect(r.firma.signing_path);
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, '/onboarding/stato', 'warning', 'Non c\'è alcuna firma in attesa per questa richiesta.');
      throw err;
    }
  });

  router.post('/onboarding/stato/cancella', applicantPage, async (ctx) => {
    const l = await load(ctx);
    if (!l) return noSession(ctx);
    if (!str(formBody(ctx).conferma)) {
      return redirectWithFlash(ctx, '/onboarding/stato#cancella', 'danger', 'Per cancellare la richiesta spunta la casella di conferma.');
    }
    const azienda = l.row.cod_azienda;
    try {
      await eraseCase(deps, ctx, l.row);
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) return redirectWithFlash(ctx, '/onboarding/stato', 'warning', err.detail ?? 'La richiesta non può più essere cancellata.');
      throw err;
    }
    redirectWithFlash(ctx, landingUrl(azienda), 'success', 'La tua richiesta e i dati inseriti sono stati cancellati.');
  });

  router.get('/onboarding/completato', applicantPage, async (ctx) => {
    const l = await load(ctx);
    if (!l) return noSession(ctx);
    if (l.view.stato === 'expired' || l.view.stato === 'erased') return closed(ctx, l);
    if (EDITABLE_STATES.includes(l.view.stato) || l.view.stato === 'submitted') return ctx.redirect('/onboarding/stato');
    render(ctx, views, 'onboarding/completato.njk', { c: l.view, brand: l.brand, stato: STATO_CLIENTE[l.view.stato] });
  });
}
