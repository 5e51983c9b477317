import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { userNames } from '../../../kit/users';
import { CLASSI } from '../risk.types';
import { byClassChart, classHeatmap, countryChart, countryLabel, monthlyClasses, scoreHistogram, segmentChart } from './views.charts';
import {
  CLASSE_LABELS, CLASSE_TONES, ESECUZIONE_STATO_LABELS, ESECUZIONE_STATO_TONES, ESECUZIONE_TIPO_LABELS, IMPATTO_LABELS, MOTIVO_VALUTAZIONE_LABELS,
  PROBABILITA_LABELS, SEGMENTO_LABELS, STATO_VALUTAZIONE_LABELS, STATO_VALUTAZIONE_TONES,
} from './views.labels';
import { assessmentsInState, countInState, lastPortfolioRun, latestClassChanges } from './views.overview';
import { distribution, heatmap, matrix, portfolio } from './views.portfolio';
import { cellOf, listMatrixCell } from './views.repo';
import { matrixCellQuery } from './views.schemas';
import { canConfirmOverride } from './views.roles';

export const labels = {
  classe: CLASSE_LABELS, classeTone: CLASSE_TONES, stato: STATO_VALUTAZIONE_LABELS, statoTone: STATO_VALUTAZIONE_TONES, motivo: MOTIVO_VALUTAZIONE_LABELS,
  segmento: SEGMENTO_LABELS, probabilita: PROBABILITA_LABELS, impatto: IMPATTO_LABELS,
  esecuzioneTipo: ESECUZIONE_TIPO_LABELS, esecuzioneStato: ESECUZIONE_STATO_LABELS, esecuzioneTone: ESECUZIONE_STATO_TONES,
};

/** How strong a matrix cell is: the product of probability and impact, in four tones (1–2 low ... 9–16 high). */
export const cellTone = (p: number, i: number) => { const s = p * i; return s <= 2 ? 'green' : s <= 4 ? 'lime' : s <= 8 ? 'orange' : 'red'; };

const COUNTRY_TOP = 20;
const WAITING_RELEASE = ['completed', 'overridden'] as const;

/** The portfolio's read pages: overview, portfolio, heatmap, matrix and its cells, the overrides waiting for confirmation. */
export const registerRiskViewPages: RegisterRoutes = (router, { deps, views }) => {
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.get('/rischio', staff(STAFF_READ), async (ctx) => {
    const tenant = tenantOf(ctx);
    const data = await tx(ctx, async (trx) => {
      // One after the other: the queries share the transaction's connection.
      const p = await portfolio(trx, tenant);
      const pending = await assessmentsInState(trx, tenant, ['override_pending'], 5);
      const pendingCount = await countInState(trx, tenant, ['override_pending']);
      const toRelease = await assessmentsInState(trx, tenant, WAITING_RELEASE, 5);
      const toReleaseCount = await countInState(trx, tenant, WAITING_RELEASE);
      const changes = await latestClassChanges(trx, tenant, 8);
      const run = await lastPortfolioRun(trx, tenant);
      const names = await userNames(trx, [...pending.map((a) => a.override_by), run?.started_by]);
      return { p, pending, pendingCount, toRelease, toReleaseCount, changes, run, names };
    });
    const kpis = CLASSI.map((c) => ({ key: c, label: `Rischio ${CLASSE_LABELS[c].toLowerCase()}`, value: data.p.per_classe[c], tone: CLASSE_TONES[c], href: `/anagrafe?classe_rischio=${c}` }));
    render(ctx, views, 'rischio/overview.njk', { ...data, kpis, labels, classChart: byClassChart(data.p.per_classe) });
  });

  router.get('/rischio/portfolio', staff(STAFF_READ), async (ctx) => {
    const tenant = tenantOf(ctx);
    const { p, d } = await tx(ctx, async (trx) => ({ p: await portfolio(trx, tenant), d: await distribution(trx, tenant) }));
    render(ctx, views, 'rischio/portfolio.njk', {
      p, labels, countryTop: COUNTRY_TOP,
      charts: { classi: byClassChart(p.per_classe), segmenti: segmentChart(p), paesi: countryChart(p, COUNTRY_TOP), fasce: scoreHistogram(d), mesi: monthlyClasses(d) },
      months: d.mesi.length,
    });
  });

  router.get('/rischio/heatmap', staff(STAFF_READ), async (ctx) => {
    const h = await tx(ctx, (trx) => heatmap(trx, tenantOf(ctx)));
    const segmenti = classHeatmap(h.segmenti.map((s) => ({ label: SEGMENTO_LABELS[s.segmento] ?? s.segmento, per_classe: s.per_classe })));
    const paesi = classHeatmap(h.paesi.slice(0, COUNTRY_TOP).map((s) => ({ label: countryLabel(s.paese), per_classe: s.per_classe })), 'orange');
    render(ctx, views, 'rischio/heatmap.njk', { h, segmenti, paesi, countryTop: COUNTRY_TOP, otherCountries: Math.max(0, h.paesi.length - COUNTRY_TOP), labels });
  });

  router.get('/rischio/matrice', staff(STAFF_READ), async (ctx) => {
    const m = await tx(ctx, (trx) => matrix(trx, tenantOf(ctx)));
    // Probability 4 on top (the riskiest row first), impact 1..4 left to right.
    const rows = [4, 3, 2, 1].map((p) => ({ p, label: PROBABILITA_LABELS[p], cells: [1, 2, 3, 4].map((i) => ({ p, i, n: m.celle[p - 1]![i - 1]!, tone: cellTone(p, i) })) }));
    render(ctx, views, 'rischio/matrix.njk', { m, rows, impatti: [1, 2, 3, 4].map((i) => ({ i, label: IMPATTO_LABELS[i] })), labels });
  });

  router.get('/rischio/matrice/:p/:i', staff(STAFF_READ), async (ctx) => {
    const cell = cellOf(ctx.params.p, ctx.params.i);
    const parsed = matrixCellQuery.safeParse(ctx.query);
    const q = parsed.success ? parsed.data : matrixCellQuery.parse({});
    const result = await tx(ctx, (trx) => listMatrixCell(trx, tenantOf(ctx), cell, q));
    const baseUrl = `/rischio/matrice/${cell.probabilita}/${cell.impatto}`;
    render(ctx, views, 'rischio/matrix-cell.njk', {
      cell, result, baseUrl, filters: { q: q.q ?? '', sort: q.sort }, invalid: !parsed.success, labels, tone: cellTone(cell.probabilita, cell.impatto),
    }, { fragment: 'rischio/_matrix-cell-table.njk' });
  });

  router.get('/rischio/approvazioni', staff(STAFF_READ), async (ctx) => {
    const tenant = tenantOf(ctx);
    const me = ctx.state.user!;
    // The home's tile links here with da_confermare=true: only what this user may confirm (not their own requests).
    const onlyMine = ctx.query.da_confermare === 'true';
    const { items, total, names } = await tx(ctx, async (trx) => {
      const rows = await assessmentsInState(trx, tenant, ['override_pending'], 200, onlyMine ? me.cod_utente : undefined);
      return { items: rows, total: await countInState(trx, tenant, ['override_pending'], onlyMine ? me.cod_utente : undefined), names: await userNames(trx, rows.map((r) => r.override_by)) };
    });
    render(ctx, views, 'rischio/approvals.njk', { items, total, names, labels, me: me.cod_utente, canConfirm: canConfirmOverride(me.ruoli), onlyMine });
  });
};
