import { z } from 'zod';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { notFound } from '../../../http/errors';
import { render, type Ctx } from '../../../http/render';
import { stateDiagramView } from '../../../http/state-diagram';
import { fieldErrors } from '../../../http/validate';
import { staff } from '../../../kit/access';
import { staffActor } from '../../../kit/actor';
import type { AppServices, RegisterRoutes } from '../../../kit/area';
import { listParamsShape, runList, tenantScope, type ListRequest } from '../../../kit/list';
import { STAFF_READ } from '../../../kit/roles';
import { allowedActions } from '../../../../workflows/lib/machine';
import { verificationMachine } from '../../../../workflows/verification/verification.machine';
import { COUNTRY_OPTIONS } from '../../onboarding';
import { TIPO_DOCUMENTO_LABELS, STATO_DOCUMENTO_LABELS } from '../../records';
import { CHECK_EDITORS, CHECK_WAIVERS, verificationsList } from '../kyc-kyb';
import { structureSection } from './console.structure';
import {
  ESITO_DOCUMENTO_LABELS, FORME_GIURIDICHE, FORMA_GIURIDICA_LABELS, ORIGINI_VERIFICA, STATI_VERIFICA, STATO_VERIFICA_LABELS, type TipoVerifica,
} from '../verifications.vocabulary';
import { declaredView, profileFormValues, profileRows } from './console.declared';
import { DOCUMENT_DOWNLOADERS } from './console.downloads';
import { AZIONE_LABELS, CONSOLE_LABELS, KIND_WORDS } from './console.labels';
import { consoleDocuments, consoleTimeline, customerOf, peopleNames, VERIFICATION_CODE } from './console.reads';

/** A select of the filter form: empty is no filter; anything else must be one of its values. */
const choice = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** The list page's query: the list's filters as the form sends them. */
const listQuery = z.object({
  stato: choice(z.enum(STATI_VERIFICA, { message: 'Stato non valido' })),
  origine: choice(z.enum(ORIGINI_VERIFICA, { message: 'Origine non valida' })),
  q: z.string().trim().max(200, 'Massimo 200 caratteri').optional().transform((v) => v || undefined),
  ...listParamsShape(verificationsList),
});

/** What a page action that failed brings back to the detail page: which form, its errors and values, or a refusal. */
export interface PageProblem {
  /** The console's own forms, or part ubo's structure forms (struttura-nodo, struttura-arco, struttura-calcolo) drawn by its partial. */
  form: 'azioni' | 'profilo' | `check-${string}` | `deroga-${string}` | `struttura-${string}`;
  errors?: Record<string, string>;
  values?: Record<string, unknown>;
  message?: string;
}

/** Who may edit a KYB's company profile: those who record the checks (part kyc's updateProfile). */
const PROFILE_EDITORS = CHECK_EDITORS;

const has = (ctx: Ctx, roles: readonly string[]) => ctx.state.user!.ruoli.some((r) => roles.includes(r));

/** The detail page of one verification, as the GET draws it and as a failed POST draws it again (with the problem). */
export async function renderVerification(ctx: Ctx, services: AppServices, tipo: TipoVerifica, cod: string, problem?: PageProblem, status = 200) {
  const { deps, views } = services;
  const tenant = tenantOf(ctx);
  if (!VERIFICATION_CODE[tipo].test(cod)) throw notFound('Verifica', 'f');
  const data = await withTenant(deps.db, { codAzienda: tenant, actor: ctx.state.user!.username }, async (trx) => {
    const v = await trx('verifiche').where({ cod_azienda: tenant, tipo, cod_verifica: cod }).first();
    if (!v) return undefined;
    const checks = tipo === 'kyb'
      ? await trx('verifiche_checks').where({ cod_azienda: tenant, verifica_id: v.id }).orderBy('cod_check')
      : [];
    const documents = await consoleDocuments(trx, tenant, v.id);
    const timeline = await consoleTimeline(trx, tenant, v.id, checks.map((c: { id: string }) => c.id), documents.map((d) => d.id));
    const names = await peopleNames(trx, [v.started_by, v.decided_by, v.created_by, ...checks.map((c: { waived_by: string | null; updated_by: string | null }) => c.waived_by ?? c.updated_by)]);
    const structure = tipo === 'kyb' ? await structureSection(trx, tenant, v, ctx.state.user!.ruoli) : null;
    return { v, checks, documents, timeline, names, customer: await customerOf(trx, tenant, v.cod_anagrafe), structure };
  });
  if (!data) throw notFound('Verifica', 'f');
  const { v } = data;
  const actor = staffActor(ctx.state.user!);
  // Buttons from the machine: the user actions this user may take now (expire is the timer's).
  const allowed = allowedActions(verificationMachine, v.stato, actor).filter((a) => a !== 'expire');
  const diagram = await stateDiagramView(verificationMachine, {
    current: v.stato, allowed, labels: { states: STATO_VERIFICA_LABELS, actions: AZIONE_LABELS }, title: `Stati della verifica ${cod}`,
  });
  const open = v.stato === 'pending' || v.stato === 'in_progress';
  const blocking = data.checks.filter((c: { stato: string }) => c.stato === 'pending' || c.stato === 'failed');
  const words = KIND_WORDS[tipo];
  const p = problem ?? null;
  render(ctx, views, 'verifiche/console/detail.njk', {
    tipo, words, v, customer: data.customer ?? null, checks: data.checks, blocking, documents: data.documents, timelineItems: data.timeline,
    names: data.names, allowed, diagram, workflow: { id: v.workflow_id, url: deps.temporal.webUiLink(v.workflow_id) },
    declared: declaredView(v.dati_dichiarati), profile: profileRows(v.profilo),
    profileValues: p?.form === 'profilo' ? p.values ?? {} : profileFormValues(v.profilo),
    labels: { ...CONSOLE_LABELS, documento: TIPO_DOCUMENTO_LABELS, documentoStato: STATO_DOCUMENTO_LABELS, esitoDocumento: ESITO_DOCUMENTO_LABELS },
    formeOptions: [{ value: '', label: 'Scegli…' }, ...FORME_GIURIDICHE.map((f) => ({ value: f, label: FORMA_GIURIDICA_LABELS[f] }))],
    countryOptions: [{ value: '', label: 'Scegli…' }, ...COUNTRY_OPTIONS.map((c) => ({ value: c.code, label: c.nome }))],
    canEditChecks: open && has(ctx, CHECK_EDITORS), canWaive: open && has(ctx, CHECK_WAIVERS), canEditProfile: open && has(ctx, PROFILE_EDITORS),
    canDownload: has(ctx, DOCUMENT_DOWNLOADERS), structure: data.structure, problem: p,
  }, { status });
}

/** The consoles' GET pages: /admin/kyc and /admin/kyb (list kit, filters, htmx) and each verification's page. */
export const registerConsolePages: RegisterRoutes = (router, services) => {
  const { deps, views } = services;
  for (const tipo of ['kyc', 'kyb'] as const) {
    const base = `/admin/${tipo}`;
    router.get(base, staff(STAFF_READ), async (ctx) => {
      const parsed = listQuery.safeParse(ctx.query);
      // A filter the form cannot send (a hand-edited address) is dropped with its message; the list still answers.
      const q = parsed.success ? parsed.data : listQuery.parse({});
      const errors = parsed.success ? {} : fieldErrors(parsed.error);
      const tenant = tenantOf(ctx);
      const { result, customers } = await withTenant(deps.db, { codAzienda: tenant, actor: ctx.state.user!.username }, async (trx) => {
        const page = await runList<{ cod_anagrafe: string }>(trx, verificationsList, tenantScope(tenant), { ...q, tipo } as ListRequest);
        const codes = [...new Set(page.items.map((r) => r.cod_anagrafe))];
        const rows = codes.length ? await trx('anagrafe').where('cod_azienda', tenant).whereIn('cod_anagrafe', codes).select('cod_anagrafe', 'denominazione') : [];
        return { result: page, customers: Object.fromEntries(rows.map((r: { cod_anagrafe: string; denominazione: string }) => [r.cod_anagrafe, r.denominazione])) };
      });
      const filters = { q: q.q ?? '', stato: q.stato ?? '', origine: q.origine ?? '', sort: q.sort };
      render(ctx, views, 'verifiche/console/list.njk', {
        tipo, words: KIND_WORDS[tipo], base, result, customers, filters, errors, labels: CONSOLE_LABELS,
      }, { fragment: 'verifiche/console/_table.njk' });
    });

    router.get(`${base}/:cod_verifica`, staff(STAFF_READ), (ctx) => renderVerification(ctx, services, tipo, ctx.params.cod_verifica!));
  }
};
