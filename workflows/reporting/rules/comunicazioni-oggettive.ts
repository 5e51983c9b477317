import { dueDay, dueInstant } from './period';

/**
 * Comunicazioni oggettive: Provvedimento UIF 28 marzo 2019 (art. 47 d.lgs. 231/2007), as
 * summarised in ../shared/data/regulatory/uif/sara-comunicazioni-oggettive.md (facts CO-1..CO-8).
 * The whole rule is here; docs/reporting.md says which reading it takes where the sources leave
 * one open. Amounts are euro cents (integers): a sum of many operations never drifts.
 */

/** CO-2: cash operations totalling EUR 10,000 or more in the calendar month... */
export const CO_THRESHOLD_CENTS = 10_000_00;
/** CO-2: ...counting operations of EUR 1,000 or more each (an operation below it is not counted at all). */
export const CO_FLOOR_CENTS = 1_000_00;
/** CO-4 (art. 6): due by the 15th day of the second month after the reference month. */
export const CO_DUE = { monthsAfter: 2, day: 15 } as const;

export type Segno = 'entrata' | 'uscita';

/** One stored movement as the rule reads it. */
export interface CoOperation {
  id: string;
  data_operazione: string;
  cod_rapporto: string;
  /** The customer the movement is read under (the relationship's holder, or a co-holder). */
  cod_anagrafe: string;
  /** Who executed it at the counter, when known. */
  cod_anagrafe_esecutore: string | null;
  segno: Segno;
  importo_cents: number;
  contanti: boolean;
}

export type CoRole = 'cliente' | 'esecutore';

/** One line of the communication: a subject, a relationship, a direction (deposits or withdrawals). */
export interface CoLine {
  cod_anagrafe: string;
  cod_rapporto: string;
  segno: Segno;
  /** The subject's roles in the line's operations (customer, executor, or both across operations). */
  ruoli: CoRole[];
  totale_cents: number;
  numero: number;
  operazioni: { id: string; ruolo: CoRole }[];
}

export interface CoResult {
  /** CO-5: no subject reached the threshold: the month's communication is a negative one. */
  negativa: boolean;
  /** The subjects that reached the threshold, with their month total (both directions, not netted). */
  soggetti: { cod_anagrafe: string; totale_cents: number; numero: number }[];
  righe: CoLine[];
}

/** CO-2: what counts at all: cash, and at least the floor. */
export const coCounts = (op: Pick<CoOperation, 'contanti' | 'importo_cents'>) => op.contanti && op.importo_cents >= CO_FLOOR_CENTS;

/**
 * The month's comunicazione oggettiva from its operations. Each counted operation is counted for
 * its customer and, when someone else executed it, for the executor too (CO-3); deposits and
 * withdrawals add up, never net (CO-3: "operazioni attive e passive"); a subject whose counted
 * operations reach the threshold is reported with one line per relationship and direction.
 */
export function comunicazioneOggettiva(ops: readonly CoOperation[]): CoResult {
  type Acc = { totale: number; numero: number; lines: Map<string, CoLine> };
  const bySubject = new Map<string, Acc>();
  const add = (subject: string, op: CoOperation, ruolo: CoRole) => {
    const acc = bySubject.get(subject) ?? { totale: 0, numero: 0, lines: new Map() };
    bySubject.set(subject, acc);
    acc.totale += op.importo_cents;
    acc.numero += 1;
    const key = `${op.cod_rapporto}\u0000${op.segno}`;
    const line = acc.lines.get(key) ?? { cod_anagrafe: subject, cod_rapporto: op.cod_rapporto, segno: op.segno, ruoli: [], totale_cents: 0, numero: 0, operazioni: [] };
    acc.lines.set(key, line);
    line.totale_cents += op.importo_cents;
    line.numero += 1;
    line.operazioni.push({ id: op.id, ruolo });
    if (!line.ruoli.includes(ruolo)) line.ruoli.push(ruolo);
  };
  for (const op of ops) {
    if (!coCounts(op)) continue;
    add(op.cod_anagrafe, op, 'cliente');
    // The customer executing on their own relationship is one operation, counted once.
    if (op.cod_anagrafe_esecutore && op.cod_anagrafe_esecutore !== op.cod_anagrafe) add(op.cod_anagrafe_esecutore, op, 'esecutore');
  }
  const reported = [...bySubject.entries()].filter(([, a]) => a.totale >= CO_THRESHOLD_CENTS)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const righe = reported.flatMap(([, a]) => [...a.lines.values()].sort((x, y) => (x.cod_rapporto < y.cod_rapporto ? -1 : x.cod_rapporto > y.cod_rapporto ? 1 : x.segno < y.segno ? -1 : x.segno > y.segno ? 1 : 0)));
  return {
    negativa: reported.length === 0,
    soggetti: reported.map(([cod, a]) => ({ cod_anagrafe: cod, totale_cents: a.totale, numero: a.numero })),
    righe,
  };
}

/** CO-4: the due day of a reference month's communication (`2026-01` -> `2026-03-15`). */
export const coDueDay = (periodo: string) => dueDay(periodo, CO_DUE.monthsAfter, CO_DUE.day);
export const coDueAt = (periodo: string) => dueInstant(coDueDay(periodo));
