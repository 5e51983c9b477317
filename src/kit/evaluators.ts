import { z } from 'zod';
import type { Deps } from '../deps';

/**
 * Evaluators: how an area that judges records as they arrive (transaction monitoring) hears of
 * them without the area that records them importing it (areas import in one direction:
 * monitoring reads movements, never the other way round). An area registers an evaluator in its
 * definition (`evaluators` in src/kit/area.ts); the recording area calls `evaluateMovements` after
 * its commit with what it wrote and puts the answer in its reply.
 *
 * The recording never depends on the evaluation: the records are committed before it runs, and
 * an evaluator that fails, or answers later than EVALUATION_DEADLINE_MS, leaves them with the
 * decision pending (`in_attesa`); the daily batch evaluates them anyway.
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

export interface MovementEvaluator {
  /** Decisions by movement id; a movement it has no answer for stays pending. */
  evaluate(deps: Deps, p: { codAzienda: string; actor: string; movimenti: readonly CommittedMovement[] }): Promise<Map<string, RecordDecision>>;
}

export interface Evaluators {
  movements?: MovementEvaluator;
}

/** How long a reply waits for its decisions before answering them pending. */
export const EVALUATION_DEADLINE_MS = 5_000;

export const PENDING_UNAVAILABLE = 'Valutazione non disponibile ora: la decisione sarà presa dall\'elaborazione giornaliera';
const PENDING_LATE = 'Valutazione ancora in corso: la decisione sarà registrata appena pronta (o dall\'elaborazione giornaliera)';

/**
 * Asks the registered evaluator about committed movements. Never throws: a failure or a late
 * answer is every movement pending (logged). Null when no area evaluates movements.
 */
export async function evaluateMovements(
  sources: readonly { evaluators?: Evaluators }[], deps: Deps, p: { codAzienda: string; actor: string; movimenti: readonly CommittedMovement[] },
): Promise<Map<string, RecordDecision> | null> {
  const evaluator = sources.map((s) => s.evaluators?.movements).find((e) => !!e);
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
