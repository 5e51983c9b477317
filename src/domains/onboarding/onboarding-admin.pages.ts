import { hasRole } from '../../http/auth';
import { DOCUMENT_READERS } from './onboarding-admin.routes';
import type { z } from 'zod';
import { STAFF_READ } from '../../kit/roles';
import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { HttpError } from '../../http/errors';
import { isHtmx, redirectWithFlash, render, type Ctx } from '../../http/render';
import { stateDiagramView } from '../../http/state-diagram';
import { fieldErrors } from '../../http/validate';
import { onboardingMachine } from '../../../workflows/onboarding/onboarding.machine';
import { rolesFor } from '../../kit/process';
import type { RegisterRoutes } from '../../kit/area';
import {
  AZIONE_LABELS, CANALE_LABELS, CERIMONIA_LABELS, CERIMONIA_SCOPO_LABELS, CONTROLLO_LABELS, DOCUMENTO_LABELS, PROVA_LABELS,
  REJECTION_MESSAGES, RISCHIO_LABELS, RISCHIO_TONES, RUOLO_PAESE_LABELS, RUOLO_SOGGETTO_LABELS, SOGGETTO_LABELS, STATO_LABELS, STATO_TONES, TRAVEL_RULE_LABELS,
  WALLET_STATO_LABELS, WALLET_STATO_TONES, WALLET_TIPO_LABELS,
} from './onboarding-admin.labels';
import {
  adminListQuery, fieldGroups, fieldRows, listOnboardingCases, noteBody, onboardingDetail, rejectBody, requestInfoBody, reviewOnboarding, revokeWalletBody,
  type OnboardingDetail, type ReviewAction,
} from './onboarding-admin.service';
import { staff } from '../../kit/access';
import { CHART_WEEKS, onboardingCharts } from './onboarding-admin.charts';
import { listaLabel } from '../screening';
import { onboardingTimeline } from './onboarding-admin.timeline';

const BASE = '/admin/onboarding/cases';
const labels = {
  stato: STATO_LABELS, statoTone: STATO_TONES, rischio: RISCHIO_LABELS, rischioTone: RISCHIO_TONES, soggetto: SOGGETTO_LABELS,
  documento: DOCUMENTO_LABELS, walletStato: WALLET_STATO_LABELS, walletTone: WALLET_STATO_TONES, walletTipo: WALLET_TIPO_LABELS,
  prova: PROVA_LABELS, canale: CANALE_LABELS, ruoloPaese: RUOLO_PAESE_LABELS, controllo: CONTROLLO_LABELS, travelRule: TRAVEL_RULE_LABELS,
  cerimonia: CERIMONIA_LABELS, cerimoniaScopo: CERIMONIA_SCOPO_LABELS, azione: AZIONE_LABELS, ruoloSoggetto: RUOLO_SOGGETTO_LABELS,
  lista: listaLabel,
};
const formBody = (ctx: Ctx) => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {});

/** Which form of the detail page an error or a typed value belongs to. */
type FormName = 'approva' | 'completa' | 'respingi' | 'informazioni' | 'revoca';
interface FormState { form?: FormName; walletId?: string; values?: Record<string, unknown>; errors?: Record<string, string> }

/** Staff pages of the onboarding review. Without JavaScript every decision is a form: post, redirect, flash. */
export const registerOnboardingAdminPages: RegisterRoutes = (router, { deps, views }) => {
  router.get(BASE, staff(STAFF_READ), async (ctx) => {
    const parsed = adminListQuery.safeParse(ctx.query);
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    const q = parsed.success ? parsed.data : adminListQuery.parse({});
    // The charts count the whole tenant, not the filtered rows; an htmx filter swaps only the table, so it does not read them.
    const { result, charts } = await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, async (trx) => ({
      result: await listOnboardingCases(trx, tenantOf(ctx), q),
      charts: isHtmx(ctx) ? undefined : await onboardingCharts(trx, tenantOf(ctx)),
    }));
    const raw = ctx.query as Record<string, string | undefined>;
    const filters = {
      q: raw.q ?? '', stato: raw.stato ?? '', rischio: raw.rischio ?? '', tipo_soggetto: raw.tipo_soggetto ?? '', from: raw.from ?? '', to: raw.to ?? '', sort: q.sort,
    };
    render(ctx, views, 'admin-onboarding/list.njk', { result, filters, errors, labels, charts, chartWeeks: CHART_WEEKS }, { fragment: 'admin-onboarding/_table.njk' });
  });

  const showDetail = async (ctx: Ctx, state: FormState = {}, status = 200) => {
    const d = await onboardingDetail(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!);
    const diagram = await stateDiagramView(onboardingMachine, {
      current: d.stato, allowed: d.allowed_actions, labels: { states: STATO_LABELS, actions: AZIONE_LABELS }, title: 'Diagramma degli stati della pratica di onboarding',
    });
    const owners = d.titolari.map((t) => ({ nome: [t.nome, t.cognome].filter(Boolean).join(' ') || 'Titolare effettivo', pep: t.pep === true, rows: fieldRows(t, ['id', 'nome', 'cognome']) }));
    const risk = (d.risk ?? {}) as { fattori?: { codice: string; descrizione: string; punti: number }[]; secondApprovalRequired?: boolean; modello?: string; screeningMatches?: number; walletHits?: number };
    const screening = (d.screening ?? {}) as { soggetti?: { riferimento?: string; nome?: string; hits?: Record<string, unknown>[] }[] };
    const timelineItems = await withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => onboardingTimeline(trx, d.timeline));
    render(ctx, views, 'admin-onboarding/detail.njk', {
      c: d, labels, diagram, owners, risk, screening, anagrafeGroups: fieldGroups(d.anagrafe), canDownload: hasRole(ctx.state.user!, DOCUMENT_READERS),
      travelRuleRows: fieldRows((d.travel_rule.dichiarazione ?? {}) as Record<string, unknown>, ['id', 'versione']),
      timelineItems, pendingWallets: d.wallets.filter((w) => w.stato === 'pending').length, allowed: d.allowed_actions, form: state, workflow: d.workflow,
    }, { status });
  };

  router.get(`${BASE}/:id`, staff(STAFF_READ), (ctx) => showDetail(ctx));

  /**
   * One decision of the detail page. Bad input comes back on the page with the message
   * next to the field and what was typed; a refusal of the process (409, 403) comes back
   * as a message in Italian; a missing case or wallet stays a 404 page.
   */
  const action = <S extends z.ZodType>(
    path: string, schema: S, form: FormName, act: ReviewAction,
    toInput: (v: z.infer<S>, ctx: Ctx) => Record<string, string | undefined>, done: (d: OnboardingDetail) => string,
    // Who may ask is who the machine lets take the action in some state; it decides the rest.
  ) => router.post(`${BASE}/:id/${path}`, staff(rolesFor(onboardingMachine, act)), async (ctx) => {
    const back = `${BASE}/${encodeURIComponent(ctx.params.id!)}`;
    const body = formBody(ctx);
    const walletId = ctx.params.walletId;
    const parsed = schema.safeParse(body);
    if (!parsed.success) return showDetail(ctx, { form, walletId, values: body, errors: fieldErrors(parsed.error) }, 422);
    let d: OnboardingDetail;
    try {
      d = await reviewOnboarding(deps, tenantOf(ctx), ctx.state.user!, ctx.params.id!, act, toInput(parsed.data, ctx));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404) throw err;
      const message = REJECTION_MESSAGES[err.code] ?? (err.status === 422 ? REJECTION_MESSAGES.MISSING_FIELDS : undefined);
      if (!message) throw err;
      return redirectWithFlash(ctx, back, 'danger', message);
    }
    redirectWithFlash(ctx, back, 'success', done(d));
  });

  action('approva', noteBody, 'approva', 'approve', (v) => ({ note: v.note }),
    (d) => (d.stato === 'pending_second_approval' ? 'Prima approvazione registrata: serve la conferma di un altro responsabile antiriciclaggio' : 'Pratica approvata: cliente e rapporto creati'));
  action('completa-approvazione', noteBody, 'completa', 'complete-approval', (v) => ({ note: v.note }), () => 'Approvazione confermata: cliente e rapporto creati');
  action('respingi', rejectBody, 'respingi', 'reject', (v) => ({ reason: v.reason }), () => 'Pratica respinta');
  action('richiedi-informazioni', requestInfoBody, 'informazioni', 'request-info', (v) => ({ message: v.message }),
    () => 'Richiesta inviata: il cliente riceve un nuovo link per completare la pratica');
  action('wallet/:walletId/verifica', noteBody, 'revoca', 'wallet-verify', (v, ctx) => ({ wallet_id: ctx.params.walletId, note: v.note }), () => 'Wallet verificato');
  action('wallet/:walletId/revoca', revokeWalletBody, 'revoca', 'wallet-revoke', (v, ctx) => ({ wallet_id: ctx.params.walletId, reason: v.reason }), () => 'Wallet revocato');
};
