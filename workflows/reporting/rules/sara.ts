import { dueDay, dueInstant } from './period';
import type { Segno } from './comunicazioni-oggettive';

/**
 * S.AR.A. aggregated data: Provvedimento UIF 25 agosto 2020 (G.U. 8 settembre 2020), as
 * summarised in ../shared/data/regulatory/uif/sara-comunicazioni-oggettive.md (facts SA-1..SA-10).
 * The whole rule is here; docs/reporting.md says which reading it takes where the sources leave
 * one open (the causali of allegato 1 and the codes of allegato 2 are not in the stored sources).
 */

/** SA-1 (art. 3, c. 1): "le operazioni di importo pari o superiore a 5.000 euro". */
export const SARA_THRESHOLD_CENTS = 5_000_00;
/** SA-5: due by the 2nd day of the third month after the reference month. */
export const SARA_DUE = { monthsAfter: 3, day: 2 } as const;
/** What a line shows when the customer's record lacks the field (the line still counts the operation). */
export const SARA_UNKNOWN = 'ND';

export interface SaraOperation {
  id: string;
  data_operazione: string;
  segno: Segno;
  importo_cents: number;
  contanti: boolean;
  causale: string | null;
  /** The customer's country of residence (ISO 3166 alpha-2), from the customer's record. */
  residenza: string | null;
  /** The customer's ATECO code, from the customer's record. */
  ateco: string | null;
}

/** One aggregate (SA-4): a cause, a residence, a sector, a direction; amounts and counts, the cash part apart. */
export interface SaraLine {
  causale: string;
  residenza: string;
  settore: string;
  segno: Segno;
  totale_cents: number;
  numero: number;
  contanti_cents: number;
  numero_contanti: number;
  operazioni: string[];
}

export interface SaraResult { negativa: boolean; righe: SaraLine[] }

export const saraCounts = (op: Pick<SaraOperation, 'importo_cents'>) => op.importo_cents >= SARA_THRESHOLD_CENTS;

/** The economic sector an aggregate is keyed by: the ATECO division (its first two digits). */
export const saraSector = (ateco: string | null) => (ateco && /^\d{2}/.test(ateco) ? ateco.slice(0, 2) : SARA_UNKNOWN);
/** The cause: the movement's own, trimmed and upper-cased so "bonifico" and "BONIFICO " aggregate together. */
export const saraCause = (causale: string | null) => (causale?.trim() ? causale.trim().toUpperCase() : SARA_UNKNOWN);

/** The month's aggregates from its operations (SA-1, SA-4); no operation of the amount is a negative report (SA-6). */
export function saraAggregate(ops: readonly SaraOperation[]): SaraResult {
  const lines = new Map<string, SaraLine>();
  for (const op of ops) {
    if (!saraCounts(op)) continue;
    const causale = saraCause(op.causale);
    const residenza = op.residenza?.trim().toUpperCase() || SARA_UNKNOWN;
    const settore = saraSector(op.ateco);
    const key = [causale, residenza, settore, op.segno].join('\u0000');
    const l = lines.get(key) ?? { causale, residenza, settore, segno: op.segno, totale_cents: 0, numero: 0, contanti_cents: 0, numero_contanti: 0, operazioni: [] };
    lines.set(key, l);
    l.totale_cents += op.importo_cents;
    l.numero += 1;
    if (op.contanti) { l.contanti_cents += op.importo_cents; l.numero_contanti += 1; }
    l.operazioni.push(op.id);
  }
  const righe = [...lines.values()].sort((a, b) => {
    const ka = [a.causale, a.residenza, a.settore, a.segno].join('|'); const kb = [b.causale, b.residenza, b.settore, b.segno].join('|');
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return { negativa: righe.length === 0, righe };
}

/** SA-5: the due day of a reference month's report (`2026-01` -> `2026-04-02`). */
export const saraDueDay = (periodo: string) => dueDay(periodo, SARA_DUE.monthsAfter, SARA_DUE.day);
export const saraDueAt = (periodo: string) => dueInstant(saraDueDay(periodo));
