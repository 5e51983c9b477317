import { coDueAt } from './comunicazioni-oggettive';
import { saraDueAt } from './sara';

/** The report types the reporting area generates. */
export const REPORT_TIPI = ['comunicazione_oggettiva', 'sara'] as const;
export type ReportTipo = (typeof REPORT_TIPI)[number];

/** The due instant of a report of this type for this reference month (each type's rule module says why). */
export const reportDueAt = (tipo: ReportTipo, periodo: string) => (tipo === 'comunicazione_oggettiva' ? coDueAt(periodo) : saraDueAt(periodo));
