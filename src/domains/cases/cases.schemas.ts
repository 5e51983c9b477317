import { z } from 'zod';
import { CASE_ESITI, CASE_EVENT_TIPI, CASE_PRIORITA, CASE_TIPI } from '../../../workflows/case/case.contract';
import { CASE_STATES } from '../../../workflows/case/case.machine';
import { testo, testoOpzionale, testoOVuoto } from '../../http/text-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { casesList } from './cases.list';
import { refersTo } from '../../db/references';

const text = (max: number) => z.string().trim().max(max, `Massimo ${max} caratteri`);
const optionalText = (max: number) => text(max).optional().transform((v) => (v ? v : undefined));

export const createCaseSchema = z.object({
  titolo: testo({ max: 200, min: 3, vuoto: 'Indica un titolo' }),
  descrizione: testoOVuoto({ max: 10_000, multiline: true }),
  tipo: z.enum(CASE_TIPI, { message: 'Scegli un tipo valido' }),
  priorita: z.enum(CASE_PRIORITA, { message: 'Scegli una priorità valida' }),
  cod_anagrafe: refersTo('soggetto', optionalText(64)),
  assegnatario: refersTo('utente', z.union([z.uuid({ message: 'Assegnatario non valido' }), z.literal('')]).optional().transform((v) => v || undefined)),
});
export type CreateCaseInput = z.infer<typeof createCaseSchema>;

export const closeCaseSchema = z.object({
  esito: z.enum(CASE_ESITI, { message: 'Scegli un esito valido' }),
  motivazione: testo({ max: 5_000, multiline: true, vuoto: 'Indica la motivazione della chiusura' }),
});

const motivazione = testoOpzionale({ max: 5_000, multiline: true });
export const escalateCaseSchema = z.object({ motivazione });
export const reopenCaseSchema = z.object({ motivazione });
export const completeClosureSchema = z.object({ motivazione });

export const caseEventSchema = z.object({
  tipo: z.enum(CASE_EVENT_TIPI, { message: 'Scegli un tipo di evento valido' }),
  testo: testo({ max: 10_000, multiline: true, vuoto: 'Scrivi il testo dell\'evento' }),
});

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const listCasesQuery = z.object({
  stato: z.enum(CASE_STATES).optional().or(z.literal('').transform(() => undefined)),
  priorita: z.enum(CASE_PRIORITA).optional().or(z.literal('').transform(() => undefined)),
  overdue: bool.optional().or(z.literal('').transform(() => undefined)),
  assegnatario: z.union([z.uuid({ message: 'Assegnatario non valido' }), z.literal('me')]).optional().or(z.literal('').transform(() => undefined)),
  aperti: bool.optional().or(z.literal('').transform(() => undefined)),
  q: text(200).optional(),
  ...listParamsShape(casesList),
});
export type ListCasesQuery = z.infer<typeof listCasesQuery>;

export const caseRecordSchema = z.object({
  id: z.string(),
  cod_azienda: z.string(),
  titolo: z.string(),
  descrizione: z.string(),
  tipo: z.string(),
  priorita: z.string(),
  stato: z.enum(CASE_STATES),
  cod_anagrafe: z.string().nullable(),
  assegnatario: z.string().nullable(),
  esito: z.string().nullable(),
  motivazione_chiusura: z.string().nullable(),
  opened_by: z.string(),
  closing_requested_by: z.string().nullable(),
  closed_by: z.string().nullable(),
  sla_days: z.number(),
  sla_due_at: z.string(),
  overdue: z.boolean(),
  workflow_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
});

export const caseListResponse = listResponse(caseRecordSchema);

const caseEventRecord = z.object({ id: z.string(), tipo: z.string(), testo: z.string(), actor: z.string(), created_at: z.string() });

/** The answer to a write: the record as the change left it, the caller's next actions, and the event written. */
export const caseWriteResponse = caseRecordSchema.extend({
  allowed_actions: z.array(z.string()),
  workflow: z.object({ id: z.string(), url: z.string() }),
  event: caseEventRecord.optional(),
});

export const caseDetailResponse = caseRecordSchema.extend({
  allowed_actions: z.array(z.string()),
  events: z.array(caseEventRecord),
  audit: z.array(z.object({ seq: z.number().nullable(), action: z.string(), actor: z.string(), occurred_at: z.string(), data: z.record(z.string(), z.unknown()) })),
  workflow: z.object({ id: z.string(), url: z.string() }),
});
