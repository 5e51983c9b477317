import { withTenant } from '../../../db/tenant';
import type { MovementEvaluator, RecordDecision } from '../../../kit/evaluators';
import { evaluateInOwnTransaction } from './realtime';
import type { DecisionSummary } from './record';

/** The decision as a reply carries it (without what only the evaluation needs). */
export const replyDecision = (s: DecisionSummary): RecordDecision => ({
  stato: 'valutata', cod_decisione: s.cod_decisione, esito: s.esito, punteggio: s.punteggio, regole_attivate: s.regole_attivate, alert: s.alert,
});

/**
 * Monitoring's evaluator of movements (src/kit/evaluators.ts): POST /api/movimenti calls it after
 * its commit; each movement is evaluated in its customer's history, in one tenant transaction of
 * its own (a failure rolls back the decisions, never the movements). The movements area says
 * whose each movement is, so nothing is read back.
 */
export const movementEvaluator: MovementEvaluator = {
  async evaluate(deps, p) {
    const out = new Map<string, RecordDecision>();
    if (!p.movimenti.length) return out;
    let refs = p.movimenti.every((m) => m.cod_anagrafe)
      ? p.movimenti.map((m) => ({ fonte: 'movimento' as const, id: m.id, cod_anagrafe: m.cod_anagrafe!, giorno: m.data_operazione }))
      : undefined;
    // A caller that did not say whose they are: read back (each movement's id and day name its partition).
    refs ??= await withTenant(deps.db, { codAzienda: p.codAzienda, actor: p.actor }, async (trx) => (await trx('movimenti').where('cod_azienda', p.codAzienda)
      .whereIn('data_operazione', [...new Set(p.movimenti.map((m) => m.data_operazione))]).whereIn('id', p.movimenti.map((m) => m.id))
      .select('id', 'cod_anagrafe', trx.raw('data_operazione::text as data_operazione')) as { id: string; cod_anagrafe: string; data_operazione: string }[])
      .map((r) => ({ fonte: 'movimento' as const, id: r.id, cod_anagrafe: r.cod_anagrafe, giorno: r.data_operazione })));
    // The evaluation checks each event against its customer's history: one not found there gets no decision.
    const decided = await evaluateInOwnTransaction(deps.db, p.codAzienda, p.actor, refs);
    for (const [id, s] of decided) out.set(id, replyDecision(s));
    return out;
  },
};
