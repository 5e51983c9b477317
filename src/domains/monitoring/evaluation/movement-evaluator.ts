import type { Knex } from 'knex';
import { withTenant } from '../../../db/tenant';
import type { CommittedMovement, MovementEvaluator, RecordDecision } from '../../../kit/evaluators';
import { evaluateInOwnTransaction, evaluateInTransaction, type EventRef } from './realtime';
import type { DecisionSummary } from './record';

/** The decision as a reply carries it (without what only the evaluation needs). */
export const replyDecision = (s: DecisionSummary): RecordDecision => ({
  stato: 'valutata', cod_decisione: s.cod_decisione, esito: s.esito, punteggio: s.punteggio, regole_attivate: s.regole_attivate, alert: s.alert,
});

/** The movements as events, when the caller said whose each is. */
const named = (movimenti: readonly CommittedMovement[]): EventRef[] | undefined => (movimenti.every((m) => m.cod_anagrafe)
  ? movimenti.map((m) => ({ fonte: 'movimento' as const, id: m.id, cod_anagrafe: m.cod_anagrafe!, giorno: m.data_operazione }))
  : undefined);

/** A caller that did not say whose they are: read back (each movement's id and day name its partition). */
async function readBack(trx: Knex.Transaction, codAzienda: string, movimenti: readonly CommittedMovement[]): Promise<EventRef[]> {
  return (await trx('movimenti').where('cod_azienda', codAzienda)
    .whereIn('data_operazione', [...new Set(movimenti.map((m) => m.data_operazione))]).whereIn('id', movimenti.map((m) => m.id))
    .select('id', 'cod_anagrafe', trx.raw('data_operazione::text as data_operazione')) as { id: string; cod_anagrafe: string; data_operazione: string }[])
    .map((r) => ({ fonte: 'movimento' as const, id: r.id, cod_anagrafe: r.cod_anagrafe, giorno: r.data_operazione }));
}

const replies = (decided: ReadonlyMap<string, DecisionSummary>) => new Map([...decided].map(([id, s]) => [id, replyDecision(s)]));

/**
 * Monitoring's evaluator of movements (src/kit/evaluators.ts): each movement evaluated in its
 * customer's history (the window ending at it). POST /api/movimenti calls `inTransaction`, inside
 * its own transaction under a savepoint: the movements and their decisions commit together, and a
 * failure rolls back the decisions, never the movements. `evaluate` is the same after a commit, in
 * a tenant transaction of its own. The movements area says whose each movement is, so nothing is
 * read back. An event not found in its customer's history gets no decision.
 */
export const movementEvaluator: MovementEvaluator = {
  async evaluate(deps, p) {
    if (!p.movimenti.length) return new Map();
    const refs = named(p.movimenti) ?? await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor }, (trx) => readBack(trx, p.codAzienda, p.movimenti));
    return replies(await evaluateInOwnTransaction(deps.db, p.codAzienda, p.actor, refs));
  },
  async inTransaction(trx, _deps, p) {
    if (!p.movimenti.length) return new Map();
    const refs = named(p.movimenti) ?? await readBack(trx, p.codAzienda, p.movimenti);
    return replies(await evaluateInTransaction(trx, p.codAzienda, refs, { deadline: p.deadline }));
  },
};
