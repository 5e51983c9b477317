import type { Knex } from 'knex';
import type { Deps } from '../../../deps';
import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import type { ApiCtx } from '../../../http/api-route';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ, type Role } from '../../../kit/roles';
import { cancelRun, loadRun, startRun } from './runs.commands';
import { listRunResults, listRuns, type RunRow } from './runs.repo';
import { listRunResultsQuery, listRunsQuery, runListResponse, runResponse, runResultsResponse, startRunSchema } from './runs.schemas';

/** Who may start or cancel a portfolio run: the compliance officer and the tenant's admin. */
export const RUN_STARTERS: Role[] = ['admin', 'co'];
const tag = 'Rischio: esecuzioni sul portafoglio';

/** A run as the API and the pages show it: the summary without the lanes' positions, the version number, the workflow link. */
export function runView(deps: Deps, run: RunRow, versioni: Map<string, number> = new Map()) {
  const { posizioni: _posizioni, ...riepilogo } = run.riepilogo;
  return {
    ...run, riepilogo: { prima: {}, dopo: {}, matrice: {}, salite: 0, discese: 0, ...riepilogo },
    versione: versioni.get(run.versione_id) ?? null, workflow_url: deps.temporal.webUiLink(run.workflow_id),
  };
}
export type RunView = ReturnType<typeof runView>;

/** The version numbers of the given version ids (one query for a page of runs). */
export async function versionNumbers(trx: Knex.Transaction, ids: string[]): Promise<Map<string, number>> {
  const rows = ids.length ? await trx('rischio_versioni').whereIn('id', [...new Set(ids)]).select('id', 'versione') as { id: string; versione: number }[] : [];
  return new Map(rows.map((r) => [r.id, r.versione]));
}

const user = (ctx: ApiCtx) => ({ codAzienda: tenantOf(ctx), actor: ctx.state.user!.username });

export async function runDetail(deps: Deps, ctx: ApiCtx, id: string): Promise<RunView> {
  const { codAzienda, actor } = user(ctx);
  const run = await loadRun(deps, codAzienda, actor, id);
  return runView(deps, run, await withTenant(deps.db, { codAzienda, actor }, (trx) => versionNumbers(trx, [run.versione_id])));
}

/**
 * The portfolio runs (not in the spec's route list, needed by /rischio/scenari and API clients):
 * start a recalculation or a dry run, follow it, read its per-customer results, cancel it.
 */
export const registerRiskRunRoutes: RegisterRoutes = (router, { deps }) => {
  router.api({
    method: 'POST', path: '/api/risk/runs', tag, access: staff(RUN_STARTERS), body: startRunSchema, response: runResponse, status: 202,
    summary: 'Avvia un ricalcolo del portafoglio (versione attiva) o una simulazione di una versione delle regole (di solito la bozza). Una sola esecuzione per tipo alla volta (409). 202 con l\'avanzamento in GET /api/risk/runs/:id',
    handler: async (ctx, { body }) => {
      const { codAzienda, actor } = user(ctx);
      const run = await startRun(deps, { codAzienda, actor, tipo: body.tipo, versioneId: body.versione_id });
      ctx.set('Location', `/api/risk/runs/${run.id}`);
      return runDetail(deps, ctx, run.id);
    },
  });

  router.api({
    method: 'GET', path: '/api/risk/runs', tag, access: staff(STAFF_READ), query: listRunsQuery, response: runListResponse,
    summary: 'Esecuzioni sul portafoglio (ricalcoli e simulazioni), dalla più recente',
    handler: (ctx, { query }) => withTenant(deps.db, user(ctx), async (trx) => {
      const page = await listRuns(trx, tenantOf(ctx), query);
      const versioni = await versionNumbers(trx, page.items.map((r) => r.versione_id));
      return { ...page, items: page.items.map((r) => runView(deps, r, versioni)) };
    }),
  });

  router.api({
    method: 'GET', path: '/api/risk/runs/:id', tag, access: staff(STAFF_READ), response: runResponse,
    summary: 'Avanzamento e riepilogo di un\'esecuzione: clienti elaborati, cambi di classe, matrice da→a',
    handler: (ctx, { params }) => runDetail(deps, ctx, params.id!),
  });

  router.api({
    method: 'GET', path: '/api/risk/runs/:id/risultati', tag, access: staff(STAFF_READ), query: listRunResultsQuery, response: runResultsResponse,
    summary: 'Risultati per cliente: punteggio e classe calcolati accanto a quelli in vigore e i contributi che cambiano (la simulazione li ha per ogni cliente, il ricalcolo per chi cambia classe)',
    handler: async (ctx, { params, query }) => {
      const { codAzienda, actor } = user(ctx);
      const run = await loadRun(deps, codAzienda, actor, params.id!);
      return withTenant(deps.db, { codAzienda, actor }, (trx) => listRunResults(trx, codAzienda, { ...query, esecuzione_id: run.id }));
    },
  });

  router.api({
    method: 'POST', path: '/api/risk/runs/:id/cancel', tag, access: staff(RUN_STARTERS), response: runResponse,
    summary: 'Annulla un\'esecuzione in corso (409 se è già terminata); quanto già elaborato resta',
    handler: async (ctx, { params }) => {
      const { codAzienda, actor } = user(ctx);
      await cancelRun(deps, { codAzienda, actor, id: params.id! });
      return runDetail(deps, ctx, params.id!);
    },
  });
};
