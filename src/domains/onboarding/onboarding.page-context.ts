import type nunjucks from 'nunjucks';
import type { Deps } from '../../deps';
import { withTenant } from '../../db/tenant';
import { HttpError } from '../../http/errors';
import { render, type Ctx } from '../../http/render';
import { EDITABLE_STATES } from '../../../workflows/onboarding/onboarding.machine';
import { getSetting, loadPublicBrand, publicBrand, type PublicBrand } from '../admin';
import { caseView, loadCaseBundle, loadCustomerCase, type CaseView } from './onboarding.service';
import { APPLICANT, withRefusal } from '../../kit/access';

/**
 * What every applicant page needs: the case of the session (or a clear page when there is
 * none, or when the case can no longer be changed), and the form body as posted.
 */
export interface Loaded { view: CaseView; row: Awaited<ReturnType<typeof loadCustomerCase>>; brand: PublicBrand | null }

export const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
export const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[v.length - 1] === 'string' ? (v[v.length - 1] as string) : undefined);

/** The tenant the public pages serve: the link's `?azienda=`, else the installation's default. */
export const tenantParam = (deps: Deps, ctx: Ctx) => {
  const q = str(ctx.query.azienda)?.trim();
  return q && /^[A-Za-z0-9_-]{1,32}$/.test(q) ? q : deps.config.onboardingDefaultAzienda;
};

/** The tenant's public identity (name, logo) and whether it accepts online applications (null: no such tenant). */
export async function publicTenant(deps: Deps, codAzienda: string | undefined) {
  if (!codAzienda) return null;
  return withTenant(deps.db, { codAzienda, actor: 'cliente' }, async (trx) => {
    const brand = await publicBrand(trx, codAzienda);
    if (!brand) return null;
    return { cod_azienda: codAzienda, ragione_sociale: brand.nome, brand: { cod_azienda: codAzienda, nome: brand.nome, logoUrl: brand.logoUrl }, pubblico: !!(await getSetting(trx, 'onboarding.pubblico', codAzienda)) };
  });
}

/** The brand of the tenant a public page names (the link's or the session's), for the layout. */
export const brandOf = (deps: Deps, codAzienda: string | null | undefined) => loadPublicBrand(deps, codAzienda);

export function pageHelpers(deps: Deps, views: nunjucks.Environment) {
  /** The session's case with its documents and wallets, all from PostgreSQL; null when there is no session. */
  async function load(ctx: Ctx): Promise<Loaded | null> {
    const c = ctx.state.customer;
    if (!c) return null;
    try {
      const row = await loadCustomerCase(deps, ctx, c.caseId);
      const b = await loadCaseBundle(deps, row);
      return { row: b.row, view: caseView(b.row, b.docs, b.wallets, deps.config.sessionSecret), brand: await brandOf(deps, b.row.cod_azienda) };
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return null;
      throw err;
    }
  }

  /** No session: a page that says how to get back in (a resume link by e-mail); 401 says the same to a client. */
  async function noSession(ctx: Ctx) {
    const azienda = tenantParam(deps, ctx);
    render(ctx, views, 'onboarding/sessione.njk', { azienda, brand: await brandOf(deps, azienda), errors: {}, values: {} }, { status: 401 });
  }

  /** A case that ended (expired, erased) has its own page; there is nothing left to edit. */
  function closed(ctx: Ctx, l: Loaded) {
    render(ctx, views, 'onboarding/chiusa.njk', { c: l.view, brand: l.brand, azienda: l.row.cod_azienda });
  }

  /**
   * The case for a wizard page: only while it can be changed. Answers the request itself
   * (and returns null) when there is no session, the case ended, or it was submitted.
   */
  async function editable(ctx: Ctx): Promise<Loaded | null> {
    const l = await load(ctx);
    if (!l) { await noSession(ctx); return null; }
    if (l.view.stato === 'expired' || l.view.stato === 'erased') { closed(ctx, l); return null; }
    if (!EDITABLE_STATES.includes(l.view.stato)) {
      ctx.redirect('/onboarding/stato');
      return null;
    }
    return l;
  }

  /** The applicant's pages: their session or the page that explains how to get back in. */
  const applicantPage = withRefusal(APPLICANT, noSession);

  return { load, noSession, closed, editable, applicantPage };
}
