import { withTenant } from '../../../db/tenant';
import { tenantOf } from '../../../http/auth';
import type { Ctx } from '../../../http/render';
import { staff } from '../../../kit/access';
import type { RegisterRoutes } from '../../../kit/area';
import { STAFF_READ } from '../../../kit/roles';
import { distribution, heatmap, matrix, portfolio } from './views.portfolio';
import { cellOf, listMatrixCell } from './views.repo';
import { distributionResponse, heatmapResponse, matrixCellQuery, matrixCellResponse, matrixResponse, portfolioResponse } from './views.schemas';

const tag = 'Rischio';

/** The portfolio's read side as JSON: the figures the /rischio pages draw, read from rischio_correnti and rischio_storico. */
export const registerRiskViewRoutes: RegisterRoutes = (router, { deps }) => {
  const read = { access: staff(STAFF_READ), tag } as const;
  const tx = <T>(ctx: Ctx, fn: Parameters<typeof withTenant<T>>[2]) =>
    withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, fn);

  router.api({
    ...read, method: 'GET', path: '/api/risk/portfolio', response: portfolioResponse,
    summary: 'Portafoglio: clienti per classe in vigore, per segmento e per paese di residenza, punteggio medio, clienti mai valutati',
    handler: (ctx) => tx(ctx, (trx) => portfolio(trx, tenantOf(ctx))),
  });

  router.api({
    ...read, method: 'GET', path: '/api/risk/portfolio/distribution', response: distributionResponse,
    summary: 'Distribuzione dei punteggi per fasce e classi di ciascun cliente a fine mese negli ultimi 24 mesi',
    handler: (ctx) => tx(ctx, (trx) => distribution(trx, tenantOf(ctx))),
  });

  router.api({
    ...read, method: 'GET', path: '/api/risk/portfolio/heatmap', response: heatmapResponse,
    summary: 'Mappa di calore: clienti per segmento e classe e per paese di residenza e classe',
    handler: (ctx) => tx(ctx, (trx) => heatmap(trx, tenantOf(ctx))),
  });

  router.api({
    ...read, method: 'GET', path: '/api/risk/matrix', response: matrixResponse,
    summary: 'Matrice 4×4 probabilità × impatto: clienti per cella',
    handler: (ctx) => tx(ctx, (trx) => matrix(trx, tenantOf(ctx))),
  });

  router.api({
    ...read, method: 'GET', path: '/api/risk/matrix/:p/:i', query: matrixCellQuery, response: matrixCellResponse,
    summary: 'I clienti di una cella della matrice (probabilità e impatto da 1 a 4), con paginazione a cursore',
    handler: async (ctx, { query, params }) => {
      const cell = cellOf(params.p, params.i);
      const page = await tx(ctx, (trx) => listMatrixCell(trx, tenantOf(ctx), cell, query));
      return { ...page, ...cell };
    },
  });
};
