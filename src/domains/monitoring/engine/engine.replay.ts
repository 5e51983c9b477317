import { dayNumber, dayString } from './engine.dates';
import { StoricoIndicizzato } from './engine.history';
import { Valutatore } from './engine.evaluate';
import type { RegolePreparate } from './engine.rules';
import type { CandidatoAlert, Decisione, Giorno, MovimentoMonitorato, ProfiloCliente, StatistichePari, StatoDedup } from './engine.types';

/**
 * Replay and backtest: the rules over a stored period, day by day per customer, as real time and
 * the daily batch would have run: on each day, every movement in order (event rules, the window
 * ending at it), then the close of the day (daily rules, when the customer moved that day), with
 * one deduplication state throughout. So a replay raises exactly the alerts, dated the day each
 * would have been raised, that evaluateEvent and evaluateDay called in that order raise (the
 * equivalence is tested). The history is indexed once and walked with a cursor: nothing after the
 * point being evaluated is visible.
 */

export interface InputReplay {
  profilo: ProfiloCliente;
  /** The customer's movements from `regole.giorni_storico` days before `dal` to `al` (later ones are never read). */
  storico: readonly MovimentoMonitorato[] | StoricoIndicizzato;
  dal: Giorno;
  al: Giorno;
  /** The peer statistics in force on a day (the daily batch's of that day). */
  pari?: (giorno: Giorno) => StatistichePari | undefined;
  /** Deduplication state (updated in place): the stored alerts before `dal`, or empty. */
  stato?: StatoDedup;
  /** Every decision, in order (a backtest's trace); omitted: only the hits are kept. */
  onDecisione?: (d: Decisione) => void;
}

export interface EsitoReplay {
  /** Every hit, in order, with its deduplication (`nuovo` raised an alert). */
  candidati: CandidatoAlert[];
  /** Events evaluated (movements in the period). */
  eventi: number;
  /** Days closed for this customer (days in the period with a movement). */
  giorni: number;
  stato: StatoDedup;
}

export function replayCustomer(regole: RegolePreparate, input: InputReplay): EsitoReplay {
  const h = input.storico instanceof StoricoIndicizzato ? input.storico : StoricoIndicizzato.fromMovements(input.storico);
  const stato = input.stato ?? new Map();
  const v = new Valutatore(regole, input.profilo, h, undefined, stato);
  const out: EsitoReplay = { candidati: [], eventi: 0, giorni: 0, stato };
  const to = dayNumber(input.al);
  const collect = (d: Decisione | null) => {
    if (!d) return;
    for (const c of d.candidati) out.candidati.push(c);
    input.onDecisione?.(d);
  };
  let i = h.lowerBound(dayNumber(input.dal));
  while (i < h.n && h.day[i]! <= to) {
    const t = h.day[i]!;
    const end = h.lowerBound(t + 1, i);
    if (input.pari) v.pari = input.pari(dayString(t));
    if (regole.evento.length) for (let j = i; j < end; j++) collect(v.evento(j));
    out.eventi += end - i;
    if (regole.giornaliere.length) collect(v.giorno(t, end));
    out.giorni += 1;
    i = end;
  }
  return out;
}
