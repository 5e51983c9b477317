import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import { HttpError, notFound } from '../../../http/errors';
import { redirectWithFlash, render, type Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { isUuid } from '../../../kit/ids';
import { STAFF_READ } from '../../../kit/roles';
import { CLASSI, type Classe } from '../risk.types';
import { cancelRun, startRun } from './runs.commands';
import { NESSUNA, type Riepilogo } from './runs.diff';
import { CLASSE_LABELS, CLASSE_TONES, STATO_RUN_LABELS, STATO_RUN_TONES, STATO_VERSIONE_LABELS, TIPO_RUN_LABELS } from './runs.labels';
import { getRun, listRunResults, listRuns, type RunRow } from './runs.repo';
import { RUN_STARTERS, runView, versionNumbers } from './runs.routes';
import { listRunResultsQuery, startRunSchema } from './runs.schemas';

const BASE = '/rischio/scenari';
const labels = { tipo: TIPO_RUN_LABELS, stato: STATO_RUN_LABELS, tone: STATO_RUN_TONES, classe: CLASSE_LABELS, classeTone: CLASSE_TONES, versione: STATO_VERSIONE_LABELS };

interface VersionOption { id: string; versione: number; stato: string; descrizione: string }

/** The from→to matrix as the page draws it: rows the class in force (with "no class" when some had none), columns the new class. */
export function matrixView(r: Partial<Riepilogo>) {
  const from: (Classe | typeof NESSUNA)[] = [...(r.prima?.[NESSUNA] ? [NESSUNA] as const : []), ...CLASSI];
  return {
    columns: CLASSI.map((c) => ({ key: c, label: CLASSE_LABELS[c] })),
    rows: from.map((da) => ({
      key: da, label: CLASSE_LABELS[da], totale: r.prima?.[da] ?? 0,
      cells: CLASSI.map((a) => ({ key: a, n: r.matrice?.[da]?.[a] ?? 0, same: da === a })),
    })),
    totals: CLASSI.map((a) => r.dopo?.[a] ?? 0),
  };
}

const readRun = async (trx: Knex.Transaction, id: unknown): Promise<RunRow | undefined> => (typeof id === 'string' && isUuid(id) ? getRun(trx, id) : undefined);

/**
 * /rischio/scenari: simulate a version (usually the draft) over the whole portfolio, follow it,
 * then read the from→to class matrix and the customers that change with why; recalculate the
 * portfolio with the active version. Every action is a CSRF form posting to an extra route.
 */
export const registerRiskRunPages: RegisterRoutes = (router, { deps, views }) => {
  const page = async (ctx: Ctx, form: { versione_id?: string } = {}, errors: Record<string, string> = {}, status = 200) => {
    const codAzienda = tenantOf(ctx);
    const actor = ctx.state.user!.username;
    const data = await withTenant(deps.db, { codAzienda, actor }, async (trx) => {
      const versioni = await trx('rischio_versioni').where({ cod_azienda: codAzienda })
        .orderByRaw("case stato when 'draft' then 0 when 'active' then 1 else 2 end").orderBy('versione', 'desc')
        .select('id', 'versione', 'stato', 'descrizione') as VersionOption[];
      const runs = await listRuns(trx, codAzienda, { sort: '-started_at', limit: 10, offset: 0 });
      const numbers = await versionNumbers(trx, runs.items.map((r) => r.versione_id));
      // The run shown: the one asked for, else the latest dry run.
      const chosen = ctx.query.esecuzione !== undefined ? await readRun(trx, ctx.query.esecuzione) : runs.items.find((r) => r.tipo === 'simulazione');
      if (ctx.query.esecuzione !== undefined && !chosen) throw notFound('Esecuzione');
      const numbersAll = chosen ? new Map([...numbers, ...(await versionNumbers(trx, [chosen.versione_id]))]) : numbers;
      const run = chosen ? runView(deps, chosen, numbersAll) : null;
      const q = listRunResultsQuery.safeParse({ cambia: 'true', ...ctx.query });
      const filters = q.success ? q.data : listRunResultsQuery.parse({ cambia: 'true' });
      const results = run && run.stato !== 'running' ? await listRunResults(trx, codAzienda, { ...filters, esecuzione_id: run.id }) : null;
      const ricalcoloInCorso = runs.items.find((r) => r.tipo === 'ricalcolo' && r.stato === 'running') ?? null;
      return { versioni, runs: runs.items.map((r) => runView(deps, r, numbers)), run, results, filters, ricalcoloInCorso };
    });
    const canRun = ctx.state.user!.ruoli.some((r) => RUN_STARTERS.includes(r));
    const attiva = data.versioni.find((v) => v.stato === 'active') ?? null;
    const bozza = data.versioni.find((v) => v.stato === 'draft') ?? null;
    render(ctx, views, 'rischio/scenari.njk', {
      ...data, attiva, bozza, canRun, labels, form: { versione_id: form.versione_id ?? bozza?.id ?? attiva?.id ?? '' }, errors,
      matrix: data.run ? matrixView(data.run.riepilogo) : null, resultsQuery: { ...ctx.query, frammento: undefined },
    }, { status, fragment: ctx.query.frammento === 'esecuzione' ? 'rischio/_scenari_esecuzione.njk' : undefined });
  };

  router.get(BASE, staff(STAFF_READ), (ctx) => page(ctx));

  /** Starts a dry run (or, with tipo=ricalcolo, a recalculation); a refusal comes back next to the field. */
  router.post(BASE, staff(RUN_STARTERS), async (ctx) => {
    const raw = (ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {};
    const parsed = startRunSchema.safeParse({ tipo: raw.tipo ?? 'simulazione', versione_id: raw.versione_id });
    const versione = typeof raw.versione_id === 'string' ? raw.versione_id : undefined;
    if (!parsed.success) return page(ctx, { versione_id: versione }, { [String(parsed.error.issues[0]?.path[0] ?? 'versione_id')]: parsed.error.issues[0]!.message }, 422);
    try {
      const run = await startRun(deps, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, tipo: parsed.data.tipo, versioneId: parsed.data.versione_id });
      redirectWithFlash(ctx, `${BASE}?esecuzione=${run.id}`, 'success', parsed.data.tipo === 'ricalcolo' ? 'Ricalcolo del portafoglio avviato' : 'Simulazione avviata');
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      const field = parsed.data.tipo === 'ricalcolo' ? 'ricalcolo' : 'versione_id';
      const message = (err.extra.errors as { message: string }[] | undefined)?.[0]?.message ?? err.detail ?? err.title;
      await page(ctx, { versione_id: versione }, { [field]: message }, err.status);
    }
  });

  router.post(`${BASE}/:id/annulla`, staff(RUN_STARTERS), async (ctx) => {
    const id = String(ctx.params.id);
    try {
      await cancelRun(deps, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username, id });
      redirectWithFlash(ctx, `${BASE}?esecuzione=${id}`, 'success', 'Esecuzione annullata: quanto già elaborato resta');
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 409) throw err;
      redirectWithFlash(ctx, `${BASE}?esecuzione=${id}`, 'warning', err.detail ?? err.title);
    }
  });
};
