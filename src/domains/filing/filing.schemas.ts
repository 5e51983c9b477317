import { z } from 'zod';
import { FILING_TIPI } from '../../../workflows/filing/filing.deadlines';
import { FILING_STATES } from '../../../workflows/filing/filing.machine';
import { testo, testoOpzionale } from '../../http/text-field';
import { JURISDICTION_IDS } from './goaml/jurisdiction';
import { dayField } from '../../http/day-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { filingsList } from './filing.list';

const periodo = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Mese di riferimento nel formato AAAA-MM');
const emptyToUndefined = <T extends z.ZodType>(s: T) => z.union([s, z.literal('').transform(() => undefined)]).optional();

/** The goAML report tree: objects, arrays and strings only (src/domains/filing/goaml/report-xml.ts). */
type Tree = string | Tree[] | { [k: string]: Tree };
const tree: z.ZodType<Tree> = z.lazy(() => z.union([z.string().max(10_000), z.array(tree).max(500), z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/, 'Nome di campo goAML non valido'), tree)]));
export const contentSchema = z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/, 'Nome di campo goAML non valido'), tree)
  .refine((c) => JSON.stringify(c).length <= 1_000_000, 'Contenuto troppo grande (massimo 1 MB)');

export const createFilingSchema = z.object({
  titolo: testo({ max: 200, vuoto: 'Indica un titolo' }),
  tipo: z.enum(FILING_TIPI, { message: 'Scegli un tipo valido' }),
  periodo_riferimento: emptyToUndefined(periodo),
  content: contentSchema.optional(),
}).superRefine((b, ctx) => {
  if (b.tipo !== 'str' && !b.periodo_riferimento) ctx.addIssue({ code: 'custom', path: ['periodo_riferimento'], message: 'Indica il mese di riferimento' });
});
export type CreateFilingInput = z.infer<typeof createFilingSchema>;

export const editFilingSchema = z.object({
  titolo: testoOpzionale({ max: 200 }),
  periodo_riferimento: emptyToUndefined(periodo),
  content: contentSchema.optional(),
});

export const classifyFilingSchema = z.object({
  tipo: z.enum(FILING_TIPI, { message: 'Scegli un tipo valido' }),
  jurisdiction: z.enum(JURISDICTION_IDS as [string, ...string[]], { message: 'Giurisdizione non supportata' }),
  report_code: z.string().trim().regex(/^[A-Z]{2,10}$/, 'Codice del report non valido'),
  periodo_riferimento: emptyToUndefined(periodo),
});

export const reasonSchema = z.object({ motivazione: testoOpzionale({ max: 5_000, multiline: true }) });
export const rejectSchema = z.object({ motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica il motivo del respingimento' }) });
export const recordSubmissionSchema = z.object({ submission_ref: testo({ max: 200, vuoto: 'Indica il riferimento dell\'invio (protocollo del portale)' }) });
export const emptySchema = z.object({}).strict();

/** The filings list's query (the API, the page, the export): its filters plus sort, limit, offset and cursor. */
export const listFilingsQuery = z.object({
  stato: emptyToUndefined(z.enum(FILING_STATES, { message: 'Stato non valido' })),
  tipo: emptyToUndefined(z.enum(FILING_TIPI, { message: 'Tipo non valido' })),
  cod_anagrafe: emptyToUndefined(z.string().trim().min(1).max(64, 'Codice cliente: al massimo 64 caratteri')),
  dal: emptyToUndefined(dayField('Dal')),
  al: emptyToUndefined(dayField('Al')),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(filingsList),
}).superRefine((q, ctx) => {
  if (q.dal && q.al && q.dal > q.al) ctx.addIssue({ code: 'custom', path: ['al'], message: 'La data finale precede quella iniziale' });
});
export type ListFilingsQuery = z.infer<typeof listFilingsQuery>;

export const previewQuery = z.object({
  jurisdiction: emptyToUndefined(z.enum(JURISDICTION_IDS as [string, ...string[]], { message: 'Giurisdizione non supportata' })),
  report_code: emptyToUndefined(z.string().trim().regex(/^[A-Z]{2,10}$/, 'Codice del report non valido')),
});

const finding = z.object({ code: z.string(), path: z.string(), message: z.string(), source: z.string() });
const date = z.union([z.string(), z.date()]).nullable();

export const filingRecordSchema = z.object({
  id: z.string(), cod_azienda: z.string(), titolo: z.string(), tipo: z.string(), periodo_riferimento: z.string().nullable(),
  jurisdiction: z.string().nullable(), report_code: z.string().nullable(), stato: z.enum(FILING_STATES),
  content: z.record(z.string(), z.unknown()), findings: z.array(finding), return_errors: z.array(finding),
  package_sha256: z.string().nullable(), submission_ref: z.string().nullable(), fiu_ref_number: z.string().nullable(),
  reject_reason: z.string().nullable(), created_by: z.string(), prepared_by: z.string().nullable(), approved_by: z.string().nullable(),
  ceremony_id: z.string().nullable(), signed_at: date, parent_id: z.string().nullable(), follow_up_id: z.string().nullable(),
  due_at: date, overdue: z.boolean(), workflow_id: z.string(), created_at: date, updated_at: date,
  /** The customer the filing is about; reserved: made from an SOS, visible only to `sos` and `co`. */
  cod_anagrafe: z.string().nullable().optional(), riservata: z.boolean().optional(),
  allowed_actions: z.array(z.string()),
});

export const filingWriteResponse = filingRecordSchema.extend({
  workflow: z.object({ id: z.string(), url: z.string() }),
  signing_url: z.string().optional(),
  follow_up: z.object({ id: z.string() }).optional(),
});

export const filingDetailResponse = filingWriteResponse.extend({
  /** The SOS the filing was made from: only for who may see the report (the database decides), else null. */
  sos: z.object({ id: z.string(), cod_segnalazione: z.string() }).nullable(),
  events: z.array(z.object({ id: z.string(), tipo: z.string(), testo: z.string(), actor: z.string(), created_at: date })),
});

export const filingListResponse = listResponse(filingRecordSchema.omit({ content: true, findings: true, return_errors: true, allowed_actions: true })
  .extend({ errori: z.number() }));

export const previewResponse = z.object({
  jurisdiction: z.string(), schema_version: z.string(), report_code: z.string().nullable(), valid: z.boolean(),
  findings: z.array(finding), xml: z.string(),
});

export const filingInvalidResponse = z.object({ findings: z.array(finding) });
