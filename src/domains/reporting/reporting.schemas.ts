import { z } from 'zod';
import { parseMonth, REPORT_ESITI, REPORT_TIPI } from '../../../workflows/reporting/reporting.contract';
import { REPORT_STATES } from '../../../workflows/reporting/reporting.machine';
import { testoOpzionale } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { reportsList } from './reporting.list';

/** At most two years of months in one request: a year of imported history, and then some. */
export const MAX_MONTHS = 24;
const month = z.string().trim().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Mese nel formato AAAA-MM');
const optionalMonth = z.union([month, z.literal('').transform(() => undefined)]).optional();
const emptyToUndefined = <T extends z.ZodType>(s: T) => z.union([s, z.literal('').transform(() => undefined)]).optional();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const monthIndex = (m: string) => { const [y, mm] = parseMonth(m)!; return y * 12 + mm - 1; };

/**
 * A report per month from `dal` to `al` (one month: `periodo`, or `dal` alone). Months that have
 * not ended yet cannot be reported: their operations are not all there.
 */
export const generateSchema = z.object({
  tipo: z.enum(REPORT_TIPI, { message: 'Scegli il tipo di segnalazione' }),
  periodo: optionalMonth,
  dal: optionalMonth,
  al: optionalMonth,
}).strict().superRefine((b, ctx) => {
  const dal = b.periodo ?? b.dal;
  const al = b.periodo ?? b.al ?? b.dal;
  if (b.periodo && (b.dal || b.al)) ctx.addIssue({ code: 'custom', path: ['periodo'], message: 'Indica un mese oppure un intervallo (dal, al), non entrambi' });
  if (!dal || !al) { ctx.addIssue({ code: 'custom', path: ['periodo'], message: 'Indica il mese di riferimento' }); return; }
  // A month the field refused already has its message.
  if (!parseMonth(dal) || !parseMonth(al)) return;
  if (monthIndex(al) < monthIndex(dal)) ctx.addIssue({ code: 'custom', path: ['al'], message: 'Il mese finale precede quello iniziale' });
  else if (monthIndex(al) - monthIndex(dal) + 1 > MAX_MONTHS) ctx.addIssue({ code: 'custom', path: ['al'], message: `Al massimo ${MAX_MONTHS} mesi per richiesta` });
  const now = new Date();
  if (monthIndex(al) >= now.getUTCFullYear() * 12 + now.getUTCMonth()) ctx.addIssue({ code: 'custom', path: [b.periodo ? 'periodo' : 'al'], message: 'Si possono segnalare solo mesi già conclusi' });
  if (monthIndex(dal) < 2000 * 12) ctx.addIssue({ code: 'custom', path: [b.periodo ? 'periodo' : 'dal'], message: 'Mese non valido' });
});
export type GenerateInput = z.infer<typeof generateSchema>;

export const submitSchema = z.object({ riferimento: testoOpzionale({ max: 200 }) }).strict();
export const completeSubmissionSchema = z.object({
  submission_id: z.uuid({ message: 'Invio non valido' }),
  esito: z.enum(REPORT_ESITI, { message: 'Indica l\'esito: accettata o scartata' }),
  protocollo: testoOpzionale({ max: 200 }),
  note: testoOpzionale({ max: 2_000, multiline: true }),
}).strict();
export const esitoFormSchema = z.object({
  esito: z.enum(REPORT_ESITI, { message: 'Indica l\'esito: accettata o scartata' }),
  protocollo: testoOpzionale({ max: 200 }),
  note: testoOpzionale({ max: 2_000, multiline: true }),
});

export const listReportsQuery = z.object({
  tipo: emptyToUndefined(z.enum(REPORT_TIPI)),
  stato: emptyToUndefined(z.enum(REPORT_STATES)),
  periodo: emptyToUndefined(month),
  overdue: emptyToUndefined(bool),
  ...listParamsShape(reportsList),
});
export type ListReportsQuery = z.infer<typeof listReportsQuery>;

const date = z.union([z.string(), z.date()]).nullable();
export const reportRecordSchema = z.object({
  id: z.string(), tipo: z.enum(REPORT_TIPI), periodo: z.string(), stato: z.enum(REPORT_STATES), progresso: z.number(), fase: z.string().nullable(),
  negativa: z.boolean().nullable(), righe: z.number(), operazioni: z.number(), totale_eur: z.number(), errore: z.string().nullable(),
  generated_by: z.string(), generated_by_username: z.string(), approved_by: z.string().nullable(), approved_at: date,
  due_at: date, due_soon: z.boolean(), overdue: z.boolean(), filing_id: z.string().nullable(), workflow_id: z.string(),
  created_at: date, updated_at: date, completed_at: date,
});
export const reportListResponse = listResponse(reportRecordSchema);
export const reportWriteResponse = reportRecordSchema.extend({
  allowed_actions: z.array(z.string()),
  submissions: z.array(z.object({
    id: z.string(), n: z.number(), riferimento: z.string().nullable(), inviata_da: z.string(), inviata_at: date,
    esito: z.string(), protocollo: z.string().nullable(), note: z.string().nullable(), esito_da: z.string().nullable(), esito_at: date,
  })),
});
export const generateResponse = z.object({ items: z.array(reportRecordSchema.pick({ id: true, tipo: true, periodo: true, stato: true, due_at: true })) });
