import { withTenant } from '../../db/tenant';
import { tenantOf } from '../../http/auth';
import { staff } from '../../kit/access';
import type { RegisterRoutes } from '../../kit/area';
import { evaluateMovements, evaluateMovementsInTransaction } from '../../kit/evaluators';
import { GroupCommit } from '../../kit/group-commit';
import { STAFF_READ, type Role } from '../../kit/roles';
import { createMovementRequests } from './movements.commands';
import { listMovements } from './movements.repo';
import {
  createMovementsResponse, createMovementsSchema, listMovementsQuery, MAX_MOVEMENTS_PER_REQUEST, movementListResponse, type ValidMovement,
} from './movements.schemas';

/** Who records movements: the operators and the compliance officer (an auditor or viewer reads them). */
const WRITERS: Role[] = ['analyst', 'co', 'admin'];
const tag = 'Movimenti';

/** JSON API of movements: a list with its filters, and one or many movements in a request. */
export const registerMovementRoutes: RegisterRoutes = (router, { deps, areas }) => {
  interface Write { codAzienda: string; actor: string; movimenti: ValidMovement[] }
  // Requests of one tenant and user that arrive while one of theirs is being written share the next
  // transaction and its commit (src/kit/group-commit.ts); the evaluator decides before the commit,
  // under a savepoint, when it can (src/kit/evaluators.ts). The movements stand whatever it answers.
  const writes = new GroupCommit((_key, batch: readonly Write[]) => {
    const { codAzienda, actor } = batch[0]!;
    return createMovementRequests(deps.db, codAzienda, actor, batch.map((w) => w.movimenti),
      (trx, movimenti) => evaluateMovementsInTransaction(areas, trx, deps, { codAzienda, actor, movimenti }));
  }, { maxSize: MAX_MOVEMENTS_PER_REQUEST, sizeOf: (w) => w.movimenti.length });
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
      const created = await writes.submit(`${who.codAzienda}\n${who.actor}`, { ...who, movimenti: body.movimenti });
      // An evaluator that does not decide in the transaction is asked after the commit.
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
