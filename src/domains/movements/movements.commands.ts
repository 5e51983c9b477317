import type { Knex } from 'knex';
import { withTenantFirst } from '../../db/tenant';
import { ValidationError } from '../../http/errors';
import { appendAudit } from '../audit';
import { insertMovements, MOVEMENT_PARTITIONS_SQL, MovementReferenceError, movementMonths } from './movements.insert';
import type { ValidMovement } from './movements.schemas';

/** A movement this call wrote, with its subject (what an evaluator needs: nothing read back). */
export interface WrittenMovement { id: string; data_operazione: string; cod_anagrafe: string }

/** Keeps the audit event small for a batch of a thousand: the relationships it touched, up to this many. */
const AUDITED_RELATIONSHIPS = 20;

/**
 * POST /api/movimenti: the batch in one tenant transaction, all or nothing. A relationship or subject
 * that is not the tenant's is a 422 naming the item (`movimenti.<index>.<field>`); keys already held
 * are answered as already present. One audit event for the request, with its counts, when it wrote
 * anything (a re-sent batch changes nothing and records nothing).
 * `inTransaction`: called with what was written after the audit and before the commit (the
 * evaluators that decide in the recording's transaction, src/kit/evaluators.ts); it must not throw
 * (the kit's evaluateMovementsInTransaction does not), its answer is `evaluated`.
 */
export async function createMovements<E = undefined>(
  db: Knex, codAzienda: string, actor: string, movimenti: ValidMovement[],
  inTransaction?: (trx: Knex.Transaction, written: readonly WrittenMovement[]) => Promise<E>,
) {
  // The first statement sets the tenant and makes sure of the months' partitions: one round trip.
  return withTenantFirst(db, { codAzienda, actor }, { sql: MOVEMENT_PARTITIONS_SQL, bindings: [movementMonths(movimenti)] }, async (trx) => {
    let result;
    try {
      result = await insertMovements(trx, codAzienda, actor, movimenti, { partitionsEnsured: true });
    } catch (err) {
      if (err instanceof MovementReferenceError) {
        throw new ValidationError(err.errors.map((e) => ({ path: `movimenti.${e.index}.${e.field}`, message: e.message })),
          'Alcuni movimenti si riferiscono a rapporti o soggetti inesistenti');
      }
      throw err;
    }
    if (result.inserted > 0) {
      const written = result.items.filter((i) => i.inserted);
      const days = written.map((i) => i.data_operazione).sort();
      const rapporti = [...new Set(movimenti.filter((_, i) => result.items[i]!.inserted).map((m) => m.cod_rapporto))];
      await appendAudit(trx, {
        codAzienda, actor, action: 'movimenti.insert', entityType: 'movimento', entityId: written[0]!.id,
        data: {
          inseriti: result.inserted, gia_presenti: result.skipped, dal: days[0], al: days.at(-1),
          rapporti: rapporti.slice(0, AUDITED_RELATIONSHIPS), rapporti_totali: rapporti.length,
        },
      });
    }
    const scritti: WrittenMovement[] = result.items.filter((i) => i.inserted).map((i) => ({ id: i.id, data_operazione: i.data_operazione, cod_anagrafe: i.cod_anagrafe! }));
    const evaluated = inTransaction ? await inTransaction(trx, scritti) : undefined;
    return {
      /** What this call wrote, with each movement's subject (for the evaluators: nothing read back). */
      scritti,
      evaluated,
      inseriti: result.inserted,
      gia_presenti: result.skipped,
      movimenti: result.items.map((i, indice) => ({
        indice, chiave_esterna: i.chiave_esterna, id: i.id, data_operazione: i.data_operazione, esito: i.inserted ? 'inserito' as const : 'gia_presente' as const,
      })),
    };
  });
}
