import type { Knex } from 'knex';
import { z } from 'zod';
import type { Deps } from '../deps';

/**
 * Evaluators: how an area that judges records as they arrive (transaction monitoring) hears of
 * them without the area that records them importing it (areas import in one direction:
 * monitoring reads movements, never the other way round). An area registers an evaluator in its
 * definition (`evaluators` in src/kit/area.ts); the recording area hands it what it wrote and puts
 * the answer in its reply, in one of two ways:
 * - in its own transaction (`evaluateMovementsInTransaction`, for an evaluator with `inTransaction`):
 *   after the records are written and before the commit, under a SAVEPOINT, so the records and
 *   the decisions commit together (one commit per request instead of two: the commit's WAL flush
 *   is what a request mostly waited on);
 * - after its commit (`evaluateMovements`), in the evaluator's own transaction: every other evaluator.
 *
 * The recording never depends on the evaluation: an evaluator that fails, or answers later than
 * EVALUATION_DEADLINE_MS, leaves the records with the decision pending (`in_attesa`) and the daily
 * batch evaluates them. In the transaction that is a rollback to the savepoint: the records still
 * commit, none of the evaluation's writes do.
 */

/** A movement the movements area committed (its id and day name its one partition). */
export interface CommittedMovement {
  id: string;
  data_operazione: string;
  /** Its customer, when the recording area knows it (the evaluator then need not read it back). */
  cod_anagrafe?: string;
}

export const decisionAlertSchema = z.object({ id: z.string(), cod_alert: z.string(), esito: z.enum(['nuovo', 'aggiornato', 'gia_registrato']) });

/** One movement's decision as a reply carries it (the same shape for every recording area). */
export const recordDecisionSchema = z.discriminatedUnion('stato', [
  z.object({
    stato: z.literal('valutata'),
    cod_decisione: z.string(),
    esito: z.enum(['nessuna_anomalia', 'alert', 'blocco']),
    punteggio: z.number(),
    regole_attivate: z.array(z.string()),
    alert: z.array(decisionAlertSchema),
  }),
  z.object({ stato: z.literal('in_attesa'), motivo: z.string() }),
]).meta({ description: 'La decisione del monitoraggio sull\'operazione, o in_attesa se non è stato possibile valutarla ora (la valuterà l\'elaborazione giornaliera)' });
export type RecordDecision = z.infer<typeof recordDecisionSchema>;

export interface EvaluationRequest { codAzienda: string; actor: string; movimenti: readonly CommittedMovement[] }

export interface MovementEvaluator {
  /** After the recording's commit, in a transaction of its own: decisions by movement id; a movement it has no answer for stays pending. */
  evaluate(deps: Deps, p: EvaluationRequest): Promise<Map<string, RecordDecision>>;
  /**
   * The same inside the recording's tenant transaction, under the savepoint the kit opened (`trx`
   * is the savepoint's). `deadline` (epoch ms): the evaluator bounds its statements by it (a
   * statement still running then is cancelled by the server) and gives up past it; either way the
   * kit rolls back to the savepoint. Optional: an evaluator without it is called after the commit.
   */
  inTransaction?(trx: Knex.Transaction, deps: Deps, p: EvaluationRequest & { deadline: number }): Promise<Map<string, RecordDecision>>;
}

export interface Evaluators {
  movements?: MovementEvaluator;
}

/** How long a reply waits for its decisions before answering them pending. */
export const EVALUATION_DEADLINE_MS = 5_000;

export const PENDING_UNAVAILABLE = 'Valutazione non disponibile ora: la decisione sarà presa dall\'elaborazione giornaliera';
const PENDING_LATE = 'Valutazione ancora in corso: la decisione sarà registrata appena pronta (o dall\'elaborazione giornaliera)';

const evaluatorOf = (sources: readonly { evaluators?: Evaluators }[]) => sources.map((s) => s.evaluators?.movements).find((e) => !!e);

/** The evaluation past its deadline (a statement cancelled by the server's timeout is the other form of it). */
export class EvaluationLate extends Error {
  constructor() {
    super(`evaluation later than ${EVALUATION_DEADLINE_MS} ms`);
    this.name = 'EvaluationLate';
  }
}

/**
 * Runs an evaluation inside the recording's transaction under a SAVEPOINT (Knex's nested
 * transaction), bounded by EVALUATION_DEADLINE_MS from now. Never throws: a failure rolls back to
 * the savepoint (the records written before it stand and commit with the transaction) and
 * answers null. A broken connection is the one failure it cannot absorb: then the whole
 * transaction fails and nothing was recorded (the caller's request fails and may be sent again).
 */
export async function evaluateUnderSavepoint<T>(
  trx: Knex.Transaction, deps: Deps, about: Record<string, unknown>, fn: (sp: Knex.Transaction, deadline: number) => Promise<T>,
): Promise<T | null> {
  const deadline = Date.now() + EVALUATION_DEADLINE_MS;
  try {
    return await trx.transaction((sp) => fn(sp, deadline));
  } catch (err) {
    deps.logger.warn({ err, ...about }, Date.now() >= deadline ? 'evaluation late: rolled back to its savepoint, decisions pending' : 'evaluation failed: rolled back to its savepoint, decisions pending');
    return null;
  }
}

/**
 * Asks the registered evaluator about movements inside the recording's transaction (before its
 * commit), when it evaluates in transaction; undefined when it does not (call evaluateMovements
 * after the commit) or when no area evaluates movements. Never throws: a failure or a late answer
 * is every movement pending, none of the evaluation's writes kept.
 */
export async function evaluateMovementsInTransaction(
  sources: readonly { evaluators?: Evaluators }[], trx: Knex.Transaction, deps: Deps, p: EvaluationRequest,
): Promise<Map<string, RecordDecision> | undefined> {
  const evaluator = evaluatorOf(sources);
  if (!evaluator?.inTransaction) return undefined;
  if (!p.movimenti.length) return new Map();
  const r = await evaluateUnderSavepoint(trx, deps, { codAzienda: p.codAzienda, movimenti: p.movimenti.length },
    (sp, deadline) => evaluator.inTransaction!(sp, deps, { ...p, deadline }));
  return new Map(p.movimenti.map((m) => [m.id, r?.get(m.id) ?? { stato: 'in_attesa' as const, motivo: PENDING_UNAVAILABLE }]));
}

/**
 * Asks the registered evaluator about committed movements. Never throws: a failure or a late
 * answer is every movement pending (logged). Null when no area evaluates movements.
 */
export async function evaluateMovements(
  sources: readonly { evaluators?: Evaluators }[], deps: Deps, p: EvaluationRequest,
): Promise<Map<string, RecordDecision> | null> {
  const evaluator = evaluatorOf(sources);
  if (!evaluator) return null;
  const pending = (motivo: string) => new Map(p.movimenti.map((m) => [m.id, { stato: 'in_attesa' as const, motivo }]));
  if (!p.movimenti.length) return new Map();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), EVALUATION_DEADLINE_MS); });
  const run = evaluator.evaluate(deps, p).catch((err: unknown) => {
    deps.logger.warn({ err, codAzienda: p.codAzienda, movimenti: p.movimenti.length }, 'movement evaluation failed: decisions pending');
    return 'failed' as const;
  });
  try {
    const r = await Promise.race([run, late]);
    if (r === 'late') {
      deps.logger.warn({ codAzienda: p.codAzienda, movimenti: p.movimenti.length }, 'movement evaluation late: decisions pending');
      return pending(PENDING_LATE);
    }
    if (r === 'failed') return pending(PENDING_UNAVAILABLE);
    return new Map(p.movimenti.map((m) => [m.id, r.get(m.id) ?? { stato: 'in_attesa' as const, motivo: PENDING_UNAVAILABLE }]));
  } finally {
    clearTimeout(timer);
  }
}
