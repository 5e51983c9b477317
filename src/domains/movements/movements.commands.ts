import type { Knex } from 'knex';
import { withTenantFirst } from '../../db/tenant';
import { ValidationError } from '../../http/errors';
import { appendAudits, type AuditInput } from '../audit';
import { insertMovements, MOVEMENT_PARTITIONS_SQL, MovementReferenceError, movementMonths } from './movements.insert';
import type { ValidMovement } from './movements.schemas';

/** Keeps the audit event small for a batch of a thousand: the relationships it touched, up to this many. */
const AUDITED_RELATIONSHIPS = 20;

/** A movement this call wrote, with its subject (what an evaluator needs: nothing read back). */
export interface WrittenMovement { id: string; data_operazione: string; cod_anagrafe: string }

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
  return (await createMovementRequests(db, codAzienda, actor, [movimenti], inTransaction))[0]!;
}

/**
 * Several requests of one tenant and user in one transaction (the group commit of POST
 * /api/movimenti, src/kit/group-commit.ts): one statement for all their rows, one audit event per
 * request that wrote anything (one multi-row insert), one evaluation of everything written; each
 * request answered as if it had been alone. A request that names a relationship or subject not the
 * tenant's fails the whole call (MovementReferenceError for several requests, the 422 for one):
 * the group commit then writes each request on its own.
 */
export async function createMovementRequests<E = undefined>(
  db: Knex, codAzienda: string, actor: string, requests: readonly ValidMovement[][],
  inTransaction?: (trx: Knex.Transaction, written: readonly WrittenMovement[]) => Promise<E>,
) {
  const all = requests.flat();
  // The first statement sets the tenant and makes sure of the months' partitions: one round trip.
  return withTenantFirst(db, { codAzienda, actor }, { sql: MOVEMENT_PARTITIONS_SQL, bindings: [movementMonths(all)] }, async (trx) => {
    let result;
    try {
      result = await insertMovements(trx, codAzienda, actor, all, { partitionsEnsured: true });
    } catch (err) {
      if (err instanceof MovementReferenceError && requests.length === 1) {
        throw new ValidationError(err.errors.map((e) => ({ path: `movimenti.${e.index}.${e.field}`, message: e.message })),
          'Alcuni movimenti si riferiscono a rapporti o soggetti inesistenti');
      }
      throw err;
    }
    let from = 0;
    const parts = requests.map((movimenti) => {
      const items = result.items.slice(from, from += movimenti.length);
      return { movimenti, items, written: items.filter((i) => i.inserted) };
    });
    const audits: AuditInput[] = parts.filter((p) => p.written.length).map(({ movimenti, items, written }) => {
      const days = written.map((i) => i.data_operazione).sort();
      const rapporti = [...new Set(movimenti.filter((_, i) => items[i]!.inserted).map((m) => m.cod_rapporto))];
      return {
        codAzienda, actor, action: 'movimenti.insert', entityType: 'movimento', entityId: written[0]!.id,
        data: {
          inseriti: written.length, gia_presenti: items.length - written.length, dal: days[0], al: days.at(-1),
          rapporti: rapporti.slice(0, AUDITED_RELATIONSHIPS), rapporti_totali: rapporti.length,
        },
      };
    });
    if (audits.length) await appendAudits(trx, audits);
    const scritti = parts.map((p) => p.written.map((i): WrittenMovement => ({ id: i.id, data_operazione: i.data_operazione, cod_anagrafe: i.cod_anagrafe! })));
    const evaluated = inTransaction ? await inTransaction(trx, scritti.flat()) : undefined;
    return parts.map((p, k) => ({
      /** What this request wrote, with each movement's subject (for the evaluators: nothing read back). */
      scritti: scritti[k]!,
      /** The in-transaction evaluation's answer, for everything the call wrote. */
      evaluated,
      inseriti: p.written.length,
      gia_presenti: p.items.length - p.written.length,
      movimenti: p.items.map((i, indice) => ({
        indice, chiave_esterna: i.chiave_esterna, id: i.id, data_operazione: i.data_operazione, esito: i.inserted ? 'inserito' as const : 'gia_presente' as const,
      })),
    }));
  });
}
