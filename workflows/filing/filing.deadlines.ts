/**
 * Deadlines per filing type. Pure (workflow code computes them). Sources:
 * ../shared/data/regulatory/uif/sara-comunicazioni-oggettive.md (CO-4, SA-5).
 */
export const FILING_TIPI = ['str', 'comunicazione_oggettiva', 'sara'] as const;
export type FilingTipo = (typeof FILING_TIPI)[number];

/** An STR goes "senza ritardo" (art. 35 d.lgs. 231/2007): the platform's target is 30 days from the draft. */
export const STR_TARGET_DAYS = 30;
/** Notice before the deadline: the first notification goes out this many days before. */
export const WARN_DAYS_BEFORE = 5;
const DAY = 24 * 60 * 60 * 1000;

/** `YYYY-MM` -> [year, month 1-12], or null. */
export function parsePeriod(p: string | null | undefined): [number, number] | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(p ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The due instant (end of the due day, Italian time taken as UTC+1: a notice never comes late):
 * comunicazione oggettiva by the 15th of the second month after the reference month (CO-4);
 * S.AR.A. by the 2nd of the third month after it (SA-5); STR 30 days after the draft.
 */
export function filingDueAt(tipo: FilingTipo, periodo: string | null | undefined, createdAt: string): string | null {
  if (tipo === 'str') return new Date(new Date(createdAt).getTime() + STR_TARGET_DAYS * DAY).toISOString();
  const period = parsePeriod(periodo);
  if (!period) return null;
  const [y, m] = period;
  const [monthsAfter, day] = tipo === 'comunicazione_oggettiva' ? [2, 15] : [3, 2];
  // Date.UTC rolls months over the year; 22:59:59 UTC is 23:59:59 in Rome in winter, 00:59 in summer.
  return new Date(Date.UTC(y, m - 1 + monthsAfter, day, 22, 59, 59)).toISOString();
}

export const warnAt = (dueAt: string) => new Date(new Date(dueAt).getTime() - WARN_DAYS_BEFORE * DAY).toISOString();
