import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { evaluateMovements, evaluateMovementsInTransaction } from '../../kit/evaluators';
import { STAFF_READ, type Role } from '../../kit/roles';
import { createMovements } from './movements.commands';
import { listMovements } from './movements.repo';
import { createMovementsResponse, createMovementsSchema, listMovementsQuery, movementListResponse } from './movements.schemas';

/** Who records movements: the operators and the compliance officer (an auditor or viewer reads them). */
const WRITERS: Role[] = ['analyst', 'co', 'admin'];
const tag = 'Movimenti';

/** JSON API of movements: a list with its filters, and one or many movements in a request. */
export const registerMovementRoutes: RegisterRoutes = (router, { deps, areas }) => {
  router.api({
    method: 'GET', path: '/api/movimenti', summary: 'Elenco dei movimenti (per cliente, rapporto, date, importo, contanti, segno)', tag,
    access: staff(STAFF_READ), query: listMovementsQuery, response: movementListResponse,
    handler: (ctx, { query }) => withTenant(deps.db, { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username }, (trx) => listMovements(trx, tenantOf(ctx), query)),
  });

  router.api({
    method: 'POST', path: '/api/movimenti',
    summary: 'Registra un movimento, o fino a 1.000 in { movimenti: [...] }; idempotente per chiave_esterna (201 se ne ha inseriti, 200 se erano già tutti presenti)',
    tag, access: staff(WRITERS), body: createMovementsSchema, response: createMovementsResponse, status: 201,
    otherResponses: { 200: createMovementsResponse },
    handler: async (ctx, { body }) => {
      const who = { codAzienda: tenantOf(ctx), actor: ctx.state.user!.username };
      // The evaluator decides before the commit, under a savepoint (one commit for the movements and
      // their decisions), or after it; the movements stand whatever it answers (src/kit/evaluators.ts).
      const created = await createMovements(deps.db, who.codAzienda, who.actor, body.movimenti,
        (trx, movimenti) => evaluateMovementsInTransaction(areas, trx, deps, { ...who, movimenti }));
      const decisions = created.evaluated ?? await evaluateMovements(areas, deps, { ...who, movimenti: created.scritti });
      const result = {
        inseriti: created.inseriti, gia_presenti: created.gia_presenti,
        movimenti: created.movimenti.map((m) => ({ ...m, ...(decisions?.has(m.id) ? { decisione: decisions.get(m.id)! } : {}) })),
      };
      if (result.inseriti > 0) return result;
      ctx.status = 200;
      ctx.body = result;
      return undefined;
    },
  });
};
